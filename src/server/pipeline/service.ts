import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import type { Database, PipelineHistoryTable, PipelineTable } from '../db/schema.js';
import type { EventBus } from '../events/bus.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { insertAdvertiserIfAbsent } from '../advertisers/repository.js';
import { presentAdvertiser } from '../advertisers/service.js';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors.js';
import { isAdmin, isSuperAdmin } from '../http/access.js';
import { findListedUser, isSuspended } from '../users/repository.js';
import type { Role } from '../db/schema.js';
import { businessRecord, UNKNOWN_BUSINESS } from '../scans/business-record.js';
import { normalizeBusinessId } from '../../core/business-id.js';
import type { AuditAction } from '../../core/audit.js';
import type { Advertiser } from '../../core/api/lists.js';
import type { PipelineEntry, PipelineHistoryEntry } from '../../core/api/pipeline.js';
import {
  ALREADY_OWNER,
  CALL_CLAIM_STAGE,
  NOT_CLAIMED,
  PIPELINE_REASONS,
  UNCLAIMED_STAGE,
  WON_STAGE,
  callLogEffect,
  decideStageChange,
  isPipelineStage,
  releaseCutoff,
  type PipelineStage,
  type PipelineState,
} from '../../core/pipeline.js';
import {
  findEntry,
  insertHistory,
  listEntries,
  listHistory,
  profileName,
  staleEntries,
  writeEntryIf,
  type PipelineRow,
} from './repository.js';
import { settleAfterAnswer } from '../scans/after-answer.js';

// The team pipeline (docs/PRODUCT.md, "Follow-ups, routes and the pipeline"). Every change is a
// compare-and-set of the business's one row, with a history row and an audit entry in the same transaction,
// then a `pipeline` notice on the event bus so every rep's open screen shows the new owner and stage.

export const USER_NOT_FOUND = 'No such user to assign the business to.';
export const USER_SUSPENDED = 'That account is suspended; assign the business to an active rep.';
/** Admins never act on SuperAdmins (the accounts' rule): not on their claims, nor by handing them one. */
export const ONLY_SUPERADMINS_MANAGE_SUPERADMINS = 'Only SuperAdmins can manage SuperAdmins';
/** The audit log's actor for the automatic release. */
export const SYSTEM_ACTOR: AuditActor = { id: null, name: 'Prospect Finder' };

type Trx = Transaction<Database>;
export interface Actor {
  id: string;
  name: string;
  email?: string | null;
  /** The actor's role: an admin may jump stages (to Won); a rep moves in order. Without one: a rep. */
  role?: Role;
  isSuperAdmin?: boolean;
}

const actsAsAdmin = (actor: Actor) =>
  actor.role !== undefined && isAdmin({ role: actor.role, isSuperAdmin: actor.isSuperAdmin ?? false });
const actsAsSuperAdmin = (actor: Actor) =>
  actor.role !== undefined && isSuperAdmin({ role: actor.role, isSuperAdmin: actor.isSuperAdmin ?? false });

/** Refuses an admin's act on a SuperAdmin's claim or in a SuperAdmin's name (SuperAdmins may). */
async function assertNotOnSuperAdmin(trx: Trx, actor: Actor, userId: string | null): Promise<void> {
  if (userId === null || actsAsSuperAdmin(actor)) return;
  const profile = await findListedUser(trx, userId);
  if (profile && isSuperAdmin(profile)) throw forbidden(ONLY_SUPERADMINS_MANAGE_SUPERADMINS);
}

const asStage = (value: string): PipelineStage => (isPipelineStage(value) ? value : UNCLAIMED_STAGE);

export function presentEntry(
  row: PipelineRow | (PipelineTable & { profile_name?: string | null }),
): PipelineEntry {
  return {
    businessId: row.business_id,
    label: row.label,
    ownerId: row.owner_id,
    ownerName: row.owner_id === null ? null : (row.profile_name ?? row.owner_name ?? null),
    stage: asStage(row.stage),
    since: row.since,
    updatedAt: row.updated_at,
  };
}

function presentHistory(row: PipelineHistoryTable): PipelineHistoryEntry {
  return {
    id: row.id,
    businessId: row.business_id,
    fromStage: row.from_stage === null ? null : asStage(row.from_stage),
    toStage: asStage(row.to_stage),
    fromOwnerId: row.from_owner_id,
    fromOwnerName: row.from_owner_name,
    toOwnerId: row.to_owner_id,
    toOwnerName: row.to_owner_name,
    byId: row.by_id,
    byName: row.by_name,
    at: row.at,
    reason: row.reason,
  };
}

