import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { AnalysisBasis, CachedBusiness } from './cache.js';
import { writeAnalysisCache, writeBusinessCache } from './cache.js';
import type { ProspectAnalysis } from '../../core/types.js';
import { copyOwed } from './team-list.js';
import { collectYoungIfFilled } from '../young-gc.js';
import type { ScanLog } from './service.js';

// What a scan writes after its answer: the team list's copies it owes (team-list.ts) and the cache
// entries its ranking decided to write. Both are for later readers, not for the rep waiting on the scan: the
// answer goes out first, and one run writes the scans that answered meanwhile in one transaction. A cache entry
// still waiting when the process dies is only written again by the next scan of that business; an owed copy is
// in the database already and is copied at the next start.
//
// A read that must see this process's scans awaits `settleAfterAnswer(db)` (the All Prospects views, a call log's
// score, a route's stops, a stage's name, the blocklist's names).

/** The cache entries a ranking decided to (re)write: businesses new or changed, analyses absent, stale or changed. */
export interface CacheWrites {
  business: { key: string; data: CachedBusiness }[];
  analysis: { key: string; data: ProspectAnalysis; basis: AnalysisBasis }[];
}

/** Owed rows copied per transaction (copyOwed's round). */
const ROUND = 50;

/**
 * Cache entries written inside a transaction, each cache under a savepoint of its own: a failed write is rolled
 * back to it, logged, and the rest commits (a cache save failure only warns; the two caches are tables
 * of their own, and one failing does not keep the other from being written).
 */
async function saveCacheWritesInside(trx: Transaction<Database>, log: ScanLog, writes: CacheWrites) {
  if (writes.business.length > 0) {
    await underSavepoint(trx, log, () => writeBusinessCache(trx, writes.business));
  }
  if (writes.analysis.length > 0) {
    await underSavepoint(trx, log, () => writeAnalysisCache(trx, writes.analysis));
  }
}

async function underSavepoint(trx: Transaction<Database>, log: ScanLog, write: () => Promise<unknown>) {
  await sql`SAVEPOINT scan_cache`.execute(trx);
  try {
    await write();
    await sql`RELEASE SAVEPOINT scan_cache`.execute(trx);
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT scan_cache`.execute(trx);
    await sql`RELEASE SAVEPOINT scan_cache`.execute(trx);
    log.warn({ err }, 'cache write failed; the scan goes on');
  }
}

/** One process's writer: runs after the scans' answers, one run at a time, until nothing is waiting. */
class AfterAnswer {
  private running: Promise<void> | null = null;
  private again = false;
  private waiting: CacheWrites = { business: [], analysis: [] };
  /** How many schedule() calls there have been, and how many of them a finished round has written. */
  private scheduled = 0;
  private written = 0;
  private settling: { upTo: number; resolve: () => void }[] = [];
  log: ScanLog = { warn: () => undefined };

  constructor(private readonly db: Db) {}

  /** Write soon, after the scan's answer is on its way (the next turn of the event loop): these, and any owed copies. */
  schedule(writes?: CacheWrites): void {
    if (writes) {
      this.waiting.business.push(...writes.business);
      this.waiting.analysis.push(...writes.analysis);
    }
    this.scheduled++;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run())
      .finally(() => {
        this.running = null;
      });
  }

  /**
   * Resolves once what was scheduled before the call is written (or its round failed, logged): at most the round
   * under way and the next. Not when the writer is idle: under a steady stream of scans it seldom is, and a call
   * log waited on rounds of scans made after it.
   */
  settle(): Promise<void> {
    const upTo = this.scheduled;
    if (this.written >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.settling.push({ upTo, resolve }));
  }

  /** Resolves when nothing is waiting or under way (at close). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      const upTo = this.scheduled;
      const writes = this.waiting;
      this.waiting = { business: [], analysis: [] };
      try {
        // The cache entries with the first round of copies: one commit.
        let copied = await inTransaction(this.db.kysely, async (trx) => {
          await saveCacheWritesInside(trx, this.log, writes);
          return copyOwed(trx, { limit: ROUND });
        });
        while (copied === ROUND) {
          copied = await inTransaction(this.db.kysely, (trx) => copyOwed(trx, { limit: ROUND }));
        }
      } catch (err) {
        // Copies still owed are made by the next run (the next scan, New Search or start): nothing lost.
        this.log.warn({ err }, 'writing after the answer failed; owed team list copies are retried');
      }
      this.wrote(upTo);
    } while (this.again);
    this.checkpoint();
    // The answered scans' data is garbage now: a young-generation collection here copies little, where one inside
    // the next scan's wait would copy that scan's rows (young-gc.ts; only in a process started with --expose-gc).
    collectYoungIfFilled();
  }

  private wrote(upTo: number): void {
    this.written = upTo;
    const still: typeof this.settling = [];
    for (const s of this.settling) {
      if (s.upTo <= upTo) s.resolve();
      else still.push(s);
    }
    this.settling = still;
  }

  /**
   * SQLite: the write-ahead log copied into the database file here, after the answers, rather than inside
   * whichever commit crosses SQLite's 1,000-page mark (a scan's, 5 to 10 ms of its time). PASSIVE: it never
   * waits for a reader or writer; what it cannot copy now is copied next time.
   */
  private checkpoint(): void {
    try {
      this.db.sqlite?.pragma('wal_checkpoint(PASSIVE)');
    } catch (err) {
      this.log.warn({ err }, 'SQLite checkpoint failed; SQLite checkpoints by itself');
    }
  }
}

const writers = new WeakMap<object, AfterAnswer>();

/**
 * What a writer belongs to: the connection (SQLite) or pool (PostgreSQL) under the handle, so a write running in
 * an Idempotency-Key's transaction (a copy of the handle) settles the same writer as the rest of the process.
 */
const connectionOf = (db: Db): object => db.sqlite ?? db.pool ?? db;

/** The after-the-answer writer of this database (one per process and connection). */
export function afterAnswer(db: Db): AfterAnswer {
  let writer = writers.get(connectionOf(db));
  if (!writer) writers.set(connectionOf(db), (writer = new AfterAnswer(db)));
  return writer;
}

/** Resolves once the team list (and the caches) hold every scan this process answered before the call. */
export function settleAfterAnswer(db: Db): Promise<void> {
  return writers.get(connectionOf(db))?.settle() ?? Promise.resolve();
}
