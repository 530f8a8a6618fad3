import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { findChromium } from './test/helpers/chromium.js';
import { dependenciesRequired } from './test/helpers/ci.js';

// Three projects so each kind of test can be run on its own:
//   unit    - pure code (src/core and anything that needs no database or browser)
//   db      - server integration tests through app.inject, on SQLite or PostgreSQL (TEST_DATABASE)
//   browser - playwright-core driving Debian's Chromium against a real server
// Without Chromium (test/helpers/chromium.ts) the browser project runs only test/browser/chromium.test.ts, which
// is skipped with the reason, or fails in CI (CI=1 or RUN_FAULT_TESTS=1): the other browser files cannot run.
const browserFiles =
  findChromium() || dependenciesRequired()
    ? ['test/browser/**/*.test.ts']
    : ['test/browser/chromium.test.ts'];

export default defineConfig({
  test: {
    // Test files wait on databases, child processes and the browser about as much as they compute, so a worker
    // per core (vitest 4.1 keeps one core free, leaving a 2-core machine half idle) runs them faster; TEST_WORKERS
    // overrides it. Browser files still run one at a time, after the others.
    maxWorkers: Number(process.env.TEST_WORKERS) || availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          environment: 'node',
          // Some read and score whole OSM extracts (ranking-extracts, sf-extract): seconds on a loaded machine.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'db',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: browserFiles,
          environment: 'node',
          // Pages wait on the server and the map chunk: seconds on a loaded machine, not vitest's default 1 s.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
