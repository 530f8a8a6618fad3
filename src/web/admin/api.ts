// The admin screens' calls, by the contract's keys (src/web/http.ts types each from its entry).
import type { AlgorithmSettings, BillingSettings, Role } from '../../core/api';
import { runtimeTimeZone } from '../../core/time-zone';
import { call, callWithText, downloadFile } from '../http';

/** All Prospects are loaded this many at a time (the server allows up to 500). */
export const TEAM_PAGE_SIZE = 100;

export const adminApi = {
  // All Prospects and exports
  allProspects: (offset = 0, limit = TEAM_PAGE_SIZE) =>
    call('GET /api/admin/all-prospects', { query: { offset, limit } }),
  // The browser's time zone: the files' dates (and the {date} of their names) are the rep's local time.
  exportAllProspects: () =>
    downloadFile('all_prospects_summary.csv', 'GET /api/exports/all-prospects.csv', {
      query: { tz: runtimeTimeZone() },
    }),
  exportProspects: (scope: 'team' | 'current') =>
    downloadFile('prospects.csv', 'GET /api/exports/prospects.csv', {
      query: { scope, tz: runtimeTimeZone() },
    }),

  // Blocklist
  blocklist: async () => (await call('GET /api/blocklist')).blocklist,
  block: (businessId: string, label: string) => call('POST /api/blocklist', { body: { businessId, label } }),
  unblock: (businessId: string) => call('DELETE /api/blocklist/:businessId', { params: { businessId } }),
  clearBlocklist: async () => (await call('DELETE /api/blocklist')).cleared,
  checkBlocked: (businessId: string) =>
    call('GET /api/blocklist/check/:businessId', { params: { businessId } }),

  // Current advertisers
  advertisers: async () => (await call('GET /api/current-advertisers')).advertisers,
  unmarkAdvertiser: (businessId: string) =>
    call('DELETE /api/current-advertisers/:businessId', { params: { businessId } }),
  importAdvertisers: (csv: string) => callWithText('POST /api/current-advertisers/import', csv, 'text/csv'),

  // Billing
  importBilling: (csv: string, preview: boolean) =>
    callWithText('POST /api/admin/billing', csv, 'text/csv', { preview: String(preview) }),
  lapsed: () => call('GET /api/advertisers/lapsed'),
  billingSettings: async () => (await call('GET /api/admin/billing/settings')).settings,
  updateBillingSettings: async (patch: Partial<BillingSettings>) =>
    (await call('PATCH /api/admin/billing/settings', { body: patch })).settings,

  // Users
  users: async () => (await call('GET /api/users')).users,
  changeRole: (id: string, role: Role) =>
    call('PATCH /api/users/:id/role', { params: { id }, body: { role } }),
  deleteProfile: (id: string) => call('DELETE /api/users/:id', { params: { id } }),
  suspend: (id: string) => call('POST /api/users/:id/suspend', { params: { id } }),
  unsuspend: (id: string) => call('POST /api/users/:id/unsuspend', { params: { id } }),
  hardDelete: (id: string, password: string) =>
    call('POST /api/users/:id/hard-delete', { params: { id }, body: { password } }),
  userData: (id: string) => call('GET /api/users/:id/data', { params: { id } }),

  // Invitations
  invitations: async () => (await call('GET /api/invitations')).invitations,
  createInvitation: (email?: string) => call('POST /api/invitations', { body: email ? { email } : {} }),
  revokeInvitation: (id: string) => call('POST /api/invitations/:id/revoke', { params: { id } }),

  // Caches and settings
  cacheStats: () => call('GET /api/admin/cache'),
  clearCache: () => call('DELETE /api/admin/cache'),
  websiteChecks: () => call('GET /api/admin/website-checks'),
  recheckWebsite: (businessKey: string) => call('POST /api/admin/website-checks', { body: { businessKey } }),
  settings: async () => (await call('GET /api/admin/settings')).settings,
  updateSettings: async (patch: Partial<AlgorithmSettings>) =>
    (await call('PATCH /api/admin/settings', { body: patch })).settings,

  // Audit log
  audit: (page: number, pageSize: number) => call('GET /api/audit', { query: { page, pageSize } }),
  exportAudit: () => downloadFile('audit_log.csv', 'GET /api/audit/export.csv'),
};

export const ADMIN_KEYS = {
  allProspects: ['admin', 'allProspects'] as const,
  blocklist: ['blocklist'] as const,
  advertisers: ['advertisers'] as const,
  lapsed: ['advertisers', 'lapsed'] as const,
  billingSettings: ['admin', 'billingSettings'] as const,
  users: ['admin', 'users'] as const,
  invitations: ['admin', 'invitations'] as const,
  cache: ['admin', 'cache'] as const,
  websiteChecks: ['admin', 'websiteChecks'] as const,
  settings: ['admin', 'settings'] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
};