/** The stored columns of a row read with its owner's profile name. */
const tableRow = ({ profile_name: _name, ...row }: PipelineRow): PipelineTable => row;

const stateOf = (row: PipelineRow | undefined): PipelineState | null =>
  row ? { ownerId: row.owner_id, ownerName: presentEntry(row).ownerName, stage: asStage(row.stage) } : null;

let sequence = 0;
/** History ids sort in creation order (time, then a per-process counter). */
function historyId(now: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${now.toString(36).padStart(9, '0')}-${sequence.toString().padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
}

/** What one change did, to publish once its transaction committed. */
interface Change {
  entry: PipelineEntry;
  advertiser?: Advertiser;
}

interface Step {
  next: PipelineTable;
  reason: string;
  action: AuditAction;
  /** Moving to Won marks the business a current advertiser unless this is false (the rep said no). */
  markAdvertiser?: boolean;
}

/**
 * Writes one change of a business's row (conditional on the row being as read), its history and its audit
 * entry, and marks a Won business a current advertiser, all in `trx`. Returns null when the row changed
 * since it was read (the caller reads again and decides again).
 */
async function applyStep(
  trx: Trx,
  by: AuditActor,
  current: PipelineRow | undefined,
  step: Step,
): Promise<Change | null> {
  const { next } = step;
  if (!(await writeEntryIf(trx, current, next))) return null;
  const before = current ? presentEntry(current) : null;
  const now = Date.parse(next.updated_at);
  await insertHistory(trx, {
    id: historyId(Number.isFinite(now) ? now : Date.now()),
    business_id: next.business_id,
    from_stage: before?.stage ?? null,
    to_stage: next.stage,
    from_owner_id: before?.ownerId ?? null,
    from_owner_name: before?.ownerName ?? null,
    to_owner_id: next.owner_id,
    to_owner_name: next.owner_name,
    by_id: by.id,
    by_name: by.name,
    at: next.updated_at,
    reason: step.reason,
  });
  await recordAudit(
    trx,
    by,
    step.action,
    { type: 'business', id: next.business_id, label: next.label },
    {
      fromStage: before?.stage ?? null,
      toStage: next.stage,
      fromOwner: before?.ownerName ?? null,
      toOwner: next.owner_name,
      reason: step.reason,
    },
  );
  const change: Change = { entry: presentEntry({ ...next, profile_name: next.owner_name }) };
  if (next.stage === WON_STAGE && before?.stage !== WON_STAGE && step.markAdvertiser !== false) {
    const mark = {
      business_id: next.business_id,
      label: next.label,
      marked_by: next.owner_id,
      marked_by_name: next.owner_name ?? by.name,
      marked_at: next.updated_at,
    };
    if (await insertAdvertiserIfAbsent(trx, mark)) change.advertiser = presentAdvertiser(mark);
  }
  return change;
}

async function publishChange(events: EventBus, change: Change, action: string): Promise<void> {
  await events.publish({
    type: 'pipeline',
    action,
    businessId: change.entry.businessId,
    item: { ...change.entry },
    at: change.entry.updatedAt,
  });
  if (change.advertiser) {
    await events.publish({
      type: 'advertisers',
      action: 'marked',
      businessId: change.advertiser.businessId,
      item: { ...change.advertiser },
      at: change.advertiser.markedAt,
    });
  }
}

/** Reads, decides and writes until the compare-and-set holds (a lost race reads the winner's row). */
async function change(
  db: Db,
  by: AuditActor,
  businessId: string,
  /** Reads only through `trx`: on SQLite a query on the pool while the transaction holds the one connection
   * would wait forever. */
  decide: (current: PipelineRow | undefined, trx: Trx) => Promise<Step> | Step,
): Promise<Change> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const done = await inTransaction(db.kysely, async (trx) => {
      const current = await findEntry(trx, businessId);
      return applyStep(trx, by, current, await decide(current, trx));
    });
    if (done) return done;
  }
  throw new HttpError(409, 'This business changed meanwhile; try again.');
}

