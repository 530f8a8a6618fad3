// The Territories section's calls, by the contract's keys. The list is the main screen's query (an admin gets every
// territory from GET /api/territories), so a save shows on the map and in the scan settings at once.
import type { TerritoryInput } from '../../../core/api/territories';
import { call } from '../../http';

export type { TerritoryInput };

export const territoryAdminApi = {
  create: async (body: TerritoryInput) => (await call('POST /api/territories', { body })).territory,
  update: async (id: string, body: TerritoryInput) =>
    (await call('PUT /api/territories/:id', { params: { id }, body })).territory,
  remove: (id: string) => call('DELETE /api/territories/:id', { params: { id } }),
};
