// The scoring model on real data: the San Francisco extract, 1 mile around downtown (37.7879, -122.4066).
import { beforeAll, expect, it } from 'vitest';
import { dedupe } from '../dedup';
import { haversineMiles } from '../geo';
import { osmBusinessTypes, osmCategoryLabel } from '../osm-tags';
import { readOsmBusinesses } from '../testing/read-pbf';
import { describeWithOsm, osmExtract } from '../../../test/helpers/osm-data';
import { analyzeBatch, rankProspects, type AnalysisResult } from './analyze';
import { getBrandIndex } from './nsi';
import { MODEL_VERSION } from './constants';

const SF = 'sf-downtown.osm.pbf'; // not in a fresh clone: the suite is skipped without it (osm-data.ts)
const CENTER = { lat: 37.7879, lng: -122.4066 };

interface Scored {
  name: string;
  score: number;
  distance: number;
  analysis: AnalysisResult;
}
let ranked: Scored[] = [];

beforeAll(async () => {
  const elements = await readOsmBusinesses(osmExtract(SF));
  const nearby = dedupe(
    elements
      .filter((e) => typeof e.lat === 'number' && typeof e.lon === 'number')
      .map((e) => ({
        id: `osm:node/${e.id}`,
        name: e.tags.name ?? '',
        lat: e.lat ?? 0,
        lng: e.lon ?? 0,
        tags: e.tags,
        address: e.tags['addr:housenumber']
          ? `${e.tags['addr:housenumber']} ${e.tags['addr:street'] ?? ''}`
          : '',
      })),
  ).filter((b) => haversineMiles(CENTER, b) <= 1);
  const results = analyzeBatch(
    nearby.map((b) => ({
      name: b.name,
      tags: b.tags,
      types: osmBusinessTypes(b.tags),
      category: osmCategoryLabel(b.tags),
      website: b.tags.website ?? b.tags['contact:website'],
      phone: b.tags.phone ?? b.tags['contact:phone'],
      address: b.address,
      distance: haversineMiles(CENTER, b),
    })),
    { brandIndex: getBrandIndex() },
  );
  ranked = rankProspects(
    nearby.map((b, i) => {
      const analysis = results[i];
      if (!analysis) throw new Error('missing result');
      return { name: b.name, score: analysis.score, distance: haversineMiles(CENTER, b), analysis };
    }),
  );
}, 20_000);

describeWithOsm(SF, 'scoring the San Francisco extract (1 mile around 37.7879, -122.4066)', () => {
  it('scores thousands of real businesses, each with score, reasoning, confidence, recommendations, breakdown', () => {
    expect(ranked.length).toBeGreaterThan(2000);
    for (const r of ranked) {
      expect(r.analysis.score).toBeGreaterThanOrEqual(0);
      expect(r.analysis.score).toBeLessThanOrEqual(90);
      expect(r.analysis.reasoning.length).toBeGreaterThan(20);
      expect(r.analysis.confidence).toBeGreaterThanOrEqual(0);
      expect(r.analysis.confidence).toBeLessThanOrEqual(100);
      expect(r.analysis.recommendations.length).toBeGreaterThan(0);
      expect(r.analysis.modelVersion).toBe(MODEL_VERSION);
    }
  });

  it('puts high-fit local verticals on top and no chain in the top 50', () => {
    const top = ranked.slice(0, 50);
    const highFit = new Set(['auto_dealer', 'legal', 'hvac', 'plumbing', 'roofing', 'dental', 'orthodontics', 'medical', 'furniture', 'insurance', 'fitness', 'real_estate']); // prettier-ignore
    const share = top.filter((r) => highFit.has(r.analysis.breakdown.vertical)).length / top.length;
    expect(share).toBeGreaterThan(0.8);
    expect(top.every((r) => r.analysis.breakdown.rule === null)).toBe(true);
    // sorted by score descending
    for (let i = 1; i < ranked.length; i++)
      expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
  });

  it('recognises the national chains of downtown San Francisco', () => {
    const chains = ranked.filter((r) => r.analysis.breakdown.rule === 'nationalChain').map((r) => r.name);
    expect(chains.length).toBeGreaterThan(100);
    for (const name of ['Starbucks', 'Walgreens']) expect(chains).toContain(name);
    const fastFood = ranked.filter(
      (r) => r.analysis.breakdown.vertical === 'qsr' && r.analysis.breakdown.rule === null,
    );
    expect(Math.max(...fastFood.map((r) => r.score))).toBeLessThan(40);
  });
});
