// Where the tests and benchmarks find the OpenStreetMap extracts (sf-downtown, harrisburg, baltimore,
// monaco-2021). They are shared, read-only and never copied into the repository: by default they sit beside
// the clone in <repo>/../shared/data/osm; OSM_DATA_DIR names another folder. Every reader goes through here so
// a clone placed anywhere works.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folder holding the extracts: $OSM_DATA_DIR, else <repo>/../shared/data/osm. */
export function osmDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.OSM_DATA_DIR?.trim();
  return given ? resolve(given) : resolve(REPO_ROOT, '..', 'shared', 'data', 'osm');
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
