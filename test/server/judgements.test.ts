// A sales rep's judgements of real scans hold: every judgement file (test/fixtures/judgements/ and the one beside
// the shared data, see test/helpers/judgements.ts) whose extracts are at hand is imported into a fresh database,
// its scan run as POST /api/scans runs it, and every "must be within the first N" and "must not be" checked.
import { afterEach, describe, expect, it } from 'vitest';
import { checkJudgements, importExtract, loadJudgementFiles, scanFirstPage } from '../helpers/judgements.js';
import { missingDependency } from '../helpers/dependencies.js';
import { openPlacesDb } from '../helpers/places-db.js';

const files = loadJudgementFiles();
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('the judgement files', () => {
  it('are there: four of the repository and the shared one', () => {
    expect(files.map((f) => f.name).sort()).toEqual(
      expect.arrayContaining(['baltimore', 'harrisburg', 'monaco', 'sf-soma']),
    );
  });
});

for (const j of files) {
  describe(`${j.name} (${j.file.area})`, () => {
    if (j.missing.length > 0) {
      missingDependency(j.missing.join(', '), 'not in the shared data folder');
      return;
    }
    it('holds every judgement', async () => {
      const places = await openPlacesDb();
      close = () => places.close();
      for (const e of j.file.extracts) await importExtract(places.db, e);
      const page = await scanFirstPage(places.db, j.file);
      const failed = checkJudgements(j.file, page).filter((o) => !o.held);
      expect(
        failed.map((o) => `${o.name}: ${o.rule}, at ${o.position ?? 'not on the page'} (${o.why})`),
      ).toEqual([]);
    }, 120_000);
  });
}
