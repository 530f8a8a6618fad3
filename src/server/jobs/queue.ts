import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { JobStatus, JobTable } from '../db/schema.js';

type JobRow = Selectable<JobTable>;

/** What a handler knows about the job in hand. */
export interface JobInfo {
  id: string;
  key: string;
  /** ISO time the job was enqueued (handlers measure their deadline from it). */
  createdAt: string;
  /** How many times it has been claimed, this time included (a deferral gives its attempt back). */
  attempts: number;
  /** How many times it was handed back to the queue with JobDeferred. */
  deferrals: number;
}

/** How many times one job may be handed back with JobDeferred before it is failed (default of QueueOptions). */
export const MAX_DEFERRALS = 25;

/**
 * Thrown by a handler that cannot work its job now (a website check whose host another check holds): the job
 * goes back to the queue, is not claimed again before `runAfter`, and does not use an attempt. It frees its
 * slot at once instead of waiting in it. After `maxDeferrals` hand-backs the job is failed with the reason.
 */
export class JobDeferred extends Error {
  constructor(
    readonly runAfter: Date,
    reason: string,
  ) {
    super(reason);
    this.name = 'JobDeferred';
  }
}

export type JobHandler = (payload: unknown, job: JobInfo) => Promise<unknown>;

export interface JobView {
  id: string;
  kind: string;
  key: string;
  userId: string | null;
  /** The job's input, as enqueued. */
  payload: unknown;
  status: JobStatus;
  result: unknown;
  error: string | null;
  createdAt: string;
  /** What a running job last reported of its progress (JobQueue.setProgress), or null. */
  progress: unknown;
  /** ISO time of the last change (claimed, progress, finished). */
  updatedAt: string;
}

export interface QueueOptions {
  /** Identifies this process in locked_by (for logs and tests). */
  workerId?: string;
  /** How long a claim lasts before another worker may take the job over (renewed while running). */
  leaseMs?: number;
  /** Idle poll interval; a local enqueue wakes the worker at once. */
  pollMs?: number;
  /** How many jobs this instance works at the same time (default 1). */
  concurrency?: number;
  /**
   * How many times a job may be claimed (default 3). A job whose worker died every time (a job that crashes
   * the process, say) is then failed instead of being retried for ever.
   */
  maxAttempts?: number;
  /** Finished jobs (complete or error) older than this are deleted (default 7 days). */
  retentionMs?: number;
  /** How many times a job may be deferred (JobDeferred) before it is failed (default MAX_DEFERRALS). */
  maxDeferrals?: number;
}

/** Recorded on a job given up after its attempts ran out. */
export const ATTEMPTS_EXHAUSTED = 'gave up: the worker stopped before finishing on every attempt';
/** How often each instance deletes finished jobs past their retention. */
const PRUNE_EVERY_MS = 3_600_000;

function present(row: JobRow): JobView {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    userId: row.user_id,
    payload: JSON.parse(row.payload) as unknown,
    status: row.status,
    result: row.result ? (JSON.parse(row.result) as unknown) : null,
    error: row.error,
    createdAt: row.created_at,
    progress: row.progress ? (JSON.parse(row.progress) as unknown) : null,
    updatedAt: row.updated_at,
  };
}

/**
 * A job queue in the application database. Jobs are claimed with one atomic UPDATE (with
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL), so with several instances each job is worked exactly once;
 * a claim is a lease, so a job whose worker died (crash, SIGKILL) is taken over after the lease ends,
 * and a restart finishes what was pending. Each instance works up to `concurrency` jobs at once, so one
 * slow job (a hanging AI endpoint) does not hold up everyone else's.
 */
