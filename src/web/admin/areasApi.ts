// The Business Data section's calls: the areas with imported data, region refreshes and
// Overture imports, by the contract's keys.
import type { RefreshStarted } from '../../core/api';
import { GENERIC_ERROR, NETWORK_ERROR } from '../../core/messages';
import { ApiError, call, urlOf } from '../http';

export type { AreaBox, AreasAnswer, DataArea, RefreshProgress, RegionRefresh } from '../../core/api';

export const AREA_KEYS = {
  areas: ['admin', 'areas'] as const,
  job: (id: string) => ['admin', 'areas', 'job', id] as const,
};

/**
 * Send an Overture places file as the request body, reporting the share sent (0..1): XMLHttpRequest, since fetch()
 * tells nothing of an upload's progress, and a national file takes minutes to send.
 */
function uploadFile(file: File, onProgress: (sent: number) => void): Promise<RefreshStarted> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', urlOf('POST /api/admin/areas/overture-upload', { query: { name: file.name } }));
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(NETWORK_ERROR, 0));
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // An answer that is not JSON (a proxy's page): the generic message below.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as unknown as RefreshStarted);
      else {
        const message = typeof body.error === 'string' && body.error ? body.error : GENERIC_ERROR;
        reject(new ApiError(message, xhr.status, body));
      }
    };
    xhr.send(file);
  });
}

export const areasApi = {
  list: () => call('GET /api/admin/areas'),
  refresh: (region: string) => call('POST /api/admin/areas/refresh', { body: { region } }),
  job: (jobId: string) => call('GET /api/admin/areas/jobs/:jobId', { params: { jobId } }),
  overtureFile: (path: string) => call('POST /api/admin/areas/overture-file', { body: { path } }),
  overtureUpload: uploadFile,
};
