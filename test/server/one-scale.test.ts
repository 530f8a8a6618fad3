// One scale for every market: a score is read against the reference market shipped with the model, not against
// whatever else is imported. The same scan gives every business the same score (within 3 points) with one extract
// imported or with several; a strong prospect of a small extract is green; a record nobody can reach is not.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/index.js';
import type { Prospect } from '../../src/core/types.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { describeWithOsm, osmExtractPath } from '../helpers/osm-data.js';

const EXTRACTS = ['baltimore.osm.pbf', 'sf-downtown.osm.pbf', 'harrisburg.osm.pbf', 'monaco-2021.osm.pbf'];
const BALTIMORE = { lat: 39.2902, lng: -76.5855 };
const MONACO = { lat: 43.7385, lng: 7.4236 };

let t: TestContext;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  rep = await t.newUser('user');
}, 120_000);
afterAll(() => t?.close());

async function scan(at: { lat: number; lng: number }): Promise<Prospect[]> {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...at, radiusMiles: 1, count: 50 },
    as: rep,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ prospects: Prospect[] }>().prospects;
}

describeWithOsm(EXTRACTS, 'one scale for every market', () => {
  it('scores the same business within 3 points with one extract imported and with four', async () => {
    await importOsmFile(t.db, osmExtractPath('baltimore.osm.pbf'));
    const alone = await scan(BALTIMORE);
    expect(alone.length).toBeGreaterThan(15);
    for (const other of EXTRACTS.slice(1)) await importOsmFile(t.db, osmExtractPath(other));
    const among = new Map((await scan(BALTIMORE)).map((p) => [p.id, p.aiAnalysis!.score]));
    let compared = 0;
    for (const p of alone) {
      const now = among.get(p.id);
      if (now === undefined) continue;
      compared++;
      expect(Math.abs(now - p.aiAnalysis!.score), p.name).toBeLessThanOrEqual(3);
    }
    expect(compared).toBe(alone.length);
  });

  it('shows a strong prospect of a small extract as green, and no record without a phone or website as green', async () => {
    const monaco = await scan(MONACO);
    const best = monaco[0]!;
    expect(best.aiAnalysis!.score, best.name).toBeGreaterThan(70);
    expect(best.phone ?? best.website).toBeTruthy();
    for (const list of [monaco, await scan(BALTIMORE)]) {
      for (const p of list.filter((x) => !x.phone && !x.website)) {
        expect(p.aiAnalysis!.score, p.name).toBeLessThanOrEqual(70);
        // A model score says to find a number; a rule's (an auto repair shop's 5) says why it is not called.
        if (p.aiAnalysis!.breakdown.rule === null) {
          expect(p.aiAnalysis!.reasoning, p.name).toContain('Find a number first');
        }
      }
    }
  });
});