/**
 * The name a business is stored under: the server's own record of it (a scan or an import), else the name its
 * row already has; never a name a client sent. Undefined when neither knows the id (a made-up one).
 */
async function labelFor(
  trx: Trx,
  userId: string | null,
  current: PipelineRow | undefined,
  businessId: string,
): Promise<string | undefined> {
  const record = await businessRecord(trx, userId, businessId);
  return record?.name.trim() || current?.label;
}

async function knownLabel(
  trx: Trx,
  userId: string | null,
  current: PipelineRow | undefined,
  businessId: string,
): Promise<string> {
  const label = await labelFor(trx, userId, current, businessId);
  if (label === undefined) throw notFound(UNKNOWN_BUSINESS);
  return label;
}

/** Pipeline entries of the given businesses (none given: every owned one). */
export async function pipelineEntries(db: Db, businessIds: string[]): Promise<PipelineEntry[]> {
  const ids = [...new Set(businessIds.map(normalizeBusinessId))];
  return (await listEntries(db.kysely, ids.length > 0 ? ids : null)).map(presentEntry);
}

export async function pipelineHistory(db: Db, businessId: string): Promise<PipelineHistoryEntry[]> {
  return (await listHistory(db.kysely, normalizeBusinessId(businessId))).map(presentHistory);
}

/**
 * A rep sets the stage: claims an unclaimed business, moves their own, or releases it with New. The business
 * must be one the server has a record of (404 otherwise), and its name is taken from that record.
 */
export async function setStage(
  db: Db,
  events: EventBus,
  actor: Actor,
  businessId: string,
  stage: PipelineStage,
  options: { markAdvertiser?: boolean } = {},
): Promise<PipelineEntry> {
  const id = normalizeBusinessId(businessId);
  await settleAfterAnswer(db); // the name a business was scanned under, just now perhaps
  const done = await change(db, actor, id, async (current, trx) => {
    const decision = decideStageChange(stateOf(current), actor.id, stage, actsAsAdmin(actor));
    if (!decision.ok) throw new HttpError(decision.status, decision.error);
    const now = new Date().toISOString();
    const label = await knownLabel(trx, actor.id, current, id);
    const release = decision.kind === 'release';
    return {
      next: {
        business_id: id,
        label,
        owner_id: release ? null : actor.id,
        owner_name: release ? null : actor.name,
        stage,
        since: now,
        updated_at: now,
      },
      reason: PIPELINE_REASONS[decision.kind === 'claim' ? 'claim' : release ? 'release' : 'stage'],
      action: decision.kind === 'claim' ? 'pipeline.claim' : release ? 'pipeline.release' : 'pipeline.stage',
      markAdvertiser: options.markAdvertiser ?? true,
    };
  });
  await publishChange(events, done, 'changed');
  return done.entry;
}

/** Admins: hands the business to another rep, keeping its stage. */
export async function reassign(
  db: Db,
  events: EventBus,
  actor: Actor,
  businessId: string,
  userId: string,
): Promise<PipelineEntry> {
  const id = normalizeBusinessId(businessId);
  const ownerName = await profileName(db.kysely, userId);
  if (ownerName === undefined) throw badRequest(USER_NOT_FOUND);
  if (await isSuspended(db.kysely, userId)) throw badRequest(USER_SUSPENDED);
  await settleAfterAnswer(db);
  const done = await change(db, actor, id, async (current, trx) => {
    await assertNotOnSuperAdmin(trx, actor, current?.owner_id ?? null);
    await assertNotOnSuperAdmin(trx, actor, userId);
    if (current?.owner_id === userId) throw badRequest(ALREADY_OWNER(ownerName));
    const now = new Date().toISOString();
    return {
      next: {
        business_id: id,
        label: await knownLabel(trx, actor.id, current, id),
        owner_id: userId,
        owner_name: ownerName,
        stage: current?.stage ?? UNCLAIMED_STAGE,
        since: now,
        updated_at: now,
      },
      reason: PIPELINE_REASONS.reassign,
      action: 'pipeline.reassign',
    };
  });
  await publishChange(events, done, 'changed');
  return done.entry;
}

