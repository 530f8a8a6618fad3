// Every control labelled, keyboard reachable. axe-core checks the sign-in screen and the main
// screen with results (cards, map, the info card, tabs, dialogs, the install prompt) at phone and desk widths;
// the scan runs from the keyboard.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { describeWithOsm, osmExtract } from '../helpers/osm-data.js';
import {
  firstAccount,
  openBrowser,
  registerViaApi,
  startServer,
  type ApiSession,
  type TestServer,
} from './harness.js';

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  await importOsmFile(server.db, osmExtract('sf-downtown.osm.pbf'));
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
});
afterAll(async () => {
  await server?.close();
});

describeWithOsm('sf-downtown.osm.pbf', 'accessibility', () => {
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
      expect(await axeViolations(page)).toEqual([]);

      // Something in Saved and in Log, so their cards and entries (Remove, Delete) are checked too.
      const cards = page.getByTestId('prospect-card');
      await cards.nth(0).getByLabel('Status').selectOption('Save for Later');
      await cards.nth(0).getByRole('button', { name: 'Log', exact: true }).click();
      await cards.nth(1).getByLabel('Status').selectOption('Called');
      await cards.nth(1).getByRole('button', { name: 'Log', exact: true }).click();
      await expect.poll(() => page.getByRole('tab', { name: /^Log/ }).textContent()).toContain('1');
      await expect.poll(() => page.getByRole('tab', { name: /^Saved/ }).textContent()).toContain('1');
      for (const tab of ['Saved', 'Log']) {
        await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
        expect(await axeViolations(page)).toEqual([]);
      }
      await page.getByRole('button', { name: 'Help' }).click();
      await page.getByRole('dialog', { name: 'Welcome to Prospect Finder' }).waitFor();
      // The modal fades in over the page (now above the map and the header); contrast is measured once it is
      // fully opaque.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.mantine-Modal-content, .mantine-Modal-overlay')].every(
          (el) => getComputedStyle(el).opacity === '1',
        ),
      );
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('has no serious axe violations on a phone: install prompt, results, info card', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Pia Phone', email: 'pia@example.com', password: 'pia-pass-123' },
        { inviter: owner, quiet: false },
      );
      expect(
        (await page.request.patch(`${server.baseUrl}/api/me`, { data: { hideInstructions: true } })).ok(),
      ).toBe(true);
      await page.goto(server.baseUrl);
      const install = page.getByRole('dialog', { name: 'Install Prospect Finder' });
      await install.waitFor({ timeout: 10_000 });
      await page.waitForTimeout(300); // the modal's opening transition
      expect(await axeViolations(page)).toEqual([]);
      await install.getByRole('button', { name: 'Not Now' }).tap();
      await install.waitFor({ state: 'detached' });

      await page.getByLabel('Address').fill('94108');
      await page.getByRole('button', { name: 'Set Address' }).tap();
      await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
      await page.getByTestId('scan-button').tap();
      await expect.poll(() => page.getByTestId('prospect-card').count(), { timeout: 20_000 }).toBe(20);
      expect(await axeViolations(page)).toEqual([]);

      await page
        .getByTestId('prospect-card')
        .first()
        .getByRole('button', { name: /^Number 1: show / })
        .tap();
      await page.getByTestId('info-card').waitFor();
      await page.waitForFunction(
        () => getComputedStyle(document.querySelector('.leaflet-popup')!).opacity === '1',
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
