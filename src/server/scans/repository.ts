import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Prospect } from '../../core/types.js';
import { hasRealCategory } from '../../core/categories.js';
import { copyOwed } from './team-list.js';
import { packResults, unpackResults } from './stored-results.js';
import { inTransaction } from '../db/database.js';

type Conn = Kysely<Database> | Transaction<Database>;

/**
 * The scan cooldown (a too-early click is ignored) in two steps, so a scan makes one durable commit, not two:
 * `scanSlotWait` reads the user's last claim before the work (no write), and the scan's store takes the slot
 * in the transaction that stores its results, `takeScanSlot`. Two scans by one user
 * closer together than the cooldown never both store: the one that stores second finds the other's claim and
 * is refused (its transaction writes nothing). A cooldown of 0 is off: no slot is read or taken.
 */
export interface ScanSlot {
  /** When the scan started (ISO): the claim it stores, the instant the next scan's cooldown counts from. */
  startedAt: string;
  cooldownMs: number;
}

/** The milliseconds still to wait before the user may scan (0: go on), from the claim of their last scan. */
export async function scanSlotWait(db: Conn, userId: string, slot: ScanSlot): Promise<number> {
  if (slot.cooldownMs <= 0) return 0;
  const row = await db
    .selectFrom('scan_slots')
    .select('claimed_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? slotWait(row.claimed_at, slot) : 0;
}

/** The wait a claim made at `claimedAt` leaves a scan started at `slot.startedAt` (0 when none is owed). */
function slotWait(claimedAt: string, { startedAt, cooldownMs }: ScanSlot): number {
  const since = Date.parse(startedAt) - Date.parse(claimedAt);
  return Math.abs(since) >= cooldownMs ? 0 : Math.max(1, cooldownMs - since);
}

/**
 * The bounds another claim must lie outside for a scan started at `startedAt` to take the slot: at least the
 * cooldown before it, or (a scan that started later and stored first) at least the cooldown after it.
 */
function slotBounds({ startedAt, cooldownMs }: ScanSlot) {
  const at = Date.parse(startedAt);
  return {
    before: new Date(at - cooldownMs).toISOString(),
    after: new Date(at + cooldownMs).toISOString(),
  };
}

/**
 * Takes the user's scan slot for a scan started at `slot.startedAt`: one conditional upsert, so of two scans
 * closer together than the cooldown, on any instances, only the first to store takes it. The claim kept is the
 * later start of the two (ISO instants compare as text). True when taken (always, with the cooldown off).
 */
export async function takeScanSlot(db: Conn, userId: string, slot: ScanSlot): Promise<boolean> {
  if (slot.cooldownMs <= 0) return true;
  const { before, after } = slotBounds(slot);
  const taken = await db
    .insertInto('scan_slots')
    .values({ user_id: userId, claimed_at: slot.startedAt })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet((eb) => ({
          claimed_at: eb
            .case()
            .when('scan_slots.claimed_at', '>', eb.ref('excluded.claimed_at'))
            .then(eb.ref('scan_slots.claimed_at'))
            .else(eb.ref('excluded.claimed_at'))
            .end(),
        }))
        .where((eb) =>
          eb.or([eb('scan_slots.claimed_at', '<=', before), eb('scan_slots.claimed_at', '>=', after)]),
        ),
    )
    .returning('user_id')
    .executeTakeFirst();
  return taken !== undefined;
}

export interface SearchRecord {
  userId: string;
  kind: 'scan' | 'quick-business' | 'quick-category';
  lat: number;
  lng: number;
  radiusMiles: number;
  count: number;
  categories: string[];
  locationLabel: string | null;
  query: string | null;
  total: number;
}

/** A search's row, as every way of storing it writes it. */
function searchRow(s: SearchRecord, id: string, at: string) {
  return {
    id,
    user_id: s.userId,
    created_at: at,
    kind: s.kind,
    lat: s.lat,
    lng: s.lng,
    radius_miles: s.radiusMiles,
    count: s.count,
    categories: JSON.stringify(s.categories),
    location_label: s.locationLabel,
    query: s.query,
    total: s.total,
  };
}

export async function recordSearch(
  db: Conn,
  s: SearchRecord,
  at = new Date().toISOString(),
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('searches')
    .values(searchRow(s, id, at))
    .execute();
  return id;
}

