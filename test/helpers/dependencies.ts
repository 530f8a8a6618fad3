// Suites that need an outside program (Redis, nginx) skip with a reason on a developer's machine without it,
// but in CI (CI=1 or true, or RUN_FAULT_TESTS=1, both set by .ci/run) a missing program is a failure: CI must
// not pass while silently leaving those suites out.
import { it } from 'vitest';
import { dependenciesRequired } from './ci.js';

/** Whether a missing outside program fails the run (CI) instead of skipping its suite. */
export { dependenciesRequired };

/**
 * Register, inside a describe, the test that stands for a suite that cannot run because `what` is missing:
 * a failing test in CI, a skipped one elsewhere. `hint` says how to get it.
 */
export function missingDependency(what: string, hint: string, env: NodeJS.ProcessEnv = process.env): void {
  if (dependenciesRequired(env)) {
    it(`needs ${what}`, () => {
      throw new Error(`${what} is missing (${hint}); CI=1 and RUN_FAULT_TESTS=1 require it.`);
    });
  } else {
    it.skip(`skipped: needs ${what} (${hint})`, () => {});
  }
}
