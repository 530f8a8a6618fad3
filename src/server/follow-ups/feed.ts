// The calendar feed a calendar app polls: bounded to a window around today and a number of events, and its
// text kept per rep until one of the rep's follow-ups changes, so a feed read over and over costs one short
// query instead of building thousands of events each time.
import type { Db } from '../db/database.js';
import { followUpsCalendar } from './calendar.js';
import { feedFollowUps, followUpsStamp } from './repository.js';
import { presentFollowUp } from './service.js';

const DAY_MS = 86_400_000;

export interface FeedBounds {
  daysBack: number;
  daysAhead: number;
  maxEvents: number;
}

/**
 * Feeds by rep, as the bytes sent (encoded once), at most `maxBytes` in all: past it, the least recently read
 * go first.
 */
export class FeedCache {
  private readonly entries = new Map<string, { stamp: string; text: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32_000_000) {}

  get(userId: string, stamp: string): Buffer | undefined {
    const entry = this.entries.get(userId);
    if (entry?.stamp !== stamp) return undefined;
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return entry.text;
  }

  set(userId: string, stamp: string, text: Buffer): void {
    this.drop(userId);
    if (text.length > this.maxBytes) return;
    while (this.bytes + text.length > this.maxBytes) this.drop(this.entries.keys().next().value!);
    this.entries.set(userId, { stamp, text });
    this.bytes += text.length;
  }

  private drop(userId: string): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    this.entries.delete(userId);
    this.bytes -= entry.text.length;
  }
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The rep's feed: open follow-ups due from `daysBack` days before today (UTC) to `daysAhead` after, at most
 * `maxEvents`, the nearest to today first. Served from `cache` while the rep's follow-ups and the day are
 * the same as when it was built (the stamp is read from the database, so a change made through any instance
 * shows at once).
 */
export async function calendarFeed(
  db: Db,
  cache: FeedCache,
  userId: string,
  options: FeedBounds & { publicUrl: string },
  now = Date.now(),
): Promise<Buffer> {
  const today = isoDay(now);
  const stamp = `${today}|${await followUpsStamp(db.kysely, userId)}`;
  const kept = cache.get(userId, stamp);
  if (kept !== undefined) return kept;
  const rows = await feedFollowUps(db.kysely, userId, {
    from: isoDay(now - options.daysBack * DAY_MS),
    today,
    to: isoDay(now + options.daysAhead * DAY_MS),
    max: options.maxEvents,
  });
  const text = Buffer.from(followUpsCalendar(rows.map(presentFollowUp), options.publicUrl));
  cache.set(userId, stamp, text);
  return text;
}
