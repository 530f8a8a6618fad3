import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { osmDataDir, osmExtract } from '../helpers/osm-data.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('where the tests find the OSM extracts', () => {
  it('defaults to the shared folder beside the clone, wherever the clone is', () => {
    expect(osmDataDir({})).toBe(resolve(repo, '..', 'shared', 'data', 'osm'));
    // Independent of the working directory the tests were started from.
    const cwd = process.cwd();
    process.chdir(tmpdir());
    try {
      expect(osmDataDir({})).toBe(resolve(repo, '..', 'shared', 'data', 'osm'));
    } finally {
      process.chdir(cwd);
    }
  });

  it('takes OSM_DATA_DIR when set, and gives the absolute path of an extract there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-osm-data-'));
    try {
      writeFileSync(join(dir, 'tiny.osm.pbf'), 'x');
      expect(osmDataDir({ OSM_DATA_DIR: dir })).toBe(dir);
      expect(osmExtract('tiny.osm.pbf', { OSM_DATA_DIR: dir })).toBe(join(dir, 'tiny.osm.pbf'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the file, the folder and OSM_DATA_DIR when the extract is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-osm-data-'));
    try {
      expect(() => osmExtract('nowhere.osm.pbf', { OSM_DATA_DIR: dir })).toThrow(
        new RegExp(
          `nowhere\\.osm\\.pbf not found in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*OSM_DATA_DIR`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
