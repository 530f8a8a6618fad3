// A sales rep's judgements of a scan's first page, run against the real scan: the judgement files of
// test/fixtures/judgements/ and the shared one beside the extracts (<shared>/data/judgements/). Each file names
// the extracts it needs, a scan and the businesses that must (or must not) be within the first N results; the
// runner imports the extracts into a fresh database, runs the scan as POST /api/scans does (runScan) and checks
// every judgement. Used by `npm run bench -- ranking` and test/server/judgements.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Db } from '../../src/server/db/database.js';
import type { Prospect } from '../../src/core/types.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { importOvertureFiles } from '../../src/server/places/overture-import.js';
import { createPlaceChain } from '../../src/server/places/index.js';
import { parseConfig } from '../../src/server/config.js';
import { createScoreFn } from '../../src/server/scans/analysis.js';
import { runScan, type ScanDeps } from '../../src/server/scans/service.js';
import { DEFAULT_ALGORITHM_SETTINGS } from '../../src/server/settings/service.js';
import { registerAccount } from '../../src/server/users/accounts.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
import { osmDataDir } from './osm-data.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const Judgement = z
  .object({
    name: z.string().min(1),
    top: z.number().int().positive().optional(),
    notTop: z.number().int().positive().optional(),
    why: z.string().min(1),
  })
  .refine((j) => (j.top === undefined) !== (j.notTop === undefined), 'exactly one of top and notTop');

export const JudgementFileSchema = z.object({
  area: z.string(),
  extracts: z.array(z.string().min(1)).min(1),
  scan: z.object({
    lat: z.number(),
    lng: z.number(),
    radiusMiles: z.number().positive(),
    count: z.number().int().min(5).max(50),
    categories: z.array(z.string()).optional(),
  }),
  about: z.string().optional(),
  judgements: z.array(Judgement).min(1),
});
export type JudgementFile = z.infer<typeof JudgementFileSchema>;

/** The shared data folder the extracts' paths are relative to (the OSM folder's parent). */
export const sharedDataDir = (): string => dirname(osmDataDir());

/** The folders judgement files are read from: the repository's own, then the shared data's. */
export function judgementDirs(): string[] {
  return [resolve(REPO_ROOT, 'test', 'fixtures', 'judgements'), join(sharedDataDir(), 'judgements')];
}

export interface LoadedJudgements {
  /** The file's name without .json ('sf-downtown'). */
  name: string;
  path: string;
  file: JudgementFile;
  /** Extracts the file names that are not in the shared data folder, or that no importer reads yet. */
  missing: string[];
}

/** Every judgement file, validated (a malformed file throws, naming it). */
export function loadJudgementFiles(): LoadedJudgements[] {
  const out: LoadedJudgements[] = [];
  for (const dir of judgementDirs()) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const path = join(dir, entry);
      const parsed = JudgementFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (!parsed.success) throw new Error(`${path}: ${parsed.error.message}`);
      const missing = parsed.data.extracts.filter(
        (e) => !existsSync(join(sharedDataDir(), e)) || !canImport(e),
      );
      out.push({ name: basename(entry, '.json'), path, file: parsed.data, missing });
    }
  }
  return out;
}

/** Whether an extract of this kind (its file name's ending) can be imported. */
export const canImport = (relative: string): boolean =>
  relative.endsWith('.osm.pbf') || relative.endsWith('.parquet');

/** Import one extract of the shared data into `db` by its kind (its file name's ending). */
export async function importExtract(db: Db, relative: string): Promise<void> {
  const file = join(sharedDataDir(), relative);
  if (relative.endsWith('.osm.pbf')) {
    await importOsmFile(db, file);
    return;
  }
  if (relative.endsWith('.parquet')) {
    await importOvertureFiles(db, [file]);
    return;
  }
  throw new Error(`${relative}: no importer for this kind of file`);
}

/** The first page of the file's scan on `db` (its extracts imported already), as a rep sees it. */
export async function scanFirstPage(db: Db, file: Pick<JudgementFile, 'scan'>): Promise<Prospect[]> {
  const config = parseConfig({ PLACE_PROVIDERS: 'local', LOG_LEVEL: 'silent' });
  const deps: ScanDeps = {
    db,
    places: createPlaceChain(config, db, { warn: () => undefined }),
    score: createScoreFn(() => getBrandIndex()),
    radiusMaxMiles: config.discovery.radiusMaxMiles,
    cooldownMs: 1,
    settings: () => Promise.resolve(DEFAULT_ALGORITHM_SETTINGS),
  };
  const { userId } = await registerAccount(
    db,
    {
      name: 'Judge',
      email: `judge-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'judge-pass',
    },
    4,
  );
  const page = await runScan(deps, userId, {
    lat: file.scan.lat,
    lng: file.scan.lng,
    radiusMiles: file.scan.radiusMiles,
    count: file.scan.count,
    categories: file.scan.categories ?? [],
  });
  return page.prospects;
}

export interface JudgementOutcome {
  name: string;
  rule: string;
  why: string;
  held: boolean;
  /** 1-based position of the first business matching the name, or null when it is not on the page. */
  position: number | null;
}

/** Where the first business named `name` (case-insensitive prefix) is on the page, 1-based, or null. */
export function positionOf(page: readonly Pick<Prospect, 'name'>[], name: string): number | null {
  const want = name.toLowerCase();
  const i = page.findIndex((p) => p.name.toLowerCase().startsWith(want));
  return i < 0 ? null : i + 1;
}

/** Every judgement of a file checked against the page. */
export function checkJudgements(
  file: JudgementFile,
  page: readonly Pick<Prospect, 'name'>[],
): JudgementOutcome[] {
  return file.judgements.map((j) => {
    const position = positionOf(page, j.name);
    if (j.top !== undefined) {
      return {
        name: j.name,
        rule: `top ${j.top}`,
        why: j.why,
        position,
        held: position !== null && position <= j.top,
      };
    }
    const n = j.notTop!;
    // A business that must not be within the first N: anywhere after N, or nowhere on the page.
    const anyWithin = page.slice(0, n).some((p) => p.name.toLowerCase().startsWith(j.name.toLowerCase()));
    return { name: j.name, rule: `not top ${n}`, why: j.why, position, held: !anyWithin };
  });
}