export async function saveLatestScan(
  db: Conn,
  userId: string,
  searchId: string,
  prospects: Prospect[],
  total: number,
  at = new Date().toISOString(),
): Promise<void> {
  const values = {
    search_id: searchId,
    prospects: packResults(prospects),
    total,
    created_at: at,
  };
  await db
    .insertInto('latest_scans')
    .values({ user_id: userId, ...values })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ ...values, version: eb('latest_scans.version', '+', 1) })),
    )
    .execute();
}

/** How often a compare-and-set write of a rep's latest results is tried before it gives up. */
const LATEST_RETRIES = 12;
const pauseBriefly = (attempt: number) =>
  new Promise<void>((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random())));

/** A rep's stored latest results as a read-modify-write sees them. */
export interface LatestRow {
  prospects: Prospect[];
  total: number;
  /** The kind of search that stored them ('scan', 'quick-business', 'quick-category'), null when unknown. */
  kind: string | null;
  version: number;
}

/**
 * Changes a rep's latest results with a compare-and-set on their version: `change` gets the CURRENT stored row
 * and answers the new list (and total), or null for no change; the write succeeds only if nobody wrote the row
 * in between, else the row is read again and `change` applied to it again. So a background writer (website
 * evidence, model-written reasoning) never puts back a list a quick search or a scan replaced meanwhile, and a
 * quick search never drops a background writer's change. Answers what `change` answered last, or 'busy' when
 * the row kept changing (after LATEST_RETRIES tries).
 */
export async function updateLatestScan<T>(
  db: Conn,
  userId: string,
  change: (row: LatestRow) => { prospects: Prospect[]; total?: number; answer: T } | null,
): Promise<T | null | 'busy'> {
  for (let attempt = 0; attempt < LATEST_RETRIES; attempt++) {
    if (attempt > 0) await pauseBriefly(attempt);
    const row = await db
      .selectFrom('latest_scans')
      .leftJoin('searches', 'searches.id', 'latest_scans.search_id')
      .select(['latest_scans.prospects', 'latest_scans.total', 'latest_scans.version', 'searches.kind'])
      .where('latest_scans.user_id', '=', userId)
      .where('latest_scans.search_id', 'is not', null)
      .executeTakeFirst();
    if (!row) return null;
    const version = Number(row.version);
    const next = change({
      prospects: (await unpackResults(db, row.prospects)).prospects,
      total: row.total,
      kind: row.kind ?? null,
      version,
    });
    if (!next) return null;
    const result = await db
      .updateTable('latest_scans')
      .set({
        prospects: packResults(next.prospects),
        total: next.total ?? row.total,
        version: version + 1,
      })
      .where('user_id', '=', userId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return next.answer;
  }
  return 'busy';
}

/**
 * A business lookup's results on top of the rep's latest results (the scan being worked stays below them), with
 * a compare-and-set on the version like every other writer; the first results when there are none. `found` may
 * be the first of more (`foundTotal` counts them all). Answers the whole list and its total.
 */
export async function mergeLatestScan(
  db: Conn,
  userId: string,
  searchId: string,
  found: Prospect[],
  foundTotal: number,
  maxLoaded: number,
  at = new Date().toISOString(),
): Promise<{ list: Prospect[]; total: number }> {
  for (let attempt = 0; attempt < LATEST_RETRIES; attempt++) {
    if (attempt > 0) await pauseBriefly(attempt);
    const row = await db
      .selectFrom('latest_scans')
      .select(['search_id', 'prospects', 'total', 'version'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || !row.search_id) {
      await saveLatestScan(db, userId, searchId, found.slice(0, maxLoaded), foundTotal, at);
      return { list: found, total: foundTotal };
    }
    const earlier = await unpackResults(db, row.prospects);
    const ids = new Set(found.map((p) => p.id));
    const rest = earlier.prospects.filter((p) => !ids.has(p.id));
    const list = [...found, ...rest];
    const removed = earlier.prospects.length + earlier.gone - rest.length;
    const total = foundTotal + Math.max(rest.length, row.total - removed);
    const version = Number(row.version);
    const result = await db
      .updateTable('latest_scans')
      .set({
        search_id: searchId,
        prospects: packResults(list.slice(0, maxLoaded)),
        total,
        version: version + 1,
      })
      .where('user_id', '=', userId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return { list, total };
  }
  throw new Error('the latest results kept changing; try again');
}

export async function readLatestScan(db: Conn, userId: string) {
  const row = await db
    .selectFrom('latest_scans')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row || !row.search_id) return undefined;
  // Entries whose place is gone from the imported table are left out, and out of the total, as blocked ones are.
  const { prospects, gone } = await unpackResults(db, row.prospects);
  return {
    searchId: row.search_id,
    prospects,
    total: Math.max(prospects.length, row.total - gone),
    at: row.created_at,
  };
}

/**
 * A rep names the category of a prospect of their latest results: the stored results and the team's copy of
 * the business (All Prospects) both take it. Compare-and-set on the stored version (updateLatestScan), tried
 * again when another writer (the reasoning or website job) changed it in between, so neither change is lost. Answers the changed prospect,
 * undefined when it is not in the latest results, or 'busy' when the results kept changing under it.
 */
/** What setting a category did: the changed prospect and the categories it replaced (own list, team list). */
export interface CategoryChange {
  prospect: Prospect;
  previous: string;
  /** The team list's category before (undefined: the business is not in the team list). */
  teamPrevious: string | undefined;
}

/**
 * Sets the category of a prospect of the user's latest results and of the team's copy (All Prospects).
 * Only a missing or 'Business' category may be set, unless `mayOverwrite` (admins): without it a
 * prospect with a real category answers 'forbidden', and a team copy another rep already categorised is
 * left as it is.
 */
export async function setLatestProspectCategory(
  db: Conn,
  userId: string,
  id: string,
  category: string,
  { mayOverwrite = false }: { mayOverwrite?: boolean } = {},
): Promise<CategoryChange | undefined | 'busy' | 'forbidden'> {
  let previous = '';
  const outcome = await updateLatestScan<Prospect | 'forbidden'>(db, userId, ({ prospects }) => {
    const prospect = prospects.find((p) => p.id === id);
    if (!prospect) return null;
    if (!mayOverwrite && hasRealCategory(prospect.category)) return { prospects, answer: 'forbidden' };
    previous = prospect.category ?? '';
    prospect.category = category;
    return { prospects, answer: prospect };
  });
  if (outcome === null) return undefined;
  if (outcome === 'forbidden') return 'forbidden';
  if (outcome === 'busy') return 'busy';
  const changed = outcome;
  let teamPrevious: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const team = await db
      .selectFrom('team_prospects')
      .select('prospect')
      .where('business_id', '=', id)
      .executeTakeFirst();
    if (!team) break;
    const copy = JSON.parse(team.prospect) as Prospect;
    teamPrevious = copy.category ?? '';
    if (!mayOverwrite && hasRealCategory(copy.category)) break;
    const result = await db
      .updateTable('team_prospects')
      .set({ prospect: JSON.stringify({ ...copy, category }) })
      .where('business_id', '=', id)
      .where('prospect', '=', team.prospect)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) break;
  }
  return { prospect: changed, previous, teamPrevious };
}

