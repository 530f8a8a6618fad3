// `npm run bench -- paging [--logs=10000] [--runs=20]`: one rep with 10,000 call logs (half with a
// follow-up), on SQLite. Prints the size and time of GET /api/call-logs and GET /api/follow-ups for the first
// page (what the Log and Today ask for), the deepest page and the walk over every page (what one answer
// carried before the lists were paged).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { buildApp } from '../src/server/app.js';
import { registerAccount } from '../src/server/users/accounts.js';
import { insertCallLog } from '../src/server/call-logs/repository.js';
import { insertFollowUp } from '../src/server/follow-ups/repository.js';
import { arg, scratchDatabase } from './util.js';

const ORIGIN = 'http://localhost:3000';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export default async function paging(args: string[]): Promise<void> {
  const logs = arg(args, 'logs', 10_000);
  const runs = arg(args, 'runs', 20);
  const scratch = await scratchDatabase('sqlite', 'pf-bench-paging-');
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: scratch.dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: ORIGIN,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    SIGN_IN_RATE_LIMIT: '1000',
    WEBSITE_CHECKS: 'off',
  });
  const db = openDatabase(config);
  const app = await buildApp({ config, db, serveWeb: false });
  try {
    const password = 'bench-password-1';
    const { userId } = await registerAccount(
      db,
      { name: 'Bench Rep', email: 'rep@bench.example', password },
      8,
    );
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN },
      payload: { email: 'rep@bench.example', password },
    });
    const cookie = ([] as string[])
      .concat(signIn.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');

    const start = Date.UTC(2024, 0, 1);
    for (let i = 0; i < logs; i++) {
      const id = `log-${String(i).padStart(6, '0')}`;
      const createdAt = new Date(start + i * 3_600_000).toISOString();
      const note = `Spoke with the owner about a spring campaign; call back after the budget meeting (${i}).`;
      const row = { id, user_id: userId, prospect_id: `osm:node/${i}`, name: `Business ${i} Dental Care` };
      await insertCallLog(db.kysely, {
        ...row,
        category: 'Dental',
        phone: '(205) 555-0100',
        website: `https://business-${i}.example`,
        address: `${i} Main St, Birmingham, AL 35203`,
        outcome: i % 3 ? 'Called' : 'Visited',
        note,
        created_at: createdAt,
      });
      if (i % 2 === 0) {
        await insertFollowUp(db.kysely, {
          id: `fu-${id}`,
          user_id: userId,
          prospect_id: row.prospect_id,
          name: row.name,
          category: 'Dental',
          address: `${i} Main St, Birmingham, AL 35203`,
          phone: '(205) 555-0100',
          website: `https://business-${i}.example`,
          score: 0.7,
          lat: 33.5,
          lng: -86.8,
          due_date: new Date(start + i * 3_600_000).toISOString().slice(0, 10),
          due_time: i % 4 ? '10:00' : null,
          time_zone: 'America/Chicago',
          next_step: '',
          is_meeting: 0,
          done_at: null,
          created_at: createdAt,
          updated_at: createdAt,
          call_log_id: id,
        });
      }
    }

    const get = async (url: string) => {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return { ms, bytes: res.rawPayload.length, next: res.json<{ nextCursor: string | null }>().nextCursor };
    };

    for (const path of ['/api/call-logs', '/api/follow-ups']) {
      const first: number[] = [];
      let firstBytes = 0;
      for (let r = 0; r < runs; r++) {
        const page = await get(path);
        first.push(page.ms);
        firstBytes = page.bytes;
      }
      let cursor: string | null = null;
      let pages = 0;
      let bytes = 0;
      let lastMs = 0;
      const t0 = performance.now();
      do {
        const page = await get(`${path}?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        pages += 1;
        bytes += page.bytes;
        lastMs = page.ms;
        cursor = page.next;
      } while (cursor);
      const walkMs = performance.now() - t0;
      console.log(
        `${path} with ${logs} call logs: first page (200) ${(firstBytes / 1024).toFixed(0)} KB, median ${median(first).toFixed(1)} ms over ${runs} runs; ` +
          `every page at 500: ${pages} pages, ${(bytes / 1024 / 1024).toFixed(2)} MB in ${walkMs.toFixed(0)} ms, the deepest page ${lastMs.toFixed(1)} ms`,
      );
    }
  } finally {
    await app.close();
    await db.destroy();
    await scratch.remove();
  }
}
