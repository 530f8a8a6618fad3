import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { JobStatus, JobTable } from '../db/schema.js';

export type JobHandler = (payload: unknown, job: { id: string; key: string }) => Promise<unknown>;

export interface JobView {
  id: string;
  kind: string;
  key: string;
  userId: string | null;
  status: JobStatus;
  result: unknown;
  error: string | null;
  createdAt: string;
}

export interface QueueOptions {
  /** Identifies this process in locked_by (for logs and tests). */
  workerId?: string;
  /** How long a claim lasts before another worker may take the job over (renewed while running). */
  leaseMs?: number;
  /** Idle poll interval; a local enqueue wakes the worker at once. */
  pollMs?: number;
}

function present(row: JobTable): JobView {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    userId: row.user_id,
    status: row.status,
    result: row.result ? (JSON.parse(row.result) as unknown) : null,
    error: row.error,
    createdAt: row.created_at,
  };
}

/**
 * A job queue in the application database. Jobs are claimed with one atomic UPDATE (with
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL), so with several instances each job is worked exactly once;
 * a claim is a lease, so a job whose worker died (crash, SIGKILL) is taken over after the lease ends,
 * and a restart finishes what was pending.
 */
export class JobQueue {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
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
  }

  /** Add a job, or join the pending or running job of the same kind and key. */
  async enqueue(kind: string, key: string, userId: string | null, payload: unknown) {
    const now = nowIso();
    const result = await this.db.kysely.transaction().execute(async (trx) => {
      if (this.db.kind === 'postgres') {
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

  async get(id: string): Promise<JobView | undefined> {
    const row = await this.db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && present(row);
  }

  async countRecentByUser(userId: string, sinceMs: number): Promise<number> {
    const since = new Date(Date.now() - sinceMs).toISOString();
    const row = await this.db.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
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

  /** Stop claiming and wait for the job in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private wake(): void {
    if (this.stopping || this.handlers.size === 0) return;
    if (this.running) {
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
      this.running = this.drain().finally(() => {
        this.running = undefined;
        const again = this.wakeRequested;
        this.wakeRequested = false;
        this.schedule(again ? 0 : this.pollMs);
      });
    }, delay);
  }

  /** Work jobs until none is claimable. */
  private async drain(): Promise<void> {
    while (!this.stopping) {
      let job: JobTable | undefined;
      try {
        job = await this.claim();
      } catch (error) {
        this.log.warn({ err: error }, 'job claim failed; will retry');
        return;
      }
      if (!job) return;
      await this.work(job);
    }
  }

  private async claim(): Promise<JobTable | undefined> {
    const now = nowIso();
    const until = new Date(Date.now() + this.leaseMs).toISOString();
    const kinds = [...this.handlers.keys()];
    const lock = this.db.kind === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<JobTable>`
      update jobs set status = 'running', locked_by = ${this.workerId}, locked_until = ${until},
        attempts = attempts + 1, updated_at = ${now}
      where id = (
        select id from jobs
        where kind in (${sql.join(kinds)})
          and (status = 'pending' or (status = 'running' and locked_until < ${now}))
        order by created_at
        limit 1
        ${lock}
      )
      returning *`.execute(this.db.kysely);
    return result.rows[0];
  }

  private async work(job: JobTable): Promise<void> {
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
      if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
      const output = await handler(JSON.parse(job.payload) as unknown, { id: job.id, key: job.key });
      await this.finish(job, 'complete', JSON.stringify(output ?? null), null);
    } catch (error) {
      this.log.error({ err: error, jobId: job.id, kind: job.kind }, 'job failed');
      await this.finish(job, 'error', null, error instanceof Error ? error.message : String(error));
    } finally {
      clearInterval(renew);
    }
  }

  private async finish(job: JobTable, status: JobStatus, result: string | null, error: string | null) {
    await this.db.kysely
      .updateTable('jobs')
      .set({ status, result, error, locked_by: null, locked_until: null, updated_at: nowIso() })
      .where('id', '=', job.id)
      .where('locked_by', '=', this.workerId)
      .execute();
  }
}
