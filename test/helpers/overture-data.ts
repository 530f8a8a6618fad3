// Overture Maps data for tests and benchmarks: the real sample sf-soma.parquet (1,849 places of San Francisco's
// SoMa, release 2025-09-24.0), shared and read-only, never copied into the repository: by default beside the
// clone in <repo>/../shared/data/overture; OVERTURE_DATA_DIR names another folder. A fresh clone has none, so a
// test that reads it sits inside `describeWithOverture` and is skipped with a one-line reason where the file is
// missing, except in CI (CI=1 or RUN_FAULT_TESTS=1), where a missing file fails the run. Use it as
// test/helpers/osm-data.ts's describeWithOsm: call `overtureFile()` only inside the callback, its hooks or tests.
// Files made by the tests themselves come from test/fixtures/overture/parquet-writer.ts.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { missingDependency } from './dependencies.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folder holding the real Overture samples: $OVERTURE_DATA_DIR, else <repo>/../shared/data/overture. */
export function overtureDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.OVERTURE_DATA_DIR?.trim();
  return given ? resolve(given) : resolve(REPO_ROOT, '..', 'shared', 'data', 'overture');
}

export function hasOvertureFile(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(resolve(overtureDataDir(env), name));
}

/** The absolute path of one sample, e.g. overtureFile('sf-soma.parquet'); throws, naming OVERTURE_DATA_DIR, if absent. */
export function overtureFile(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const file = resolve(overtureDataDir(env), name);
  if (!existsSync(file)) {
    throw new Error(
      `Overture sample ${name} not found in ${overtureDataDir(env)}. Set OVERTURE_DATA_DIR to the folder that ` +
        'holds it (default: <repository>/../shared/data/overture).',
    );
  }
  return file;
}

/**
 * `describe(title, fn)` when the sample is available; otherwise a suite holding one test that is skipped with
 * the reason (or fails, in CI).
 */
export function describeWithOverture(
  name: string,
  title: string,
  fn: () => void,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (hasOvertureFile(name, env)) {
    describe(title, fn);
    return;
  }
  describe(title, () => {
    missingDependency(
      `the Overture sample ${name}`,
      `not in ${overtureDataDir(env)}; set OVERTURE_DATA_DIR to the folder holding it`,
      env,
    );
  });
}
