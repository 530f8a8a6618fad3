// The ranking on real OpenStreetMap extracts, scored against the fixed reference market: it ranks (a spread of
// scores, few ties, no chain or institution on top), it explains, and a score means the same in every market.
// Scans are 1 mile, all categories, at the San Francisco judgement point and at the busiest point of each extract.
import { expect, it } from 'vitest';
import { getBrandIndex } from './nsi';
import { createScoreFn } from '../../server/scans/analysis';
import { describeWithOsm, osmExtract } from '../../../test/helpers/osm-data';
import {
  busiestPoint,
  loadExtract,
  rankCandidates,
  scanCandidates,
  type RankedRow,
} from '../../../test/helpers/extract-scan';
import type { Business } from '../types';

const brandIndex = getBrandIndex();
const SF_POINT = { lat: 37.7879, lng: -122.4066 };

interface Market {
  all: Business[];
  score: ReturnType<typeof createScoreFn>;
}
const markets = new Map<string, Market>();

async function market(file: string): Promise<Market> {
  let m = markets.get(file);
  if (!m) {
    const all = await loadExtract(osmExtract(file));
    m = { all, score: createScoreFn(() => brandIndex) };
    markets.set(file, m);
  }
  return m;
}

const scan = (m: Market, at: { lat: number; lng: number }): RankedRow[] =>
  rankCandidates(scanCandidates(m.all, at), at, m.score);

const distinct = (rows: readonly RankedRow[]) => new Set(rows.map((r) => r.score)).size;

/** How many rows share the most common score. */
function largestTie(rows: readonly RankedRow[]): number {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.score, (counts.get(r.score) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

describeWithOsm(
  'sf-downtown.osm.pbf',
  'the SF extract, 1 mile around 37.7879, -122.4066, all categories',
  () => {
    it('uses the range: the best is green, the top 20 spread over 10 points and more', async () => {
      const rows = scan(await market('sf-downtown.osm.pbf'), SF_POINT);
      const top = rows.slice(0, 20);
      expect(top[0]!.score).toBeGreaterThan(70);
      expect(top[0]!.score - top[19]!.score).toBeGreaterThanOrEqual(10);
      expect(distinct(top)).toBeGreaterThanOrEqual(10);
      expect(largestTie(top), 'at most 4 of the top 20 share a score').toBeLessThanOrEqual(4);
    });

    it('puts the best home-services business above the best museum or gallery', async () => {
      const rows = scan(await market('sf-downtown.osm.pbf'), SF_POINT);
      const best = (v: string) => rows.find((r) => r.analysis.breakdown.vertical === v)?.score ?? 0;
      const homeServices = Math.max(best('home_services'), best('hvac'), best('plumbing'), best('roofing'));
      const entertainment = rows
        .filter((r) => ['Museum', 'Art Gallery'].includes(r.business.category))
        .reduce((m, r) => Math.max(m, r.score), 0);
      expect(homeServices).toBeGreaterThan(entertainment);
    });

    it('has no national chain and no public institution in the top 20', async () => {
      const rows = scan(await market('sf-downtown.osm.pbf'), SF_POINT);
      for (const r of rows.slice(0, 20)) {
        expect(r.analysis.breakdown.rule, r.name).toBeNull();
        expect(r.name).not.toMatch(/public health|\bVA\b|veterans|school of dentistry/i);
      }
    });

    it('scores one business the same in two overlapping scans, apart from distance and the spread bonus', async () => {
      const m = await market('sf-downtown.osm.pbf');
      const a = scan(m, SF_POINT);
      const b = scan(m, { lat: 37.7905, lng: -122.4035 });
      const byId = new Map(b.map((r) => [r.business.id, r]));
      let compared = 0;
      for (const r of a) {
        const other = byId.get(r.business.id);
        if (!other) continue;
        compared++;
        const x = r.analysis.breakdown;
        const y = other.analysis.breakdown;
        expect(y.quantile, r.name).toBe(x.quantile);
        expect(y.intrinsic, r.name).toBe(x.intrinsic);
        // with the same distance component and spread, the same raw score
        const rawX = x.raw - x.contributions.distance - x.contributions.qualitySpread;
        const rawY = y.raw - y.contributions.distance - y.contributions.qualitySpread;
        expect(rawY).toBeCloseTo(rawX, 12);
      }
      expect(compared).toBeGreaterThan(100);
    });

    it('explains every score: the display points add up to the badge', async () => {
      const rows = scan(await market('sf-downtown.osm.pbf'), SF_POINT);
      for (const r of rows) {
        const p = r.analysis.breakdown.points;
        if (!p) continue;
        expect(p.base + p.fit + p.presence + p.scale + p.keywords + p.distance + p.qualitySpread).toBe(
          r.score,
        );
      }
    });

    it('says what OSM data leaves unknown, and scores an unknown rating as neutral, not zero', async () => {
      const rows = scan(await market('sf-downtown.osm.pbf'), SF_POINT);
      const top = rows[0]!;
      expect(top.analysis.breakdown.unknown).toEqual(['ratings', 'review counts']);
      expect(top.analysis.reasoning).toMatch(
        /Confidence \d+%: this data source carries no ratings or review counts/,
      );
    });
  },
);

// At the busiest point of each market: no chain or institution in the top 20, and a range of scores. On the one
// scale of the reference market a market's best is green only where its records say enough: Baltimore's 2015
// extract carries almost no phones or websites, so its best stays amber.
for (const [file, best, minDistinct] of [
  ['sf-downtown.osm.pbf', 71, 9],
  ['baltimore.osm.pbf', 60, 8],
  ['monaco-2021.osm.pbf', 71, 7],
] as const)
  describeWithOsm(file, `the market of ${file}`, () => {
    it('ranks at its busiest point: its best first, 10 points from 1st to 20th, no prefiltered business', async () => {
      const m = await market(file);
      const rows = rankCandidates(
        scanCandidates(m.all, busiestPoint(m.all), { radiusMiles: 1 }),
        busiestPoint(m.all),
        m.score,
      );
      expect(rows[0]!.score, 'best at the busiest point').toBeGreaterThanOrEqual(best);
      const top = rows.slice(0, Math.min(20, rows.length));
      expect(top[0]!.score - top.at(-1)!.score).toBeGreaterThanOrEqual(10);
      expect(distinct(top)).toBeGreaterThanOrEqual(minDistinct);
      for (const r of top) {
        expect(['nationalChain', 'chain', 'government', 'hospital', 'nonProfit'], r.name).not.toContain(
          r.analysis.breakdown.rule,
        );
      }
    });
  });

describeWithOsm('harrisburg.osm.pbf', 'a small market (Harrisburg, 2015)', () => {
  it('still ranks its few businesses, and a bank or hospital above a hair salon', async () => {
    const m = await market('harrisburg.osm.pbf');
    const at = busiestPoint(m.all);
    const rows = scan(m, at);
    expect(rows.length).toBeGreaterThan(2);
    const salon = rows.find((r) => r.analysis.breakdown.vertical === 'beauty');
    if (salon) expect(rows[0]!.score).toBeGreaterThan(salon.score);
  });
});
