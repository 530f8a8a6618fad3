// `npm run bench -- ranking`: how the scoring model ranks real OpenStreetMap data (issue 13). For each extract in
// the OSM data folder (test/helpers/osm-data.ts): the market's score distribution (deciles of every model-scored
// business of the requested kinds), the green (> 70) / amber / red shares, and a 1-mile all-categories scan at the
// busiest point (and, for San Francisco, at the issue's point): distinct scores and ties in the top 20, the 1st
// minus the 20th, and the top 15 with their categories. Options: --radius=1 --top=15 --only=sf-downtown
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { referenceInput } from '../src/core/market';
import { analyzeBatch, type AnalysisResult } from '../src/core/scoring';
import type { Business } from '../src/core/types';
import { VERTICAL_LABELS } from '../src/core/verticals';
import { getBrandIndex } from '../src/core/scoring/nsi';
import { createScoreFn } from '../src/server/scans/analysis';
import { osmDataDir } from '../test/helpers/osm-data';
import {
  busiestPoint,
  loadExtract,
  marketReference,
  rankCandidates,
  scanCandidates,
  type RankedRow,
} from '../test/helpers/extract-scan';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const pct = (x: number) => `${Math.round(x * 100)}%`;

function ties(top: readonly RankedRow[]): { distinct: number; largestGroup: number } {
  const counts = new Map<number, number>();
  for (const r of top) counts.set(r.score, (counts.get(r.score) ?? 0) + 1);
  return { distinct: counts.size, largestGroup: Math.max(0, ...counts.values()) };
}

function printScan(label: string, rows: readonly RankedRow[], top: number) {
  const top20 = rows.slice(0, 20);
  const t = ties(top20);
  const first = top20[0]?.score ?? 0;
  const twentieth = top20[19]?.score ?? top20.at(-1)?.score ?? 0;
  console.log(`\n  ${label}: ${rows.length} prospects after the prefilter`);
  console.log(
    `  top 20: ${t.distinct} distinct scores, largest tie ${t.largestGroup}, 1st ${first} - 20th ${twentieth} = ${first - twentieth}`,
  );
  console.log('   #  score  conf  vertical                  category              name');
  rows.slice(0, top).forEach((r, i) => {
    const v = VERTICAL_LABELS[r.analysis.breakdown.vertical];
    console.log(
      `  ${String(i + 1).padStart(2)}  ${String(r.score).padStart(5)}  ${String(r.analysis.confidence).padStart(4)}  ${v.padEnd(24).slice(0, 24)}  ${r.business.category.padEnd(20).slice(0, 20)}  ${r.name} (${r.distance.toFixed(2)} mi)`,
    );
  });
}

/** One worked example per vertical: the market's best model-scored business of each, scored where it stands. */
function printWorkedExamples(market: readonly AnalysisResult[], kinds: readonly Business[]) {
  const best = new Map<string, number>();
  market.forEach((a, i) => {
    const v = a.breakdown.vertical;
    const j = best.get(v);
    if (j === undefined || a.score > market[j]!.score) best.set(v, i);
  });
  console.log('\n  worked examples (the best business of each vertical in this market, 1 mile or nearer):');
  console.log(
    '  | vertical | business | fit | presence | scale | keywords | intrinsic | standing | raw | score | points (base+fit+presence+scale+keywords+distance+spread) | confidence |',
  );
  console.log('  | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const i of [...best.values()].sort((a, b) => market[b]!.score - market[a]!.score)) {
    const a = market[i]!;
    const b = a.breakdown;
    const biz = kinds[i]!;
    const p = b.points;
    const f = (x: number | null | undefined) => (typeof x === 'number' ? x.toFixed(3) : '-');
    console.log(
      `  | ${VERTICAL_LABELS[b.vertical]} | ${biz.name} (${biz.category}; ${[biz.website ? 'website' : '', biz.phone ? 'phone' : '', ...(b.evidence ?? [])].filter(Boolean).join(', ') || 'no contact data'}${(b.locations ?? 1) > 1 ? `; ${b.locations} locations` : ''}) | ${f(b.fit)} | ${f(b.presence)} | ${f(b.scale)} | ${f(b.keywords)} | ${f(b.intrinsic)} | ${f(b.quantile)} | ${f(b.raw)} | **${a.score}** | ${p ? `${p.base}+${p.fit}+${p.presence}+${p.scale}+${p.keywords}+${p.distance}+${p.qualitySpread}` : '-'} | ${a.confidence} |`,
    );
  }
}

export default async function ranking(): Promise<void> {
  const dir = osmDataDir();
  if (!existsSync(dir)) {
    console.log(`No OSM extracts in ${dir} (set OSM_DATA_DIR); nothing to report.`);
    return;
  }
  const only = arg('only', '');
  const radius = Number(arg('radius', '1'));
  const top = Number(arg('top', '15'));
  const brandIndex = getBrandIndex('us');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.osm.pbf') && (!only || f.startsWith(only)))
    .sort();
  for (const file of files) {
    const all = await loadExtract(join(dir, file));
    const reference = marketReference(all, brandIndex);
    const references = reference ? { local: reference } : {};
    const score = createScoreFn(
      () => brandIndex,
      () => references,
    );
    console.log(`\n=== ${file}: ${all.length} businesses`);

    // The market: every business of the scanned kinds, scored where it stands (distance component full).
    const population = all.flatMap((b) => {
      const input = referenceInput(b);
      return input ? [{ business: b, input }] : [];
    });
    const kinds = population.map((p) => p.business);
    const analysed = analyzeBatch(
      population.map((p) => p.input),
      { brandIndex, references },
    );
    const modelScored = kinds.filter((_, i) => analysed[i]!.breakdown.rule === null);
    const market = analysed.filter((a) => a.breakdown.rule === null);
    const scores = market.map((a) => a.score).sort((a, b) => a - b);
    const decile = (p: number) => scores[Math.min(scores.length - 1, Math.floor(p * scores.length))] ?? 0;
    console.log(
      `  market: ${kinds.length} businesses of the scanned kinds, ${scores.length} model-scored; deciles ` +
        [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]
          .map((p) => decile(p === 1 ? 0.9999 : p))
          .join(' / '),
    );
    const green = scores.filter((s) => s > 70).length / Math.max(1, scores.length);
    const red = scores.filter((s) => s <= 40).length / Math.max(1, scores.length);
    console.log(`  green (> 70) ${pct(green)}, amber ${pct(1 - green - red)}, red (<= 40) ${pct(red)}`);

    if (file.startsWith('sf-downtown')) printWorkedExamples(market, modelScored);

    const points: { label: string; at: { lat: number; lng: number } }[] = [];
    if (file.startsWith('sf-downtown'))
      points.push({ label: "the issue's point 37.7879, -122.4066", at: { lat: 37.7879, lng: -122.4066 } });
    const busiest = busiestPoint(all, radius);
    points.push({ label: `busiest point ${busiest.lat}, ${busiest.lng}`, at: busiest });
    for (const p of points) {
      const rows = rankCandidates(scanCandidates(all, p.at, { radiusMiles: radius }), p.at, score);
      printScan(`${radius}-mile scan, all categories, at ${p.label}`, rows, top);
    }
  }
}