/** New Search: the rep's latest results emptied, after any copies they still owe the team list are made. */
export async function clearLatestScan(db: Kysely<Database>, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await copyOwed(trx, { userId });
    await clearLatest(trx, userId);
  });
}

async function clearLatest(db: Conn, userId: string): Promise<void> {
  await db
    .updateTable('latest_scans')
    .set((eb) => ({ search_id: null, prospects: '[]', total: 0, version: eb('version', '+', 1) }))
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Remove the prospects `blocked` picks from every user's stored latest results, lowering each total by the
 * number removed. `mentions` narrows the rows read to those whose prospects JSON contains that text (the blocked
 * id); `blocked` decides. Answers how many users' results changed.
 */
export async function pruneLatestScans(
  db: Conn,
  mentions: string,
  blocked: (p: Prospect) => boolean,
): Promise<number> {
  // The id as it appears inside the JSON text. LIKE's '_' and '%' only widen the match; a backslash (LIKE's
  // escape character on PostgreSQL) would narrow it, so such an id reads every row.
  const needle = JSON.stringify(mentions).slice(1, -1);
  let query = db.selectFrom('latest_scans').select('user_id').where('search_id', 'is not', null);
  if (!needle.includes('\\')) query = query.where('prospects', 'like', `%${needle}%`);
  const rows = await query.execute();
  let changed = 0;
  for (const row of rows) {
    // Compare-and-set on the version (updateLatestScan): a list changed since this read is read again.
    const removed = await updateLatestScan(db, row.user_id, ({ prospects, total }) => {
      const kept = prospects.filter((p) => !blocked(p));
      const gone = prospects.length - kept.length;
      if (gone === 0) return null;
      return { prospects: kept, total: Math.max(kept.length, total - gone), answer: gone };
    });
    if (typeof removed === 'number') changed++;
  }
  return changed;
}
