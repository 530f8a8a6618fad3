// Whether a missing outside piece (a program, an extract) fails the run instead of skipping its suite: in CI
// (CI=1 or true, or RUN_FAULT_TESTS=1, both set by .ci/run). No vitest import, so vitest.config.ts can use it.

export function dependenciesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ['1', 'true', 'yes'].includes(ci) || env.RUN_FAULT_TESTS === '1';
}