export class JobQueue {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly retentionMs: number;
  private readonly maxDeferrals: number;
  private lastPruneAt = 0;
  private handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | undefined;
  /** The claiming round under way, if any (one at a time per instance). */
  private filling: Promise<void> | undefined;
  /** The jobs in hand. */
  private readonly active = new Set<Promise<void>>();
  private stopping = false;
  private wakeRequested = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: QueueOptions = {},
  ) {
    this.workerId = options.workerId ?? `worker-${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 500;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    this.maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 3));
    this.retentionMs = options.retentionMs ?? 7 * 86_400_000;
    this.maxDeferrals = Math.max(0, Math.floor(options.maxDeferrals ?? MAX_DEFERRALS));
  }

  /** Add a job, or join the pending or running job of the same kind and key. */
  async enqueue(kind: string, key: string, userId: string | null, payload: unknown) {
    return (await this.add(kind, key, userId, payload))!;
  }

  /**
   * Like enqueue, but a new job is added only while the user started fewer than `max` jobs of this kind in the
   * last `withinMs` (undefined when not); joining a running job is never refused. The count and the insert
   * are one step: on SQLite every transaction runs alone, on PostgreSQL the user's jobs of this kind wait for
   * each other on an advisory lock, so requests sent at once cannot all read a count none has added to.
   */
  async enqueueWithin(
    kind: string,
    key: string,
    userId: string,
    payload: unknown,
    limit: { max: number; withinMs: number },
  ) {
    return this.add(kind, key, userId, payload, limit);
  }

  private async add(
    kind: string,
    key: string,
    userId: string | null,
    payload: unknown,
    limit?: { max: number; withinMs: number },
  ): Promise<{ id: string; joined: boolean } | undefined> {
    const now = nowIso();
    const result = await inTransaction(this.db.kysely, async (trx) => {
      if (this.db.kind === 'postgres') {
        // Always the user's lock before the key's, so two transactions never wait for each other's.
        if (limit)
          await sql`select pg_advisory_xact_lock(hashtext(${`${kind}:user:${userId}`}))`.execute(trx);
        await sql`select pg_advisory_xact_lock(hashtext(${`${kind}:${key}`}))`.execute(trx);
      }
      const running = await trx
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', kind)
        .where('key', '=', key)
        .where('status', 'in', ['pending', 'running'])
        .executeTakeFirst();
      if (running) return { id: running.id, joined: true };
      if (limit && userId !== null) {
        const since = new Date(Date.now() - limit.withinMs).toISOString();
        // Index jobs_user_created.
        const row = await trx
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('user_id', '=', userId)
          .where('created_at', '>', since)
          .where('kind', '=', kind)
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= limit.max) return undefined;
      }
      const id = randomUUID();
      await trx
        .insertInto('jobs')
        .values({
          id,
          kind,
          key,
          user_id: userId,
          payload: JSON.stringify(payload),
          status: 'pending',
          result: null,
          error: null,
          attempts: 0,
          locked_by: null,
          locked_until: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return { id, joined: false };
    });
    this.wake();
    return result;
  }

  /** The id of the job of this kind and key that is pending or running, if there is one. */
  async activeJob(kind: string, key: string): Promise<string | undefined> {
    const row = await this.db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', kind)
      .where('key', '=', key)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    return row?.id;
  }

  /** Jobs of one kind that are pending or running, oldest first. */
  async activeJobs(kind: string): Promise<JobView[]> {
    const rows = await this.db.kysely
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', kind)
      .where('status', 'in', ['pending', 'running'])
      .orderBy('created_at')
      .execute();
    return rows.map(present);
  }

  /** Record a running job's progress (JSON), for whoever polls it from any instance. */
  async setProgress(id: string, progress: unknown): Promise<void> {
    await this.db.kysely
      .updateTable('jobs')
      .set({ progress: JSON.stringify(progress), updated_at: nowIso() })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  async get(id: string): Promise<JobView | undefined> {
    const row = await this.db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && present(row);
  }

  async depth(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Start claiming jobs. */
  start(): void {
    this.stopping = false;
    this.schedule(0);
  }

  /** Stop claiming and wait for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.filling;
    await Promise.all([...this.active]);
  }

  /** Claim at once instead of at the next poll (after jobs were added without enqueue()). */
  wake(): void {
    if (this.stopping || this.handlers.size === 0) return;
    if (this.filling) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopping || this.handlers.size === 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.filling = this.fill().finally(() => {
        this.filling = undefined;
        const again = this.wakeRequested;
        this.wakeRequested = false;
        this.schedule(again ? 0 : this.pollMs);
      });
    }, delay);
  }

  /** Claim jobs until every slot is busy or none is claimable; each claimed job runs on its own. */
  private async fill(): Promise<void> {
    try {
      await this.failExhausted();
      if (Date.now() - this.lastPruneAt >= PRUNE_EVERY_MS) {
        this.lastPruneAt = Date.now();
        await this.prune();
      }
    } catch (error) {
      this.log.warn({ err: error }, 'job housekeeping failed; will retry');
    }
    while (!this.stopping && this.active.size < this.concurrency) {
      let job: JobRow | undefined;
      try {
        job = await this.claim();
      } catch (error) {
        this.log.warn({ err: error }, 'job claim failed; will retry');
        return;
      }
      if (!job) return;
      // A job claimed while stop() was called is in hand: stop() waits for it like the others.
      const running: Promise<void> = this.work(job).finally(() => {
        this.active.delete(running);
        this.wake();
      });
      this.active.add(running);
    }
  }

  /** Fails the jobs left running by a dead worker that have no attempt left (claim() skips them). */
  private async failExhausted(): Promise<void> {
    const now = nowIso();
    const result = await this.db.kysely
      .updateTable('jobs')
      .set({
        status: 'error',
        error: ATTEMPTS_EXHAUSTED,
        locked_by: null,
        locked_until: null,
        updated_at: now,
      })
      .where('status', '=', 'running')
      .where('locked_until', '<', now)
      .where('attempts', '>=', this.maxAttempts)
      .executeTakeFirst();
    const failed = Number(result.numUpdatedRows);
    if (failed > 0)
      this.log.error({ failed, maxAttempts: this.maxAttempts }, 'jobs failed: attempts used up');
  }

  /**
   * Deletes finished jobs past the retention. A job row only carries a request and its answer while the
   * browser polls; what is kept for good (strategies per business, analysis caches) lives in its own tables.
   */
  async prune(now = Date.now()): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom('jobs')
      .where('status', 'in', ['complete', 'error'])
      .where('created_at', '<', new Date(now - this.retentionMs).toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async claim(): Promise<JobRow | undefined> {
    const now = nowIso();
    const until = new Date(Date.now() + this.leaseMs).toISOString();
    const kinds = [...this.handlers.keys()];
    const lock = this.db.kind === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<JobRow>`
      update jobs set status = 'running', locked_by = ${this.workerId}, locked_until = ${until},
        attempts = attempts + 1, updated_at = ${now}
      where id = (
        select id from jobs
        where kind in (${sql.join(kinds)})
          and (status = 'pending' or (status = 'running' and locked_until < ${now}))
          and (run_after is null or run_after <= ${now})
          and attempts < ${this.maxAttempts}
        order by created_at
        limit 1
        ${lock}
      )
      returning *`.execute(this.db.kysely);
    return result.rows[0];
  }

  private async work(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const renew = setInterval(
      () => {
        const until = new Date(Date.now() + this.leaseMs).toISOString();
        this.db.kysely
          .updateTable('jobs')
          .set({ locked_until: until })
          .where('id', '=', job.id)
          .where('locked_by', '=', this.workerId)
          .execute()
          .catch((error: unknown) =>
            this.log.warn({ err: error, jobId: job.id }, 'job lease renewal failed'),
          );
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    try {
      let output: unknown;
      let failure: Error | undefined;
      try {
        if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
        output = await handler(JSON.parse(job.payload) as unknown, {
          id: job.id,
          key: job.key,
          createdAt: job.created_at,
          attempts: job.attempts,
          deferrals: job.deferrals,
        });
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
      if (failure instanceof JobDeferred && job.deferrals < this.maxDeferrals) {
        await this.defer(job, failure.runAfter);
      } else if (failure instanceof JobDeferred) {
        this.log.warn({ jobId: job.id, kind: job.kind, reason: failure.message }, 'job deferred too often');
        await this.finish(job, 'error', null, `gave up after ${job.deferrals} deferrals: ${failure.message}`);
      } else if (failure === undefined) {
        await this.finish(job, 'complete', JSON.stringify(output ?? null), null);
      } else {
        this.log.error({ err: failure, jobId: job.id, kind: job.kind }, 'job failed');
        await this.finish(job, 'error', null, failure.message);
      }
    } catch (error) {
      // Writing the outcome failed (database gone): the lease runs out and the job is taken over later.
      this.log.error({ err: error, jobId: job.id, kind: job.kind }, 'job outcome not recorded');
    } finally {
      clearInterval(renew);
    }
  }

  /** Hands a claimed job back: pending again from `runAfter`, its attempt given back, one deferral more. */
  private async defer(job: JobRow, runAfter: Date) {
    await this.db.kysely
      .updateTable('jobs')
      .set((eb) => ({
        status: 'pending',
        run_after: runAfter.toISOString(),
        deferrals: eb('deferrals', '+', 1),
        attempts: eb('attempts', '-', 1),
        locked_by: null,
        locked_until: null,
        updated_at: nowIso(),
      }))
      .where('id', '=', job.id)
      .where('locked_by', '=', this.workerId)
      .execute();
    // Claim again when it is due, without waiting for the idle poll.
    const delay = Math.max(0, runAfter.getTime() - Date.now());
    const t = setTimeout(() => this.wake(), delay + 5);
    t.unref();
  }

  private async finish(job: JobRow, status: JobStatus, result: string | null, error: string | null) {
    await this.db.kysely
      .updateTable('jobs')
      .set({ status, result, error, locked_by: null, locked_until: null, updated_at: nowIso() })
      .where('id', '=', job.id)
      .where('locked_by', '=', this.workerId)
      .execute();
  }
}
