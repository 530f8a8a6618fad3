// The Business Data section's calls (issue 14 item 15): the areas with imported data and region refreshes.
// Shapes as src/server/areas/service.ts presents them.
import { request } from './http';

export interface AreaBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

export interface DataArea {
  key: string;
  name: string;
  /** The region name to refresh it with; null for an area imported from a file. */
  region: string | null;
  source: string;
  bbox: AreaBox | null;
  businesses: number;
  /** The date of the data: the extract's own when it says, else the import's. */
  dataDate: string;
  dataDateFrom: 'extract' | 'import';
  importedAt: string;
}

export type RefreshProgress =
  | { stage: 'downloading'; bytes: number; total: number }
  | { stage: 'importing'; pass: 1 | 2; percent: number; businesses: number };

export interface RegionRefresh {
  jobId: string;
  region: string;
  status: 'pending' | 'running' | 'complete' | 'error';
  progress: RefreshProgress | null;
  result: { region: string; businesses: number; total: number; bytes: number } | null;
  error: string | null;
  startedAt: string;
}

export interface AreasAnswer {
  areas: DataArea[];
  /** Businesses stored, every area together. */
  businesses: number;
  /** Refreshes pending or running. */
  refreshes: RegionRefresh[];
}

export const AREA_KEYS = {
  areas: ['admin', 'areas'] as const,
  job: (id: string) => ['admin', 'areas', 'job', id] as const,
};

export const areasApi = {
  list: () => request<AreasAnswer>('GET', '/api/admin/areas'),
  refresh: (region: string) =>
    request<{ jobId: string; region: string; status: 'pending' }>('POST', '/api/admin/areas/refresh', {
      region,
    }),
  job: (jobId: string) => request<RegionRefresh>('GET', `/api/admin/areas/jobs/${encodeURIComponent(jobId)}`),
};