/** Admins: nobody works the business any more (stage New). */
export async function adminRelease(
  db: Db,
  events: EventBus,
  actor: Actor,
  businessId: string,
): Promise<PipelineEntry> {
  const id = normalizeBusinessId(businessId);
  const done = await change(db, actor, id, async (current, trx) => {
    if (!current || current.owner_id === null) throw notFound(NOT_CLAIMED);
    await assertNotOnSuperAdmin(trx, actor, current.owner_id);
    const now = new Date().toISOString();
    return {
      next: {
        ...tableRow(current),
        owner_id: null,
        owner_name: null,
        stage: UNCLAIMED_STAGE,
        since: now,
        updated_at: now,
      },
      reason: PIPELINE_REASONS.adminRelease,
      action: 'pipeline.admin_release',
    };
  });
  await publishChange(events, done, 'released');
  return done.entry;
}

/**
 * Logging a call inside the call log's own transaction: an unclaimed business is claimed at Contacted by the
 * caller, the owner's call keeps the claim fresh (a New one moves to Contacted), another rep's business is
 * left alone. A business the server has no record of is not claimed (the call is still logged), and the claim
 * takes the record's name, not the one the call log was sent with. The id is normalised as every pipeline id
 * is, so calls under two spellings of one id make one claim: one history and audit entry per claim, none per
 * further call. Returns the change to publish once the transaction committed, or null.
 */
export async function pipelineOnCallLog(
  trx: Trx,
  actor: Actor,
  businessId: string,
  at: string,
): Promise<Change | null> {
  const id = normalizeBusinessId(businessId);
  if (!id) return null;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const current = await findEntry(trx, id);
    const effect = callLogEffect(stateOf(current), actor.id);
    if (effect === 'none') return null;
    if (effect === 'touch' && current) {
      // Only the activity time moves: no history or audit entry for a call on one's own claim.
      if (await writeEntryIf(trx, current, { ...tableRow(current), updated_at: at })) return null;
      continue;
    }
    const label = await labelFor(trx, actor.id, current, id);
    if (label === undefined) return null;
    const done = await applyStep(trx, actor, current, {
      next: {
        business_id: id,
        label,
        owner_id: actor.id,
        owner_name: actor.name,
        stage: CALL_CLAIM_STAGE,
        since: at,
        updated_at: at,
      },
      reason: PIPELINE_REASONS.callLog,
      action: effect === 'claim' ? 'pipeline.claim' : 'pipeline.stage',
    });
    if (done) return done;
  }
  return null;
}

export { publishChange as publishPipelineChange };

/**
 * The release sweep: claims nobody touched for `days` days (Won excepted) go back to New. Each release is its
 * own conditional UPDATE (the row must still be as read), so instances sweeping at once release each claim
 * once, and a rep's activity that lands meanwhile wins. Returns how many were released.
 */
export async function releaseStaleClaims(
  db: Db,
  events: EventBus,
  now: Date,
  days: number,
  batch = 200,
): Promise<number> {
  const cutoff = releaseCutoff(now, days);
  let released = 0;
  for (;;) {
    const candidates = await staleEntries(db.kysely, cutoff, batch);
    let progressed = 0;
    for (const row of candidates) {
      const at = now.toISOString();
      const done = await inTransaction(db.kysely, (trx) =>
        applyStep(
          trx,
          SYSTEM_ACTOR,
          { ...row, profile_name: row.owner_name },
          {
            next: {
              ...row,
              owner_id: null,
              owner_name: null,
              stage: UNCLAIMED_STAGE,
              since: at,
              updated_at: at,
            },
            reason: `${PIPELINE_REASONS.autoRelease} after ${days} days without activity`,
            action: 'pipeline.auto_release',
          },
        ),
      );
      if (done) {
        released += 1;
        progressed += 1;
        await publishChange(events, done, 'released');
      }
    }
    if (candidates.length < batch || progressed === 0) return released;
  }
}

/** Runs the release sweep now and then every `intervalMs`, on the given clock. */
export function createReleaseSweeper(options: {
  db: Db;
  events: EventBus;
  log: FastifyBaseLogger;
  days: number;
  intervalMs: number;
  now?: () => Date;
}) {
  const clock = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  const runOnce = (): Promise<number> => {
    running ??= releaseStaleClaims(options.db, options.events, clock(), options.days)
      .catch((err: unknown) => {
        options.log.warn({ err }, 'pipeline release sweep failed');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    runOnce,
    start() {
      if (timer) return;
      void runOnce();
      timer = setInterval(() => void runOnce(), options.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
