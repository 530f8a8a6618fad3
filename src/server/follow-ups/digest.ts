// The morning digest: at DIGEST_HOUR on each rep's own clock (the zone the browser reported), an e-mail with
// today's and overdue follow-ups and a Google Maps route through them, only when something is due and the rep
// has not switched it off. A scheduler tick on every instance enqueues one 'digest' job per rep and local day
// (the job key); the job claims the day with a compare-and-set on follow_up_settings.digest_sent_for, so two
// instances, a retried job or a second tick never send it twice.
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Mailer } from '../mail/mailer.js';
import { haversineMiles, type LatLng } from '../../core/geo.js';
import { optimiseRoute } from '../../core/route/optimise.js';
import { groupFollowUps } from '../../core/follow-ups.js';
import { isLocalDate } from '../../core/local-days.js';
import { isTimeZone, localDateOf, wallClock } from '../../core/time-zone.js';
import type { FollowUp } from '../../core/api/follow-ups.js';
import { activeOnly, dueFollowUps, readSettings } from './repository.js';
import { presentFollowUp } from './service.js';
import { todayUrl } from './calendar.js';

export const DIGEST_JOB = 'digest';
/** Google Maps directions links take at most 9 waypoints between origin and destination. */
export const MAX_WAYPOINTS = 9;

export interface RouteStop {
  lat: number | null;
  lng: number | null;
  /** Used when the stop has no position, and as the stop's text in the link. */
  address: string;
}

const place = (s: RouteStop) => (s.lat !== null && s.lng !== null ? `${s.lat},${s.lng}` : s.address);

/**
 * A Google Maps multi-stop directions link through the stops, in the route planner's order from `start` (the
 * rep's last scan centre; nearest neighbour from the first stop when there is none). Stops without a position go
 * last, in their order. At most 9 waypoints: a longer day is cut after the tenth stop. Null when there is no stop.
 */
export function digestRouteLink(start: LatLng | null, stops: readonly RouteStop[]): string | null {
  const located = stops.filter((s) => s.lat !== null && s.lng !== null);
  const rest = stops.filter((s) => (s.lat === null || s.lng === null) && s.address.trim() !== '');
  const ordered: RouteStop[] = [];
  let here: LatLng | null = start;
  const left = [...located];
  if (start && located.length > 1) {
    // From the scan centre: the route planner's optimiser (core/route/optimise.ts) on straight-line miles.
    const points = [start, ...located.map((s) => ({ lat: s.lat!, lng: s.lng! }))];
    const miles = points.map((a) => points.map((b) => haversineMiles(a, b)));
    ordered.push(...optimiseRoute(miles).order.map((i) => located[i - 1]!));
    left.length = 0;
  }
  // Without a start: nearest neighbour from the first stop.
  while (left.length > 0) {
    let best = 0;
    if (here) {
      let bestMiles = Infinity;
      left.forEach((s, i) => {
        const miles = haversineMiles(here!, { lat: s.lat!, lng: s.lng! });
        if (miles < bestMiles) [best, bestMiles] = [i, miles];
      });
    }
    const [next] = left.splice(best, 1);
    ordered.push(next!);
    here = { lat: next!.lat!, lng: next!.lng! };
  }
  ordered.push(...rest);
  let origin: string;
  if (start) origin = `${start.lat},${start.lng}`;
  else {
    const first = ordered.shift();
    if (!first) return null;
    origin = place(first);
  }
  const route = ordered.slice(0, MAX_WAYPOINTS + 1);
  if (route.length === 0) return null;
  const destination = route.pop()!;
  const params = new URLSearchParams({ api: '1', origin, destination: place(destination) });
  if (route.length > 0) params.set('waypoints', route.map(place).join('|'));
  return `https://www.google.com/maps/dir/?${params.toString()}`;
}

export interface DigestDeps {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl: string;
  digestHour: number;
}

function itemLine(f: FollowUp): string {
  const head = [f.dueTime, f.isMeeting ? 'Meeting:' : null, f.name].filter(Boolean).join(' ');
  const step = f.nextStep ? ` — ${f.nextStep}` : '';
  const facts = [f.address, f.phone].filter(Boolean).join(' · ');
  return `- ${head}${step}${facts ? `\n  ${facts}` : ''}`;
}

