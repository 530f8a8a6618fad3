// The admin slice's calls (issue 5). Shapes as the server presents them; see src/server/*/routes.ts.
import type { Advertiser, Role } from '../api';
import { browserTimeZone } from '../format';
import { downloadFile, postText, request } from './http';

export interface TeamProspect {
  id: string;
  name: string;
  category: string;
  address: string;
  city?: string;
  state?: string;
  zip?: string;
  phone?: string;
  website?: string;
  rating?: number;
  reviews?: number;
  score: number;
  /** id null once the rep's account was deleted */
  scannedBy: { id: string | null; name: string | null };
  scannedAt: string;
}

/** A page of All Prospects; `total` counts every one. */
export interface TeamProspectsPage {
  prospects: TeamProspect[];
  total: number;
}

/** All Prospects are loaded this many at a time (the server allows up to 500). */
export const TEAM_PAGE_SIZE = 100;

export interface BlockedItem {
  businessId: string;
  label: string;
  /** Where the business is (from the team's copy), when known. */
  address?: string;
  blockedBy: string | null;
  blockedByName: string | null;
  blockedAt: string;
}

export interface RowPermissions {
  changeRole: Role[];
  deleteProfile: boolean;
  suspend: boolean;
  hardDelete: boolean;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  isSuperAdmin: boolean;
  suspended: boolean;
  suspendedAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
  can: RowPermissions;
}

export interface UserData {
  userId: string;
  lastSignInAt: string | null;
  searches: number;
  callLogs: number;
  savedProspects: number;
}

export interface InvitationRow {
  id: string;
  code: string;
  invitedBy: string | null;
  invitedByName: string;
  invitedEmail: string | null;
  createdAt: string;
  expiresAt: string;
  status: 'open' | 'used' | 'expired';
  usedBy: string | null;
  usedByEmail: string | null;
  usedAt: string | null;
}

export interface CacheStats {
  total: number;
  valid: number;
  expired: number;
  businesses?: number;
  modelVersion?: string;
  expiryDays?: number;
}

/** The website checks' queue (issue 17). */
export interface WebsiteChecks {
  enabled: boolean;
  waiting: number;
  done: number;
  failed: number;
  recent: {
    id: string;
    businessKey: string;
    name: string | null;
    website: string | null;
    state: 'waiting' | 'done' | 'failed';
    outcome: string | null;
    reason: string | null;
    updatedAt: string;
  }[];
}

export interface AlgorithmSettings {
  showAllProspects: boolean;
  useOsmTopUp: boolean;
  useLlmAnalysis: boolean;
}

export interface AuditEntry {
  id: string;
  actor: { id: string | null; name: string; email: string | null };
  action: string;
  target: { type: string; id: string | null; label: string | null };
  details: Record<string, unknown>;
  createdAt: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  page: number;
  pageSize: number;
  total: number;
}

export type MatchRule = 'phone' | 'name-and-address' | 'website' | 'address' | 'name';

export interface ImportReport {
  matched: { row: number; businessId: string; label: string; rule: MatchRule; alreadyMarked: boolean }[];
  unmatched: { row: number; reason: string }[];
  newlyMarked: number;
}

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
    request<{ created: boolean }>('POST', '/api/blocklist', { businessId, label }),
  unblock: (businessId: string) => request<void>('DELETE', `/api/blocklist/${enc(businessId)}`),
  clearBlocklist: async () => (await request<{ cleared: number }>('DELETE', '/api/blocklist')).cleared,
  checkBlocked: (businessId: string) =>
    request<{ businessId: string; blocked: boolean; entry: BlockedItem | null }>(
      'GET',
      `/api/blocklist/check/${enc(businessId)}`,
    ),

  // Current advertisers
  advertisers: async () =>
    (await request<{ advertisers: Advertiser[] }>('GET', '/api/current-advertisers')).advertisers,
  unmarkAdvertiser: (businessId: string) =>
    request<void>('DELETE', `/api/current-advertisers/${enc(businessId)}`),
  importAdvertisers: (csv: string) =>
    postText<ImportReport>('/api/current-advertisers/import', csv, 'text/csv'),

  // Users
  users: async () => (await request<{ users: UserRow[] }>('GET', '/api/users')).users,
  changeRole: (id: string, role: Role) => request<unknown>('PATCH', `/api/users/${enc(id)}/role`, { role }),
  deleteProfile: (id: string) => request<void>('DELETE', `/api/users/${enc(id)}`),
  suspend: (id: string) => request<unknown>('POST', `/api/users/${enc(id)}/suspend`, {}),
  unsuspend: (id: string) => request<unknown>('POST', `/api/users/${enc(id)}/unsuspend`, {}),
  hardDelete: (id: string, password: string) =>
    request<void>('POST', `/api/users/${enc(id)}/hard-delete`, { password }),
  userData: (id: string) => request<UserData>('GET', `/api/users/${enc(id)}/data`),

  // Invitations
  invitations: async () =>
    (await request<{ invitations: InvitationRow[] }>('GET', '/api/invitations')).invitations,
  createInvitation: (email?: string) =>
    request<{ invitation: InvitationRow; link: string }>('POST', '/api/invitations', email ? { email } : {}),

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
