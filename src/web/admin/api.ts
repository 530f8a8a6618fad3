// The admin screens' calls. Shapes: the API contract's (src/core/api).
import type {
  Advertiser,
  AlgorithmSettings,
  AuditPage,
  BlockCheck,
  BlockedItem,
  CacheStats,
  ImportReport,
  Invitation,
  Role,
  TeamProspectsPage,
  UserAnswer,
  UserData,
  UserRow,
  WebsiteChecks,
} from '../../core/api';
import { browserTimeZone } from '../format';
import { downloadFile, postText, request } from './http';

/** All Prospects are loaded this many at a time (the server allows up to 500). */
export const TEAM_PAGE_SIZE = 100;

const enc = encodeURIComponent;

export const adminApi = {
  // All Prospects and exports
  allProspects: (offset = 0, limit = TEAM_PAGE_SIZE) =>
    request<TeamProspectsPage>('GET', `/api/admin/all-prospects?offset=${offset}&limit=${limit}`),
  // The browser's time zone: the files' dates (and the {date} of their names) are the rep's local time.
  exportAllProspects: () =>
    downloadFile(
      `/api/exports/all-prospects.csv?tz=${encodeURIComponent(browserTimeZone())}`,
      'all_prospects_summary.csv',
    ),
  exportProspects: (scope: 'team' | 'current') =>
    downloadFile(
      `/api/exports/prospects.csv?scope=${scope}&tz=${encodeURIComponent(browserTimeZone())}`,
      'prospects.csv',
    ),

  // Blocklist
  blocklist: async () => (await request<{ blocklist: BlockedItem[] }>('GET', '/api/blocklist')).blocklist,
  block: (businessId: string, label: string) =>
    request<{ blocked: BlockedItem; created: boolean }>('POST', '/api/blocklist', { businessId, label }),
  unblock: (businessId: string) => request<void>('DELETE', `/api/blocklist/${enc(businessId)}`),
  clearBlocklist: async () => (await request<{ cleared: number }>('DELETE', '/api/blocklist')).cleared,
  checkBlocked: (businessId: string) => request<BlockCheck>('GET', `/api/blocklist/check/${enc(businessId)}`),

  // Current advertisers
  advertisers: async () =>
    (await request<{ advertisers: Advertiser[] }>('GET', '/api/current-advertisers')).advertisers,
  unmarkAdvertiser: (businessId: string) =>
    request<void>('DELETE', `/api/current-advertisers/${enc(businessId)}`),
  importAdvertisers: (csv: string) =>
    postText<ImportReport>('/api/current-advertisers/import', csv, 'text/csv'),

  // Users
  users: async () => (await request<{ users: UserRow[] }>('GET', '/api/users')).users,
  changeRole: (id: string, role: Role) =>
    request<UserAnswer>('PATCH', `/api/users/${enc(id)}/role`, { role }),
  deleteProfile: (id: string) => request<void>('DELETE', `/api/users/${enc(id)}`),
  suspend: (id: string) => request<UserAnswer>('POST', `/api/users/${enc(id)}/suspend`, {}),
  unsuspend: (id: string) => request<UserAnswer>('POST', `/api/users/${enc(id)}/unsuspend`, {}),
  hardDelete: (id: string, password: string) =>
    request<void>('POST', `/api/users/${enc(id)}/hard-delete`, { password }),
  userData: (id: string) => request<UserData>('GET', `/api/users/${enc(id)}/data`),

  // Invitations
  invitations: async () =>
    (await request<{ invitations: Invitation[] }>('GET', '/api/invitations')).invitations,
  createInvitation: (email?: string) =>
    request<{ invitation: Invitation; link: string }>('POST', '/api/invitations', email ? { email } : {}),

  // Caches and settings
  cacheStats: () => request<CacheStats>('GET', '/api/admin/cache'),
  clearCache: () => request<void>('DELETE', '/api/admin/cache'),
  websiteChecks: () => request<WebsiteChecks>('GET', '/api/admin/website-checks'),
  recheckWebsite: (businessKey: string) =>
    request<{ queued: boolean }>('POST', '/api/admin/website-checks', { businessKey }),
  settings: async () =>
    (await request<{ settings: AlgorithmSettings }>('GET', '/api/admin/settings')).settings,
  updateSettings: async (patch: Partial<AlgorithmSettings>) =>
    (await request<{ settings: AlgorithmSettings }>('PATCH', '/api/admin/settings', patch)).settings,

  // Audit log
  audit: (page: number, pageSize: number) =>
    request<AuditPage>('GET', `/api/audit?page=${page}&pageSize=${pageSize}`),
  exportAudit: () => downloadFile('/api/audit/export.csv', 'audit_log.csv'),
};

export const ADMIN_KEYS = {
  allProspects: ['admin', 'allProspects'] as const,
  blocklist: ['blocklist'] as const,
  advertisers: ['advertisers'] as const,
  users: ['admin', 'users'] as const,
  invitations: ['admin', 'invitations'] as const,
  cache: ['admin', 'cache'] as const,
  websiteChecks: ['admin', 'websiteChecks'] as const,
  settings: ['admin', 'settings'] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
};
