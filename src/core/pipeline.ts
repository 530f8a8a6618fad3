// The team's pipeline (docs/PRODUCT.md, "Follow-ups, routes and the pipeline"): one stage and one owner per
// business, shared by every rep, so nobody calls a business another rep is working. Pure rules: the stages,
// the moves a rep may make, who may make them, when a claim has gone stale, and the line every card and map
// marker shows.

export const PIPELINE_STAGES = ['New', 'Contacted', 'Meeting set', 'Proposal', 'Won', 'Lost'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** The stage of a business nobody owns (never set, released by an admin or released automatically). */
export const UNCLAIMED_STAGE: PipelineStage = 'New';
/** The stage logging a call on an unclaimed business claims it at. */
export const CALL_CLAIM_STAGE: PipelineStage = 'Contacted';
/** The stage that marks the business a current advertiser. */
export const WON_STAGE: PipelineStage = 'Won';

export const isPipelineStage = (value: string): value is PipelineStage =>
  (PIPELINE_STAGES as readonly string[]).includes(value);

/**
 * The moves a rep may make from each stage. Any open stage may go forward or back (a meeting falls through);
 * Won may only turn Lost (the advertiser left); Lost may be worked again from Contacted. 'New' as a target
 * means "let it go": the owner releases the business.
 */
export const ALLOWED_MOVES: Readonly<Record<PipelineStage, readonly PipelineStage[]>> = {
  New: ['Contacted', 'Meeting set', 'Proposal', 'Won', 'Lost'],
  Contacted: ['New', 'Meeting set', 'Proposal', 'Won', 'Lost'],
  'Meeting set': ['New', 'Contacted', 'Proposal', 'Won', 'Lost'],
  Proposal: ['New', 'Contacted', 'Meeting set', 'Won', 'Lost'],
  Won: ['New', 'Lost'],
  Lost: ['New', 'Contacted'],
};

/** The stage a rep wins a business from: Won counts as a sale and marks a current advertiser, so a rep reaches
 * it only from Proposal, never by a claim nor by a jump from an earlier stage. The stages before it may be
 * skipped (a proposal made on the first visit). An admin may set Won from any stage the table allows. */
export const WON_FROM: PipelineStage = 'Proposal';

export function canMove(from: PipelineStage, to: PipelineStage, admin = true): boolean {
  if (!ALLOWED_MOVES[from].includes(to)) return false;
  return admin || to !== 'Won' || from === WON_FROM;
}

/**
 * The stages a user may set next: from `from` (null: nobody works the business, so setting one claims it) as
 * a rep, or as an admin who may jump to Won.
 */
export function nextStages(from: PipelineStage | null, admin: boolean): PipelineStage[] {
  if (from === null) return PIPELINE_STAGES.filter((s) => s !== 'New' && (admin || s !== 'Won'));
  return ALLOWED_MOVES[from].filter((to) => canMove(from, to, admin));
}

/** The business's pipeline as the rules see it; null when nobody ever set a stage. */
export interface PipelineState {
  ownerId: string | null;
  ownerName: string | null;
  stage: PipelineStage;
}

export const ownedByAnother = (ownerName: string) =>
  `${ownerName} is working this business. Ask ${ownerName} or an admin to reassign it.`;
export const alreadyAtStage = (stage: PipelineStage) => `This business is already at ${stage}.`;
export const moveNotAllowed = (from: PipelineStage, to: PipelineStage) =>
  `A business at ${from} cannot move to ${to}.`;
export const CLAIM_NEEDS_STAGE = 'Choose a stage other than New to claim this business.';
export const WON_NEEDS_PROPOSAL = 'A business is won from Proposal: set Proposal first.';
export const NOT_CLAIMED = 'Nobody is working this business.';
export const ALREADY_OWNER = (name: string) => `${name} is already working this business.`;

export type StageDecision =
  { ok: true; kind: 'claim' | 'move' | 'release' } | { ok: false; status: 400 | 409; error: string };

/**
 * May `actorId` set the stage `to`? An unclaimed business is claimed by setting any stage but New (and, for a
 * rep, but Won); the owner moves it along ALLOWED_MOVES (New releases it; a rep reaches Won only from
 * Proposal); anyone else gets a 409 naming the owner.
 */
export function decideStageChange(
  current: PipelineState | null,
  actorId: string,
  to: PipelineStage,
  admin = false,
): StageDecision {
  if (!current || current.ownerId === null) {
    if (to === UNCLAIMED_STAGE) return { ok: false, status: 400, error: CLAIM_NEEDS_STAGE };
    if (to === WON_STAGE && !admin) return { ok: false, status: 400, error: WON_NEEDS_PROPOSAL };
    return { ok: true, kind: 'claim' };
  }
  if (current.ownerId !== actorId) {
    return { ok: false, status: 409, error: ownedByAnother(current.ownerName ?? 'Another rep') };
  }
  if (current.stage === to) return { ok: false, status: 400, error: alreadyAtStage(to) };
  if (!canMove(current.stage, to))
    return { ok: false, status: 400, error: moveNotAllowed(current.stage, to) };
  if (!canMove(current.stage, to, admin)) return { ok: false, status: 400, error: WON_NEEDS_PROPOSAL };
  return { ok: true, kind: to === UNCLAIMED_STAGE ? 'release' : 'move' };
}

/**
 * What logging a call does to the pipeline: an unclaimed business is claimed at Contacted by the caller; the
 * owner's own call keeps the claim fresh (and moves a New one to Contacted); another rep's business is left
 * alone (the call is still logged).
 */
export function callLogEffect(
  current: PipelineState | null,
  actorId: string,
): 'claim' | 'advance' | 'touch' | 'none' {
  if (!current || current.ownerId === null) return 'claim';
  if (current.ownerId !== actorId) return 'none';
  return current.stage === UNCLAIMED_STAGE ? 'advance' : 'touch';
}

const DAY_MS = 86_400_000;

/** Claims last touched before this instant are stale. */
export function releaseCutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

/**
 * A claim nobody touched for `days` days is released automatically. Won businesses keep their owner (they are
 * the rep's account now); unclaimed ones have nothing to release.
 */
export function isStale(
  entry: { ownerId: string | null; stage: PipelineStage; updatedAt: string },
  now: Date,
  days: number,
): boolean {
  return entry.ownerId !== null && entry.stage !== WON_STAGE && entry.updatedAt < releaseCutoff(now, days);
}

/** "Nov 3" (with the year when it is not this year's), on the reader's clock unless a zone is given. */
export function formatSince(since: string, now: Date = new Date(), timeZone?: string): string {
  const date = new Date(since);
  if (Number.isNaN(date.getTime())) return since;
  const zone = timeZone ? { timeZone } : {};
  const year = (d: Date) => new Intl.DateTimeFormat('en-US', { year: 'numeric', ...zone }).format(d);
  const sameYear = year(date) === year(now);
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
    ...zone,
  }).format(date);
}

/** The line of a worked business on every card and marker: "Rita Rep · Meeting set · since Nov 3". */
export function pipelineLine(
  entry: { ownerName: string | null; stage: PipelineStage; since: string },
  now: Date = new Date(),
  timeZone?: string,
): string {
  return `${entry.ownerName ?? 'Nobody'} · ${entry.stage} · since ${formatSince(entry.since, now, timeZone)}`;
}

/** Why a history entry was written (shown as stored). */
export const PIPELINE_REASONS = {
  stage: 'Stage changed',
  claim: 'Claimed',
  release: 'Released by the owner',
  callLog: 'Call logged',
  reassign: 'Reassigned by an admin',
  adminRelease: 'Released by an admin',
  autoRelease: 'Released automatically',
} as const;
