// Issue 4 item 12: every control labelled, keyboard reachable. axe-core checks the sign-in screen and the main
// screen with results (cards, map, tabs, dialogs) at phone and desk widths; the scan runs from the keyboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import {
  firstAccount,
  openBrowser,
  registerViaApi,
  startServer,
  type ApiSession,
  type TestServer,
} from './harness.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  await importOsmFile(server.db, '/work/shared/data/osm/sf-downtown.osm.pbf');
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
});
afterAll(async () => {
  await server?.close();
});

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe-core's WCAG 2 A/AA rules on the page as it is; violations of impact serious or critical. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's Content-Security-Policy does not stand in the way.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] },
    });
    return result.violations;
  });
  return (violations as Violation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.help}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

describe('accessibility', () => {
  it('has no serious axe violations on the sign-in and registration screens', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      await b.page.goto(server.baseUrl);
      await b.page.getByRole('heading', { name: 'Sign In' }).waitFor();
      expect(await axeViolations(b.page)).toEqual([]);
      await b.page.getByRole('button', { name: 'Create Account' }).click();
      await b.page.getByRole('heading', { name: 'Create Account' }).waitFor();
      expect(await axeViolations(b.page)).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('scans from the keyboard and has no serious axe violations on the main screen', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Kim Keys', email: 'kim@example.com', password: 'kim-pass-123' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      await page.getByRole('button', { name: 'Use GPS' }).waitFor();

      // Keyboard only: the address field, Enter to set it, Tab to Scan Area, Enter to scan.
      await page.getByLabel('Address').focus();
      await page.keyboard.type('94108');
      await page.keyboard.press('Enter');
      await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
      let guard = 0;
      while (!(await page.getByTestId('scan-button').evaluate((e) => e === document.activeElement))) {
        await page.keyboard.press('Tab');
        if (++guard > 60) throw new Error('Scan Area is not reachable with Tab');
      }
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('prospect-card').count(), { timeout: 20_000 }).toBe(20);
      expect(await axeViolations(page)).toEqual([]);

      // The first marker opens its info card from the keyboard.
      await page.locator('.leaflet-marker-icon.prospect-marker').first().focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('info-card').waitFor();
      // Leaflet fades the popup in; contrast is measured once it is fully opaque.
      await page.waitForFunction(
        () => getComputedStyle(document.querySelector('.leaflet-popup')!).opacity === '1',
      );

      for (const tab of ['Saved', 'Log']) {
        await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
        expect(await axeViolations(page)).toEqual([]);
      }
      await page.getByRole('button', { name: 'Help' }).click();
      await page.getByRole('dialog', { name: 'Welcome to Prospect Finder' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
