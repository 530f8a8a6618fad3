// `npm run bench -- win-rates [--businesses=200000] [--cohort=130000] [--runs=30] [--skip-postgres] [--skip-sqlite]`
// Win rate by score band and by category (GET /api/team/win-rates) for its largest cohort, alone: `businesses`
// rows of first_contacts of which `cohort` were first called in one month (what the dashboard bench's "first
// month" holds at 5 million call logs), and the categories of that month in the call_log_days rollup. Times the
// repository's query (winRateGroups) for that month, in minutes instead of the dashboard bench's half hour of
// generation.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../src/server/config.js';
import { openDatabase, type Db } from '../src/server/db/database.js';
import { buildApp } from '../src/server/app.js';
import { winRateGroups } from '../src/server/team/repository.js';
import { arg, rng, scratchDatabase } from './util.js';

const CATEGORIES = ['Dentist', 'Auto Dealer', 'Restaurant', 'Plumber', 'Law Firm', 'Gym', 'Salon', 'Florist', 'HVAC', 'Realtor', 'Chiropractor', 'Furniture Store']; // prettier-ignore
const DAY = 86_400_000;
const START = Date.parse('2024-11-26T06:00:00.000Z');
const END = START + 30 * DAY;

async function fill(db: Db, businesses: number, cohort: number) {
  const random = rng(7);
  const rows = Array.from({ length: businesses }, (_, i) => {
    const at = new Date(i < cohort ? START + random() * 30 * DAY : END + random() * 700 * DAY).toISOString();
    const r = random();
    return {
      prospect_id: `b${i}`,
      log_id: `c${i}`,
      first_at: at,
      user_id: `rep-${i % 500}`,
      score: random(),
      category: CATEGORIES[i % CATEGORIES.length]!,
      meeting_at: r < 0.4 ? at : null,
      won_at: r < 0.1 ? at : null,
    };
  });
  for (let i = 0; i < rows.length; i += 1000) {
    await db.kysely
      .insertInto('first_contacts')
      .values(rows.slice(i, i + 1000))
      .execute();
  }
  const days = Array.from({ length: 31 }, (_, d) => new Date(START + d * DAY).toISOString().slice(0, 10));
  await db.kysely
    .insertInto('call_log_days')
    .values(
      days.flatMap((day) =>
        CATEGORIES.map((category) => ({ day, outcome: 'Called', category, band: 5, placed: 1, n: 1 })),
      ),
    )
    .execute();
  if (db.kind === 'postgres') await db.pool!.query('VACUUM ANALYZE first_contacts');
}

export default async function run(args: string[]): Promise<void> {
  const businesses = arg(args, 'businesses', 200_000);
  const cohort = Math.min(businesses, arg(args, 'cohort', 130_000));
  const runs = arg(args, 'runs', 30);
  const kinds = (['sqlite', 'postgres'] as const).filter((k) => !args.includes(`--skip-${k}`));
  for (const kind of kinds) {
    const scratch = await scratchDatabase(kind, 'pf-bench-win-rates-');
    const config = parseConfig({
      NODE_ENV: 'test',
      DATA_DIR: scratch.dataDir,
      DATABASE_URL: scratch.url,
      LOG_LEVEL: 'silent',
      AUTH_SECRET: randomBytes(32).toString('hex'),
    });
    const db = openDatabase(config);
    try {
      // The app's start-up creates its tables (better-auth's, then the migrations).
      await (await buildApp({ config, db, serveWeb: false })).close();
      await fill(db, businesses, cohort);
      const range = { start: new Date(START).toISOString(), end: new Date(END).toISOString() };
      const found = await winRateGroups(db, range);
      const counted = [...found.bands.values()].reduce((s, g) => s + g.businesses, 0);
      if (counted !== cohort) throw new Error(`counted ${counted} businesses, expected ${cohort}`);
      for (let i = 0; i < 3; i++) await winRateGroups(db, range);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await winRateGroups(db, range);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
      console.log(
        `${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ${cohort.toLocaleString('en-US')} of ` +
          `${businesses.toLocaleString('en-US')} businesses first called in the month: ` +
          `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
      );
    } finally {
      await db.destroy();
      await scratch.remove();
    }
  }
}
