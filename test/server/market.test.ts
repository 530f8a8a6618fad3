// The imported market (issue 13, docs/SCORING.md "Calibration"): an import counts each business's places and
// builds the `local` reference population; a server scores scans against it, so the ranking uses the whole
// range; a server that finds imported places without a reference (data imported before calibration) builds it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/index.js';
import { loadReferences } from '../../src/server/places/market.js';
import { MODEL_VERSION, REFERENCE_POINTS } from '../../src/core/scoring/index.js';
import type { Prospect } from '../../src/core/types.js';
import {
  createTestContext,
  ORIGIN,
  startSecondInstance,
  type SecondInstance,
  type TestContext,
  type TestUser,
} from '../helpers/app.js';
import { describeWithOsm, osmExtract } from '../helpers/osm-data.js';

const CENTER = { lat: 37.7879, lng: -122.4066 };

let t: TestContext;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  await importOsmFile(t.db, osmExtract('sf-downtown.osm.pbf'));
  rep = await t.newUser('user');
}, 120_000);
afterAll(() => t.close());

async function scanOn(instance: SecondInstance): Promise<Prospect[]> {
  const res = await instance.app.inject({
    method: 'POST',
    url: '/api/scans',
    headers: { origin: ORIGIN, cookie: rep.cookie },
    payload: { ...CENTER, radiusMiles: 1, count: 50 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ prospects: Prospect[] }>().prospects;
}

describeWithOsm('sf-downtown.osm.pbf', 'the imported market', () => {
  it('stores the reference population of the local source with the model version', async () => {
    const row = await t.db.kysely.selectFrom('score_references').selectAll().executeTakeFirstOrThrow();
    expect(row.source).toBe('local');
    expect(row.model_version).toBe(MODEL_VERSION);
    expect(row.population).toBeGreaterThan(300);
    const refs = await loadReferences(t.db);
    expect(refs.local?.quantiles).toHaveLength(REFERENCE_POINTS + 1);
  });

  it('counts the places of a local multi-location business', async () => {
    const multi = await t.db.kysely
      .selectFrom('places')
      .select(['name', 'locations'])
      .where('locations', '>', 1)
      .execute();
    expect(multi.length).toBeGreaterThan(20);
    const academy = multi.find((r) => r.name === 'Academy of Art University');
    expect(academy?.locations).toBeGreaterThan(4);
  });

  it('scores a scan against the market: a green best, points that add up, the standing in the reasoning', async () => {
    const second = await startSecondInstance(t);
    try {
      const list = await scanOn(second);
      const best = list[0]!;
      expect(best.aiAnalysis?.score).toBeGreaterThan(70);
      const b = best.aiAnalysis!.breakdown;
      expect(b.reference).toEqual({ source: 'local', population: expect.any(Number) as number });
      const p = b.points!;
      expect(p.base + p.fit + p.presence + p.scale + p.keywords + p.distance + p.qualitySpread).toBe(
        best.aiAnalysis!.score,
      );
      expect(best.aiAnalysis!.reasoning).toMatch(/Market standing \d+\/100 among [\d,]+ businesses here\./);
      expect(new Set(list.slice(0, 20).map((x) => x.aiAnalysis?.score)).size).toBeGreaterThanOrEqual(10);
    } finally {
      await second.close();
    }
  });

  it('builds the reference at start when places were imported before calibration existed', async () => {
    await t.db.kysely.deleteFrom('score_references').execute();
    const second = await startSecondInstance(t);
    try {
      for (let i = 0; i < 100; i++) {
        const row = await t.db.kysely.selectFrom('score_references').select('source').executeTakeFirst();
        if (row) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await loadReferences(t.db)).local?.population).toBeGreaterThan(300);
    } finally {
      await second.close();
    }
  });
});
