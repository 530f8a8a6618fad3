// `npm run bench -- ranking [--only=NAME] [--top=15]`: how the ranking keeps a rep's judgements. For every judgement
// file (test/fixtures/judgements/ and the shared data's judgements/, see test/helpers/judgements.ts) whose extracts
// are at hand: a fresh SQLite database, the extracts imported, the file's scan run as POST /api/scans runs it, and
// the judgements checked. Prints, per file, the judgements held of the total (with each one that failed), the share
// of the top 20 with a phone, the largest group of the top 20 sharing one score, and the first results to read as a
// rep would. Ends with the table kept in docs/SCORING.md.
import {
  checkJudgements,
  importExtract,
  loadJudgementFiles,
  scanFirstPage,
} from '../test/helpers/judgements.js';
import { openPlacesDb } from '../test/helpers/places-db.js';
import type { Prospect } from '../src/core/types.js';
import { VERTICAL_LABELS } from '../src/core/verticals.js';

const option = (args: string[], name: string, fallback: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** How many of the first 20 share the most common score. */
function largestTie(page: readonly Prospect[]): number {
  const counts = new Map<number, number>();
  for (const p of page.slice(0, 20)) {
    const s = p.aiAnalysis?.score ?? Math.round(p.score * 100);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

function printPage(page: readonly Prospect[], top: number): void {
  console.log('   #  score  phone  vertical              category              name');
  page.slice(0, top).forEach((p, i) => {
    const a = p.aiAnalysis;
    const vertical = a ? VERTICAL_LABELS[a.breakdown.vertical] : '-';
    console.log(
      `  ${String(i + 1).padStart(2)}  ${String(a?.score ?? '-').padStart(5)}  ${(p.phone ? 'yes' : '-').padStart(5)}  ` +
        `${vertical.padEnd(20).slice(0, 20)}  ${p.category.padEnd(20).slice(0, 20)}  ${p.name} (${p.distance.toFixed(2)} mi)`,
    );
  });
}

export default async function ranking(args: string[]): Promise<void> {
  const only = option(args, 'only', '');
  const top = Number(option(args, 'top', '15'));
  const rows: string[] = [];
  for (const j of loadJudgementFiles()) {
    if (only && j.name !== only) continue;
    if (j.missing.length > 0) {
      console.log(`\n=== ${j.name}: skipped, ${j.missing.join(', ')} not in the shared data folder`);
      rows.push(`| ${j.name} | ${j.file.area} | - | - | - | not run: ${j.missing.join(', ')} missing |`);
      continue;
    }
    const places = await openPlacesDb();
    const { db } = places;
    try {
      for (const e of j.file.extracts) await importExtract(db, e);
      const page = await scanFirstPage(db, j.file);
      const outcomes = checkJudgements(j.file, page);
      const held = outcomes.filter((o) => o.held).length;
      const first20 = page.slice(0, 20);
      const phones = first20.filter((p) => p.phone).length / Math.max(1, first20.length);
      const { lat, lng, radiusMiles, count } = j.file.scan;
      console.log(`\n=== ${j.name} (${j.file.area}): ${lat}, ${lng}, ${radiusMiles} mi, first ${count}`);
      console.log(
        `  judgements held ${held} / ${outcomes.length}; top 20 with a phone ${pct(phones)}; largest tie ${largestTie(page)}`,
      );
      for (const o of outcomes.filter((x) => !x.held)) {
        console.log(`  FAILS ${o.rule}: ${o.name} (at ${o.position ?? 'not on the page'}): ${o.why}`);
      }
      printPage(page, top);
      const failed = outcomes
        .filter((o) => !o.held)
        .map((o) => `${o.name} (${o.rule}, at ${o.position ?? '-'})`);
      rows.push(
        `| ${j.name} | ${j.file.area} | ${held} / ${outcomes.length} | ${pct(phones)} | ${largestTie(page)} | ${failed.join('; ') || 'none'} |`,
      );
    } finally {
      await places.close();
    }
  }
  console.log(
    '\n| judgement file | area | held | top 20 with a phone | largest tie in the top 20 | failing |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
}
