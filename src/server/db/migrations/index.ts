import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0800-initial.js';
import * as places from './2026-11-22T0900-places.js';
import * as auditLog from './2026-11-22T0910-audit-log.js';
import * as jobs from './2026-11-22T0920-jobs.js';
import * as accountSuspensions from './2026-11-23T1000-account-suspensions.js';
import * as jobLimits from './2026-11-23T1200-job-limits.js';
import * as strategyOwner from './2026-11-23T1210-strategy-owner.js';
import * as teamProspects from './2026-11-23T1300-team-prospects.js';
import * as savedNote from './2026-11-24T1900-saved-note.js';
import * as market from './2026-11-24T2000-market.js';
import * as placeAreas from './2026-11-24T2200-place-areas.js';
import * as teamDashboard from './2026-11-24T2200-team-dashboard.js';
import * as websiteEvidence from './2026-11-24T2200-website-evidence.js';
import * as pipeline from './2026-11-25T0510-pipeline.js';
import * as websiteHosts from './2026-11-25T0530-website-hosts.js';
import * as callLogRollups from './2026-11-25T0550-call-log-rollups.js';
import * as followUps from './2026-11-25T0500-follow-ups.js';
import * as visits from './2026-11-25T0520-visits.js';
import * as teamFunnel from './2026-11-25T0600-team-funnel.js';
import * as analysisBasis from './2026-11-25T0700-analysis-basis.js';
import * as idempotencyKeys from './2026-11-26T0600-idempotency-keys.js';
import * as firstContacts from './2026-11-26T0700-first-contacts.js';
import * as scanSlots from './2026-11-26T0800-scan-slots.js';
import * as teamPending from './2026-11-26T0900-team-pending.js';
import * as latestLz4 from './2026-11-26T1000-latest-lz4.js';
import * as placeProfiles from './2026-11-27T1200-place-profiles.js';
import * as referenceProfileVersion from './2026-11-27T1300-reference-profile-version.js';
import * as placeRanks from './2026-11-28T0900-place-ranks.js';
import * as placeSources from './2026-11-28T1000-place-sources.js';
import * as addresses from './2026-11-28T1500-addresses.js';
import * as invitationRevoked from './2026-11-28T1600-invitation-revoked.js';
import * as dailyWrites from './2026-11-28T1800-daily-writes.js';
import * as followUpCallLog from './2026-11-28T1900-follow-up-call-log.js';
import * as oneLineNames from './2026-11-28T1950-one-line-names.js';
import * as territories from './2026-11-28T2100-territories.js';
import * as billing from './2026-11-28T2130-billing.js';

// Every migration, keyed by its timestamped name; Kysely applies them in name order.
// A new migration: add a file named `YYYY-MM-DDTHHMM-what.ts` and list it here.
export const migrations: Record<string, Migration> = {
  '2026-11-22T0800-initial': initial,
  '2026-11-22T0900-places': places,
  '2026-11-22T0910-audit-log': auditLog,
  '2026-11-22T0920-jobs': jobs,
  '2026-11-23T1000-account-suspensions': accountSuspensions,
  '2026-11-23T1200-job-limits': jobLimits,
  '2026-11-23T1210-strategy-owner': strategyOwner,
  '2026-11-23T1300-team-prospects': teamProspects,
  '2026-11-24T1900-saved-note': savedNote,
  '2026-11-24T2000-market': market,
  '2026-11-24T2200-place-areas': placeAreas,
  '2026-11-24T2200-team-dashboard': teamDashboard,
  '2026-11-24T2200-website-evidence': websiteEvidence,
  '2026-11-25T0500-follow-ups': followUps,
  '2026-11-25T0510-pipeline': pipeline,
  '2026-11-25T0520-visits': visits,
  '2026-11-25T0530-website-hosts': websiteHosts,
  '2026-11-25T0550-call-log-rollups': callLogRollups,
  '2026-11-25T0600-team-funnel': teamFunnel,
  '2026-11-25T0700-analysis-basis': analysisBasis,
  '2026-11-26T0600-idempotency-keys': idempotencyKeys,
  '2026-11-26T0700-first-contacts': firstContacts,
  '2026-11-26T0800-scan-slots': scanSlots,
  '2026-11-26T0900-team-pending': teamPending,
  '2026-11-26T1000-latest-lz4': latestLz4,
  '2026-11-27T1200-place-profiles': placeProfiles,
  '2026-11-27T1300-reference-profile-version': referenceProfileVersion,
  '2026-11-28T0900-place-ranks': placeRanks,
  '2026-11-28T1000-place-sources': placeSources,
  '2026-11-28T1500-addresses': addresses,
  '2026-11-28T1600-invitation-revoked': invitationRevoked,
  '2026-11-28T1800-daily-writes': dailyWrites,
  '2026-11-28T1900-follow-up-call-log': followUpCallLog,
  '2026-11-28T1950-one-line-names': oneLineNames,
  '2026-11-28T2100-territories': territories,
  '2026-11-28T2130-billing': billing,
};
