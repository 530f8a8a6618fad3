// Politeness across instances: at most one request at a time per host, with a pause between them, for every
// instance sharing the database. A check claims a host in `website_hosts` with one conditional upsert (free,
// or its holder's lease ran out, and its pause is over), holds it while it reads its pages (the lease renewed
// meanwhile, its own requests a pause apart), and releases it with the pause: next_allowed_at = the end of
// its last request + the pause. A check that finds its host held throws HostBusy at once; the job goes back
// to the queue (JobDeferred) instead of waiting in a worker slot. No check waits for another, so none can
// deadlock.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HostBusy, type RequestGate } from './checker.js';

export interface HostLeaseOptions {
  /** The pause between two requests to one host. */
  pauseMs: number;
  /** How long a claim lasts unless renewed (a dead instance's hosts come free after it). */
  leaseMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The hosts table: claim, renew, release. */
export class HostLeases {
  constructor(
    private readonly db: Kysely<Database>,
    readonly options: HostLeaseOptions,
  ) {}

  /**
   * Claims `host` for `holder` (compare-and-set in one statement, on SQLite and PostgreSQL alike): true when
   * claimed, else the time to come back (the end of the pause, or now when another check holds it).
   */
  async claim(host: string, holder: string, now = Date.now()): Promise<true | Date> {
    const at = iso(now);
    const until = iso(now + this.options.leaseMs);
    const claimed = await sql<{ host: string }>`
      insert into website_hosts (host, holder, lease_until, next_allowed_at)
      values (${host}, ${holder}, ${until}, ${at})
      on conflict (host) do update set holder = excluded.holder, lease_until = excluded.lease_until
      where (website_hosts.holder is null or website_hosts.lease_until < ${at})
        and website_hosts.next_allowed_at <= ${at}
      returning host`.execute(this.db);
    if (claimed.rows.length === 1) return true;
    const row = await this.db
      .selectFrom('website_hosts')
      .select(['holder', 'lease_until', 'next_allowed_at'])
      .where('host', '=', host)
      .executeTakeFirst();
    const pauseEnd = row ? Date.parse(row.next_allowed_at) : now;
    return new Date(Math.max(now, Number.isFinite(pauseEnd) ? pauseEnd : now));
  }

  /** Extends the lease of the hosts this holder still holds. */
  async renew(hosts: readonly string[], holder: string, now = Date.now()): Promise<void> {
    if (hosts.length === 0) return;
    await this.db
      .updateTable('website_hosts')
      .set({ lease_until: iso(now + this.options.leaseMs) })
      .where('host', 'in', hosts)
      .where('holder', '=', holder)
      .execute();
  }

  /** Frees the host, not to be asked again before `nextAllowedAt`. */
  async release(host: string, holder: string, nextAllowedAt: number): Promise<void> {
    await this.db
      .updateTable('website_hosts')
      .set({ holder: null, lease_until: null, next_allowed_at: iso(nextAllowedAt) })
      .where('host', '=', host)
      .where('holder', '=', holder)
      .execute();
  }

  /** A gate for one check: claims each host it asks on first use, holds it until done(). */
  session(): HostSession {
    return new HostSession(this);
  }
}

/** The hosts one check holds. run() throws HostBusy when a host is held elsewhere; done() releases them all. */
export class HostSession implements RequestGate {
  private readonly holder = `check-${randomUUID()}`;
  /** Host -> end of this check's last request to it (0 before the first). */
  private readonly held = new Map<string, number>();
  private renewal: NodeJS.Timeout | undefined;

  constructor(private readonly leases: HostLeases) {}

  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const key = host.toLowerCase();
    const { pauseMs, leaseMs } = this.leases.options;
    const last = this.held.get(key);
    if (last === undefined) {
      const claimed = await this.leases.claim(key, this.holder);
      if (claimed !== true) throw new HostBusy(key, claimed);
      this.held.set(key, 0);
      this.renewal ??= setInterval(
        () => {
          void this.leases.renew([...this.held.keys()], this.holder).catch(() => undefined);
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
    } else {
      // Our own previous request to this host: the pause first.
      const wait = last + pauseMs - Date.now();
      if (wait > 0) await sleep(wait);
    }
    try {
      return await fn();
    } finally {
      this.held.set(key, Date.now());
    }
  }

  /** Releases every host held, each with the pause after its last request. */
  async done(): Promise<void> {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = undefined;
    const { pauseMs } = this.leases.options;
    for (const [host, last] of this.held) {
      await this.leases.release(host, this.holder, (last || Date.now()) + pauseMs);
    }
    this.held.clear();
  }
}

/**
 * When a job whose host was busy comes back: not before the host's pause ends, and later the more often it
 * was deferred (from the pause, doubling, at most 30 s), with a little jitter so waiting jobs spread out.
 */
export function deferUntil(freeAt: Date, deferrals: number, pauseMs: number, now = Date.now()): Date {
  const base = Math.max(100, pauseMs);
  const backoff = Math.min(30_000, base * 2 ** Math.min(deferrals, 10));
  const jitter = 0.75 + Math.random() * 0.5;
  return new Date(Math.max(freeAt.getTime(), now + backoff * jitter));
}
