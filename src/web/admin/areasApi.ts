// The Business Data section's calls (issue 14 item 15): the areas with imported data and region refreshes.
// Shapes: the API contract's (src/core/api/areas.ts).
import type { AreasAnswer, RefreshStarted, RefreshStatus } from '../../core/api';
import { request } from './http';

export type { AreaBox, AreasAnswer, DataArea, RefreshProgress, RegionRefresh } from '../../core/api';

export const AREA_KEYS = {
  areas: ['admin', 'areas'] as const,
  job: (id: string) => ['admin', 'areas', 'job', id] as const,
};

export const areasApi = {
  list: () => request<AreasAnswer>('GET', '/api/admin/areas'),
  refresh: (region: string) => request<RefreshStarted>('POST', '/api/admin/areas/refresh', { region }),
  job: (jobId: string) => request<RefreshStatus>('GET', `/api/admin/areas/jobs/${encodeURIComponent(jobId)}`),
};
