// The imported market: an import counts each business's places, finds the businesses in several cities and makes
// every place's profile and rank; a server scores scans against the fixed reference market, so a score means the
// same wherever it is computed; a server that finds places imported under other rules (or before ranks) rebuilds.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/index.js';
import { profileVersion } from '../../src/core/scoring/index.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
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
  it('stores every place with its rank, and the version the market was built under', async () => {
    const row = await t.db.kysely.selectFrom('market_state').selectAll().executeTakeFirstOrThrow();
    expect(row.profile_version).toBe(profileVersion(getBrandIndex()));
    const unranked = await t.db.kysely
      .selectFrom('places')
      .select('id')
      .where('rank_score', 'is', null)
      .where('rank_rule', 'is', null)
      .execute();
    expect(unranked).toEqual([]);
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

  it('scores a scan against the reference market: a green best, points that add up, reasons first', async () => {
    const second = await startSecondInstance(t);
    try {
      const list = await scanOn(second);
      const best = list[0]!;
      expect(best.aiAnalysis?.score).toBeGreaterThan(70);
      const b = best.aiAnalysis!.breakdown;
      expect(b.reference).toEqual({ source: 'reference', population: expect.any(Number) as number });
      const p = b.points!;
      expect(p.base + p.fit + p.presence + p.scale + p.keywords + p.distance + p.qualitySpread).toBe(
        best.aiAnalysis!.score,
      );
      expect(best.aiAnalysis!.reasoning).toMatch(/^\w+ prospect \(\d+\/100\)\. .+ is worth calling: /);
      expect(new Set(list.slice(0, 20).map((x) => x.aiAnalysis?.score)).size).toBeGreaterThanOrEqual(9);
    } finally {
      await second.close();
    }
  });

  it('rebuilds the market at start when it was built under other rules, or never', async () => {
    const built = () => t.db.kysely.selectFrom('market_state').select('profile_version').executeTakeFirst();
    await t.db.kysely.deleteFrom('market_state').execute();
    await t.db.kysely.updateTable('places').set({ rank_score: null, rank_rule: null }).execute();
    const second = await startSecondInstance(t);
    try {
      for (let i = 0; i < 150 && !(await built()); i++) await new Promise((r) => setTimeout(r, 200));
      expect((await built())?.profile_version).toBe(profileVersion(getBrandIndex()));
      const ranked = await t.db.kysely
        .selectFrom('places')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where((eb) => eb.or([eb('rank_score', 'is not', null), eb('rank_rule', 'is not', null)]))
        .executeTakeFirstOrThrow();
      expect(Number(ranked.n)).toBeGreaterThan(3000);
    } finally {
      await second.close();
    }
  });
});
