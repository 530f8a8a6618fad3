// OpenStreetMap data for tests and benchmarks, from two places:
//
// 1. The fixture in the repository, always there: `fixtureExtract()`, test/fixtures/osm/prairie-junction.osm.pbf,
//    an invented small town written by hand in test/fixtures/osm/prairie-junction.ts (`npm run fixtures:osm`
//    regenerates the .pbf). Import -> scan -> rank runs on it on every machine (test/server/fixture-scan.test.ts;
//    in the browser test/browser/scan-sources.test.ts).
//
// 2. Real extracts (sf-downtown, harrisburg, baltimore, monaco-2021), shared and read-only, never copied into
//    the repository: by default beside the clone in <repo>/../shared/data/osm; OSM_DATA_DIR names another
//    folder. A fresh clone has none of them, so a test that reads one says so and is then skipped with a
//    one-line reason where the extract is missing -- except in CI (CI=1 or RUN_FAULT_TESTS=1, set by
//    .ci/run), where a missing extract fails the run (test/helpers/dependencies.ts).
//
// How a test opts in to a real extract: put its tests inside `describeWithOsm` instead of `describe`, and
// call `osmExtract()` only inside that callback, its hooks or its tests -- never at the top of the module,
// where it would throw while the file is collected:
//
//     import { describeWithOsm, osmExtract } from '../helpers/osm-data.js'; // from src/core/scoring:
//                                                                           // '../../../test/helpers/osm-data'
//     describeWithOsm('sf-downtown.osm.pbf', 'scoring on the San Francisco extract', () => {
//       let places: Place[];
//       beforeAll(async () => {
//         places = await read(osmExtract('sf-downtown.osm.pbf'));
//       });
//       it('...', () => { ... });
//     });
//
// Several extracts: `describeWithOsm(['harrisburg.osm.pbf', 'baltimore.osm.pbf'], title, fn)`. A file-level
// beforeAll may read the extract, as long as every test of the file is inside describeWithOsm: when all of
// them are skipped vitest runs no hook of the file. A module-level constant takes `osmExtractPath(name)`,
// which does not check. `hasOsmExtract(name)` answers the question for other uses (note that
// `it.skipIf(!hasOsmExtract(name))` does NOT fail in CI; describeWithOsm does).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { missingDependency } from './dependencies.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The hand-written extract kept in the repository (see test/fixtures/osm/prairie-junction.ts). */
export function fixtureExtract(): string {
  return resolve(REPO_ROOT, 'test', 'fixtures', 'osm', 'prairie-junction.osm.pbf');
}

/** The folder holding the real extracts: $OSM_DATA_DIR, else <repo>/../shared/data/osm. */
export function osmDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.OSM_DATA_DIR?.trim();
  return given ? resolve(given) : resolve(REPO_ROOT, '..', 'shared', 'data', 'osm');
}

/** Whether the real extract `name` (e.g. 'sf-downtown.osm.pbf') is available. */
export function hasOsmExtract(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(resolve(osmDataDir(env), name));
}

/**
 * Where the extract `name` is, or would be, without checking: for a module-level constant in a file whose tests
 * all sit inside describeWithOsm (the file's hooks then run only when the extract is there).
 */
export function osmExtractPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(osmDataDir(env), name);
}

/** The absolute path of one extract, e.g. osmExtract('sf-downtown.osm.pbf'); throws, naming OSM_DATA_DIR, if absent. */
export function osmExtract(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = osmDataDir(env);
  const file = resolve(dir, name);
  if (!existsSync(file)) {
    throw new Error(
      `OSM extract ${name} not found in ${dir}. Set OSM_DATA_DIR to the folder that holds the .osm.pbf ` +
        `extracts (default: <repository>/../shared/data/osm).`,
    );
  }
  return file;
}

/**
 * `describe(title, fn)` when every extract named is available; otherwise a suite holding one test that is
 * skipped with the reason (or fails, in CI). See the header for how to use it.
 */
export function describeWithOsm(
  extracts: string | readonly string[],
  title: string,
  fn: () => void,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const names = typeof extracts === 'string' ? [extracts] : extracts;
  const missing = names.filter((n) => !hasOsmExtract(n, env));
  if (missing.length === 0) {
    describe(title, fn);
    return;
  }
  describe(title, () => {
    missingDependency(
      `the OSM extract${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
      `not in ${osmDataDir(env)}; set OSM_DATA_DIR to the folder holding them`,
      env,
    );
  });
}
