// The admin actions the audit log names: the stored code and the words the Audit Log panel shows for it.

export const AUDIT_ACTION_LABELS = {
  'blocklist.block': 'Blocked a business',
  'blocklist.unblock': 'Unblocked a business',
  'blocklist.clear': 'Cleared the blocklist',
  'advertiser.unmark': 'Unmarked a current advertiser',
  'advertisers.import': 'Imported current advertisers',
  'billing.import': 'Imported billing',
  'billing.settings': 'Changed who sees billing amounts',
  'user.role_change': 'Changed a role',
  'user.profile_delete': 'Deleted a profile',
  'user.suspend': 'Suspended a user',
  'user.unsuspend': 'Unsuspended a user',
  'user.hard_delete': 'Hard-deleted a user',
  'invitation.generate': 'Generated an invitation',
  'invitation.revoke': 'Revoked an invitation',
  'settings.update': 'Changed algorithm settings',
  'cache.clear': 'Cleared the caches',
  'places.region_refresh': 'Started a region download',
  'places.overture_import': 'Started an Overture places import',
  'prospect.category_change': 'Changed a category',
  'territory.create': 'Created a territory',
  'territory.update': 'Changed a territory',
  'territory.delete': 'Deleted a territory',
  // The team pipeline: every change of a business's stage or owner, by reps too.
  'pipeline.claim': 'Claimed a business',
  'pipeline.stage': 'Changed a pipeline stage',
  'pipeline.release': 'Released a business',
  'pipeline.reassign': 'Reassigned a business',
  'pipeline.admin_release': 'Released a business (admin)',
  'pipeline.auto_release': 'Released a stale claim automatically',
  // Admin reads that take data out or look into it (exports, another user's data, the blocklist check): nothing
  // changes, but the log must still say who saw what.
  'export.all_prospects': 'Exported the prospects summary',
  'export.prospects': 'Exported prospects with every column',
  'export.audit_log': 'Exported the audit log',
  'user.data_view': "Viewed a user's data",
  'team.route_view': "Viewed a rep's route history",
  'prospects.view': 'Viewed a page of All Prospects',
  'blocklist.check': 'Checked the blocklist',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** The panel's words for a stored action; a code this build does not know (a newer one) shows as stored. */
export function auditActionLabel(action: string): string {
  return Object.hasOwn(AUDIT_ACTION_LABELS, action) ? AUDIT_ACTION_LABELS[action as AuditAction] : action;
}
