import { describe, expect, it } from 'vitest';
import { dependenciesRequired } from '../helpers/dependencies.js';

describe('suites that need Redis or nginx', () => {
  it('fail instead of skipping in CI (CI=1 or true, or RUN_FAULT_TESTS=1)', () => {
    expect(dependenciesRequired({ CI: '1' })).toBe(true);
    expect(dependenciesRequired({ CI: 'true' })).toBe(true);
    expect(dependenciesRequired({ RUN_FAULT_TESTS: '1' })).toBe(true);
  });

  it('skip on a developer machine', () => {
    expect(dependenciesRequired({})).toBe(false);
    expect(dependenciesRequired({ CI: '' })).toBe(false);
    expect(dependenciesRequired({ CI: 'false', RUN_FAULT_TESTS: '0' })).toBe(false);
  });
});