export function digestText(
  followUps: readonly FollowUp[],
  today: string,
  routeLink: string | null,
  publicUrl: string,
): { subject: string; text: string } {
  const { overdue, today: dueToday } = groupFollowUps(followUps, today);
  const day = new Date(`${today}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  const count = overdue.length + dueToday.length;
  const lines = [`Good morning! ${count} follow-up${count === 1 ? '' : 's'} due today (${day}).`, ''];
  if (overdue.length > 0) lines.push('Overdue', ...overdue.map(itemLine), '');
  if (dueToday.length > 0) lines.push('Today', ...dueToday.map(itemLine), '');
  if (routeLink) lines.push(`Route for the day (Google Maps): ${routeLink}`, '');
  lines.push(
    `Open Today in Prospect Finder: ${todayUrl(publicUrl)}`,
    '',
    'You get this e-mail on days with follow-ups due. Turn it off in Today > Calendar & e-mail.',
  );
  return { subject: `Your follow-ups for ${day}: ${count} due`, text: lines.join('\n') };
}

async function lastScanCentre(db: Db, userId: string): Promise<LatLng | null> {
  const row = await db.kysely
    .selectFrom('searches')
    .select(['lat', 'lng'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row ? { lat: Number(row.lat), lng: Number(row.lng) } : null;
}

/**
 * Sends the digest of one rep's local day, at most once: nothing when the digest is off or nothing is due;
 * the day is claimed (compare-and-set) before sending and given back when the mail fails, so a retry sends it.
 */
export async function sendDigest(
  deps: DigestDeps,
  userId: string,
  localDate: string,
): Promise<{ sent: boolean; reason?: string }> {
  const { db } = deps;
  const settings = await readSettings(db.kysely, userId);
  if (settings && settings.digest_enabled !== 1) return { sent: false, reason: 'off' };
  const due = (await dueFollowUps(db.kysely, userId, localDate)).map(presentFollowUp);
  if (due.length === 0) return { sent: false, reason: 'nothing due' };
  const profile = await db.kysely
    .selectFrom('user_profiles')
    .leftJoin('account_suspensions', 'account_suspensions.user_id', 'user_profiles.user_id')
    .select(['user_profiles.email', 'account_suspensions.suspended_at'])
    .where('user_profiles.user_id', '=', userId)
    .executeTakeFirst();
  if (!profile) return { sent: false, reason: 'no account' };
  // Suspended after the job was queued: the digest stops with the account.
  if (profile.suspended_at) return { sent: false, reason: 'suspended' };
  const previous = settings?.digest_sent_for ?? null;
  const claimed = await db.kysely
    .updateTable('follow_up_settings')
    .set({ digest_sent_for: localDate })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('digest_sent_for', 'is', null), eb('digest_sent_for', '<>', localDate)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { sent: false, reason: 'already sent' };
  try {
    const link = digestRouteLink(await lastScanCentre(db, userId), due);
    const { subject, text } = digestText(due, localDate, link, deps.publicUrl);
    await deps.mailer.send({ to: profile.email, subject, text });
    return { sent: true };
  } catch (error) {
    await db.kysely
      .updateTable('follow_up_settings')
      .set({ digest_sent_for: previous })
      .where('user_id', '=', userId)
      .where('digest_sent_for', '=', localDate)
      .execute();
    throw error;
  }
}

const digestPayload = z.object({
  userId: z.string().min(1),
  localDate: z.string().refine(isLocalDate),
});

export function registerDigestWorker(jobs: JobQueue, deps: DigestDeps): void {
  jobs.register(DIGEST_JOB, async (payload) => {
    const { userId, localDate } = digestPayload.parse(payload);
    return sendDigest(deps, userId, localDate);
  });
}

/**
 * One scheduler tick at `now`: a digest job for each rep with the digest on whose clock shows DIGEST_HOUR, who
 * has something due that local day and was not sent that day's digest yet. Returns the jobs' keys.
 */
export async function scheduleDigests(deps: DigestDeps, jobs: JobQueue, now = Date.now()): Promise<string[]> {
  const reps = await activeOnly(deps.db.kysely.selectFrom('follow_up_settings'))
    .select(['follow_up_settings.user_id', 'time_zone', 'digest_sent_for'])
    .where('digest_enabled', '=', 1)
    .where('time_zone', 'is not', null)
    .execute();
  const keys: string[] = [];
  for (const rep of reps) {
    const zone = rep.time_zone!;
    if (!isTimeZone(zone) || wallClock(now, zone).hour !== deps.digestHour) continue;
    const localDate = localDateOf(now, zone);
    if (rep.digest_sent_for === localDate) continue;
    const due = await dueFollowUps(deps.db.kysely, rep.user_id, localDate);
    if (due.length === 0) continue;
    const key = `${rep.user_id}:${localDate}`;
    await jobs.enqueue(DIGEST_JOB, key, rep.user_id, { userId: rep.user_id, localDate });
    keys.push(key);
  }
  return keys;
}

/** Ticks every few minutes on each instance (the jobs and the compare-and-set keep it to one mail). */
export function startDigestScheduler(
  deps: DigestDeps,
  jobs: JobQueue,
  everyMs = 5 * 60_000,
): { stop(): void } {
  const timer = setInterval(() => {
    scheduleDigests(deps, jobs).catch((error: unknown) =>
      deps.log.warn({ error }, 'digest scheduling failed'),
    );
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
