// `npm run bench -- feed [--follow-ups=3000] [--seconds=10] [--postgres]`
// One rep with thousands of follow-ups, their calendar feed read by three loops at once over HTTP (as anyone
// holding the link could), while another rep's GET /api/me is timed: its median and p95, against the same
// requests with no feed reads. Run twice: with the feed's rate limits as shipped, and with them lifted, so the
// figure shows what the bounded and cached feed costs by itself.
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { parseConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { buildApp } from '../src/server/app.js';
import { registerAccount } from '../src/server/users/accounts.js';
import { createInvitation } from '../src/server/invitations/service.js';
import { arg, scratchDatabase } from './util.js';

const ORIGIN = 'http://localhost:3000';
const DAY_MS = 86_400_000;

const FEED_LOOPS = `
const { parentPort, workerData } = require('node:worker_threads');
const { feedUrl, seconds } = workerData;
const until = Date.now() + seconds * 1000;
let reads = 0, refused = 0, events = 0;
const loop = async () => {
  while (Date.now() < until) {
    const res = await fetch(feedUrl);
    const text = await res.text();
    reads += 1;
    if (res.status === 429) refused += 1;
    else events = text.split('BEGIN:VEVENT').length - 1;
  }
};
Promise.all([loop(), loop(), loop()]).then(() => parentPort.postMessage({ reads, refused, events }));
`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function run(kind: 'sqlite' | 'postgres', followUps: number, seconds: number, lifted: boolean) {
  const scratch = await scratchDatabase(kind, 'pf-bench-feed-');
  const config = parseConfig({
    NODE_ENV: 'production',
    DATA_DIR: scratch.dataDir,
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: ORIGIN,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    ...(lifted && { CALENDAR_FEED_RATE_LIMIT: '1000000', CALENDAR_FEED_IP_RATE_LIMIT: '1000000' }),
  });
  const db = openDatabase(config);
  const app = await buildApp({ config, db, serveWeb: false });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const signIn = async (email: string) => {
      const password = 'bench-password-1';
      // The first account needs no invitation; the second one's is made as an admin would.
      const invitation = await createInvitation(db, { id: null as never, name: 'bench' }, undefined).catch(
        () => null,
      );
      await registerAccount(db, { name: email, email, password, invitationCode: invitation?.code }, 8);
      const res = await fetch(`${base}/api/session`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      return res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
    };
    const repCookie = await signIn('busy@bench.example');
    const otherCookie = await signIn('other@bench.example');
    const repId = (
      await db.kysely
        .selectFrom('user')
        .select('id')
        .where('email', '=', 'busy@bench.example')
        .executeTakeFirstOrThrow()
    ).id;
    // Follow-ups due over the feed's whole window (90 days back to a year ahead), written straight to the table.
    const now = new Date().toISOString();
    for (let start = 0; start < followUps; start += 500) {
      const rows = Array.from({ length: Math.min(500, followUps - start) }, (_, k) => {
        const i = start + k;
        const due = new Date(Date.now() + (-90 + Math.floor((i * 455) / followUps)) * DAY_MS);
        return {
          id: randomUUID(), user_id: repId, prospect_id: `osm:node/${i}`, name: `Business ${i}`,
          category: 'Dentist', address: `${i} Main St, Springfield`, phone: '(555) 555-0100',
          website: 'https://example.com', score: 0.5, lat: 41.8, lng: -87.6,
          due_date: due.toISOString().slice(0, 10), due_time: i % 2 ? '10:00' : null, time_zone: 'America/Chicago',
          next_step: 'Send the media kit', is_meeting: i % 5 === 0 ? 1 : 0, done_at: null,
          created_at: now, updated_at: now, call_log_id: null,
        }; // prettier-ignore
      });
      await db.kysely.insertInto('follow_ups').values(rows).execute();
    }
    const made = await fetch(`${base}/api/calendar/feed`, {
      method: 'POST',
      headers: { origin: ORIGIN, cookie: repCookie },
    });
    const feedUrl = `${base}${new URL(((await made.json()) as { feedUrl: string }).feedUrl).pathname}`;

    const timeMe = async (until: number) => {
      const times: number[] = [];
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/me`, { headers: { cookie: otherCookie } });
        await res.arrayBuffer();
        times.push(performance.now() - t0);
      }
      return times.sort((a, b) => a - b);
    };
    const quiet = await timeMe(performance.now() + 3_000);
    // The three loops run on a thread of their own, so reading and parsing the answers costs the server's
    // event loop nothing (an attacker's loops run elsewhere too).
    const loops = new Worker(FEED_LOOPS, { eval: true, workerData: { feedUrl, seconds } });
    const counted = new Promise<{ reads: number; refused: number; events: number }>((resolve, reject) => {
      loops.once('message', resolve);
      loops.once('error', reject);
    });
    const loaded = await timeMe(performance.now() + seconds * 1000);
    const { reads, refused, events } = await counted;
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    console.log(
      `${kind}, ${followUps} follow-ups, feed limits ${lifted ? 'lifted' : 'as shipped'}: ` +
        `${reads} feed reads in ${seconds} s (${refused} answered 429), ${events} events a feed`,
    );
    console.log(
      `  another rep's /api/me: quiet median ${ms(percentile(quiet, 50))}, p95 ${ms(percentile(quiet, 95))}; ` +
        `beside three feed loops median ${ms(percentile(loaded, 50))}, p95 ${ms(percentile(loaded, 95))} ` +
        `(${loaded.length} requests)`,
    );
  } finally {
    await app.close();
    await db.destroy();
    await scratch.remove();
  }
}

export default async function feed(args: string[]): Promise<void> {
  const followUps = arg(args, 'follow-ups', 3000);
  const seconds = arg(args, 'seconds', 10);
  const kind = args.includes('--postgres') ? 'postgres' : 'sqlite';
  await run(kind, followUps, seconds, false);
  await run(kind, followUps, seconds, true);
}
