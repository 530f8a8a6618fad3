// The admin screens' messages and labels, in the product's exact words (docs/PRODUCT.md, "Messages").
export const NO_BLOCKED = 'No blocked businesses';
export const NO_ADVERTISERS = 'No current advertisers marked';
export const NO_PROSPECTS_TO_EXPORT = 'No prospects to export';
export const revokeInvitationFailed = (m: string) => `Error revoking invitation: ${m}`;
export const NO_INVITATIONS = 'No invitations found';

export const REFRESH_USERS_FAILED = 'Failed to refresh users. Please try again.';
export const UPDATE_ROLE_FAILED = 'Failed to update user role. Please try again.';
export const DELETE_USER_FAILED = 'Failed to delete user. Please try again.';
export const suspendFailed = (m: string) => `Failed to suspend: ${m}`;
export const reEnableFailed = (m: string) => `Failed to re-enable: ${m}`;
export const hardDeleteFailed = (m: string) => `Failed to hard delete: ${m}`;
export const BLOCKLIST_LOAD_FAILED = 'Error loading universal blocklist';
export const invitationsLoadFailed = (m: string) => `Error loading invitations: ${m}`;
export const invitationFailed = (m: string) => `Error generating invitation: ${m}`;
export const clearBlocklistFailed = (m: string) => `Error clearing blocklist: ${m}`;

export const TAB_ALL_PROSPECTS = 'All Prospects';
export const TAB_BLOCKED = 'Blocked';
export const TAB_ADVERTISERS = 'Current Advertisers';
export const TAB_ADMIN_PANEL = 'Admin Panel';
export const TAB_TEAM = 'Team';

/** "1 blocked business", "2 blocked businesses". */
export const blockedBusinesses = (n: number) => `${n} blocked ${n === 1 ? 'business' : 'businesses'}`;
