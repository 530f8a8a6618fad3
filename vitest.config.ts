import { defineConfig } from 'vitest/config';

// Three projects so each kind of test can be run on its own:
//   unit    - pure code (src/core and anything that needs no database or browser)
//   db      - server integration tests through app.inject, on SQLite or PostgreSQL (TEST_DATABASE)
//   browser - playwright-core driving Debian's Chromium against a real server
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          environment: 'node',
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
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
