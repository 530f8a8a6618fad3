// The scan option "Spread results out" in the scan settings. It is off at first, reached with
// Tab and switched with Space, sent with the scan, remembered with the other settings across a reload, and
// fits a phone's width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { axeViolations } from './axe.js';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  POLL,
  registerViaApi,
  startServer,
  type ApiSession,
  type TestServer,
} from './harness.js';

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer({ PLACE_PROVIDERS: 'demo' });
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
});
afterAll(async () => {
  await server?.close();
});

const DESCRIPTION = 'Among similar scores, skip businesses within 0.25 mile of a higher-ranked one';
const spreadSwitch = (page: Page) => page.getByRole('switch', { name: 'Spread results out' });
/** The switch's thumb slides: a screenshot waits until no transition is running. */
const settled = (page: Page) => page.waitForFunction(() => document.getAnimations().length === 0);
const isScan = (r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/scans';

/** Clicks Scan Area and answers what the scan request asked for. */
async function scanBody(page: Page): Promise<Record<string, unknown>> {
  const sent = page.waitForRequest(isScan);
  const answered = page.waitForResponse((r) => isScan(r.request()));
  await page.getByTestId('scan-button').click();
  const body = (await sent).postDataJSON() as Record<string, unknown>;
  expect((await answered).status()).toBe(200);
  await page.getByTestId('scan-button').getByText('Scan Area').waitFor();
  return body;
}

describe('scan option "Spread results out"', () => {
  it('is off at first, keyboard-operable, sent with the scan and remembered', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Sid Spread', email: 'sid@example.com', password: 'sid-pass-123' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      const control = spreadSwitch(page);
      await control.waitFor({ state: 'attached' });
      expect(await control.isChecked()).toBe(false);
      await page.getByText(DESCRIPTION).waitFor();
      // Its description is tied to it for screen readers.
      expect(await control.getAttribute('aria-describedby')).toBeTruthy();
      expect(await page.locator(`#${await control.getAttribute('aria-describedby')}`).textContent()).toBe(
        DESCRIPTION,
      );

      // Off, the scan says so.
      expect(await scanBody(page)).toMatchObject({ spreadOut: false });

      // From the last category checkbox, Tab reaches the switch and Space turns it on.
      const categories = page.locator('fieldset.plain-fieldset input[type="checkbox"]');
      await categories.last().focus();
      await page.keyboard.press('Tab');
      expect(await control.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Space');
      expect(await control.isChecked()).toBe(true);
      await settled(page);
      await keepScreenshot(page, 'spread-controls-1440');
      expect(await scanBody(page)).toMatchObject({ spreadOut: true });

      // Remembered with the other settings: saved for the user, and still on after a reload.
      await expect
        .poll(async () => {
          const me = (await (await page.request.get(`${server.baseUrl}/api/me`)).json()) as {
            user: { searchSettings: { spreadOut?: boolean } | null };
          };
          return me.user.searchSettings?.spreadOut;
        }, POLL)
        .toBe(true);
      await page.reload();
      await spreadSwitch(page).waitFor({ state: 'attached' });
      expect(await spreadSwitch(page).isChecked()).toBe(true);

      // Space again turns it off, and the next scan says so.
      await spreadSwitch(page).focus();
      await page.keyboard.press('Space');
      expect(await spreadSwitch(page).isChecked()).toBe(false);
      expect(await scanBody(page)).toMatchObject({ spreadOut: false });
      expect(await axeViolations(page)).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('fits a phone', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Pia Phone', email: 'pia@example.com', password: 'pia-pass-123' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      const control = spreadSwitch(page);
      await control.waitFor({ state: 'attached' });
      await page.getByText(DESCRIPTION).scrollIntoViewIfNeeded();
      await page.getByTestId('scan-button').scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // The description wraps inside the card instead of running off the screen.
      const box = await page.getByText(DESCRIPTION).boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
      await control.tap();
      expect(await control.isChecked()).toBe(true);
      await settled(page);
      await keepScreenshot(page, 'spread-controls-375');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
