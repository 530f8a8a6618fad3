// The browser tests need Chromium. Without it (test/helpers/chromium.ts) vitest.config.ts runs only this file
// of the browser project: skipped with the reason on a developer's machine, failing in CI.
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { CHROMIUM_HINT, findChromium } from '../helpers/chromium.js';
import { missingDependency } from '../helpers/dependencies.js';

describe('Chromium for the browser tests', () => {
  const executablePath = findChromium();
  if (!executablePath) {
    missingDependency('Chromium', `${CHROMIUM_HINT}; the other browser test files are not run`);
    return;
  }
  it('is found and starts headless', async () => {
    const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    try {
      expect(browser.version()).toMatch(/^\d+\./);
    } finally {
      await browser.close();
    }
  });
});
