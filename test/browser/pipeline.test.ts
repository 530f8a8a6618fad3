// The team pipeline live across reps. Two reps scan the same area in two browser profiles;
// rep A sets "Meeting set" on a card and rep B's open screen shows "A · Meeting set · since <date>" on the
// card and in the marker's info card without a reload, with the marker drawn as taken. Screenshots of the card
// with its pipeline line at 1440x900 and 375x812.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatSince } from '../../src/core/pipeline.js';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  registerViaApi,
  startServer,
  POLL,
  type ApiSession,
  type TestServer,
} from './harness.js';
import { axeViolations } from './axe.js';

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  // No place data: the demo grid answers the same businesses for the same centre, for both reps.
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
});
afterAll(async () => {
  await server?.close();
});

const card = (page: Page, name: string) =>
  page
    .getByTestId('prospect-card')
    .filter({ has: page.getByTestId('prospect-name').getByText(name, { exact: true }) });

async function scan(page: Page) {
  await page.goto(server.baseUrl);
  await page.getByTestId('scan-button').click();
  await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBeGreaterThan(2);
}

describe('pipeline', () => {
  it("rep A's stage shows live on rep B's card and marker; the marker looks taken", async () => {
    const a = await openBrowser(server.baseUrl);
    const b = await openBrowser(server.baseUrl);
    try {
      await registerViaApi(
        server,
        a,
        { name: 'Ann Seller', email: 'ann@example.com', password: 'ann-pass-1234' },
        { inviter: owner },
      );
      await registerViaApi(
        server,
        b,
        { name: 'Bob Seller', email: 'bob@example.com', password: 'bob-pass-1234' },
        { inviter: owner },
      );
      await scan(a.page);
      await scan(b.page);

      const name = (await a.page.getByTestId('prospect-name').nth(1).textContent())!;
      expect(await card(b.page, name).getByTestId('pipeline-line').count()).toBe(0);
      // Unclaimed: both reps may set a stage to claim it.
      await card(b.page, name).getByTestId('pipeline-stage').waitFor();

      // Rep A claims it at Meeting set from the card.
      await card(a.page, name).getByLabel(`Pipeline stage of ${name}`).selectOption('Meeting set');
      const expected = `Ann Seller · Meeting set · since ${formatSince(new Date().toISOString())}`;
      await expect
        .poll(() => card(a.page, name).getByTestId('pipeline-line').textContent(), POLL)
        .toBe(expected);

      // Rep B's open screen shows it without a reload, and B gets no stage picker for A's business.
      await expect
        .poll(() => card(b.page, name).getByTestId('pipeline-line').textContent(), POLL)
        .toBe(expected);
      expect(await card(b.page, name).getByTestId('pipeline-stage').count()).toBe(0);

      // B's marker: drawn as taken, its info card carries the same line.
      await card(b.page, name)
        .getByRole('button', { name: new RegExp(`^Number \\d+: show `) })
        .click();
      const info = b.page.getByTestId('info-card').filter({ hasText: name });
      await info.getByTestId('info-pipeline').getByText(expected, { exact: true }).waitFor();
      await expect
        .poll(
          () => b.page.locator(`.leaflet-marker-icon.prospect-marker-taken[title*="${name}"]`).count(),
          POLL,
        )
        .toBeGreaterThan(0);
      await b.page.waitForFunction(
        () => getComputedStyle(document.querySelector('.leaflet-popup')!).opacity === '1',
      );
      expect(await axeViolations(b.page, '.info-card')).toEqual([]);
      await b.page.locator('.map-wrap').scrollIntoViewIfNeeded();
      await keepScreenshot(b.page, 'pipeline-marker-1440');

      await card(b.page, name).scrollIntoViewIfNeeded();
      await keepScreenshot(b.page, 'pipeline-card-1440');
      expect(await axeViolations(b.page, '[data-testid="pipeline-row"]')).toEqual([]);

      // A moves it on; B sees the new stage live. A released business loses its line on B's screen.
      await card(a.page, name).getByLabel(`Pipeline stage of ${name}`).selectOption('Proposal');
      await expect
        .poll(() => card(b.page, name).getByTestId('pipeline-line').textContent(), POLL)
        .toBe(expected.replace('Meeting set', 'Proposal'));

      // The business's history, newest first.
      await card(a.page, name).getByRole('button', { name: 'History' }).click();
      const history = card(a.page, name).getByTestId('pipeline-history').getByRole('listitem');
      await expect
        .poll(() => history.allTextContents(), POLL)
        .toEqual([
          expect.stringContaining('Ann Seller: Meeting set → Proposal') as unknown as string,
          expect.stringContaining(
            'Ann Seller: New → Meeting set (nobody → Ann Seller) — Claimed',
          ) as unknown as string,
        ]);
      await card(a.page, name).scrollIntoViewIfNeeded();
      await keepScreenshot(a.page, 'pipeline-own-card-1440');

      // A third rep on a phone sees the line on the card and in the marker's info card.
      const c = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
      try {
        await registerViaApi(
          server,
          c,
          { name: 'Cal Seller', email: 'cal@example.com', password: 'cal-pass-1234' },
          { inviter: owner },
        );
        await scan(c.page);
        const line = card(c.page, name).getByTestId('pipeline-line');
        await expect.poll(() => line.textContent(), POLL).toBe(expected.replace('Meeting set', 'Proposal'));
        await card(c.page, name).scrollIntoViewIfNeeded();
        await card(c.page, name).evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await keepScreenshot(c.page, 'pipeline-card-375');
        // One line on a phone: it does not wrap under the address.
        const lineBox = (await line.boundingBox())!;
        expect(lineBox.height).toBeLessThan(40);
        expect(c.pageErrors).toEqual([]);
      } finally {
        await c.close();
      }

      // An admin hands it to Bob from the card, then releases it; both reps' screens follow live.
      const admin = await openBrowser(server.baseUrl);
      try {
        const signIn = await admin.page.request.post(`${server.baseUrl}/api/session`, {
          data: { email: 'owner@example.com', password: 'owner-pass-1' },
        });
        expect(signIn.status()).toBe(200);
        await admin.page.request.patch(`${server.baseUrl}/api/me`, {
          data: { hideInstructions: true, installPromptDismissed: true },
        });
        await scan(admin.page);
        await card(admin.page, name).getByRole('button', { name: 'Reassign' }).click();
        await card(admin.page, name).getByLabel(`Assign ${name} to`).selectOption({ label: 'Bob Seller' });
        const bobs = expected.replace('Ann Seller', 'Bob Seller').replace('Meeting set', 'Proposal');
        await expect
          .poll(() => card(a.page, name).getByTestId('pipeline-line').textContent(), POLL)
          .toBe(bobs);
        await expect.poll(() => card(b.page, name).getByTestId('pipeline-stage').count(), POLL).toBe(1);
        expect(await card(a.page, name).getByTestId('pipeline-stage').count()).toBe(0);
        await card(admin.page, name).getByRole('button', { name: 'Release' }).click();
        await expect.poll(() => card(a.page, name).getByTestId('pipeline-line').count(), POLL).toBe(0);
        await expect.poll(() => card(b.page, name).getByTestId('pipeline-line').count(), POLL).toBe(0);
        expect(admin.pageErrors).toEqual([]);
      } finally {
        await admin.close();
      }

      // Released: Ann may claim it again, and let it go with New.
      await card(a.page, name).getByLabel(`Pipeline stage of ${name}`).selectOption('Contacted');
      await expect.poll(() => card(b.page, name).getByTestId('pipeline-line').count(), POLL).toBe(1);
      await card(a.page, name).getByLabel(`Pipeline stage of ${name}`).selectOption('New');
      await expect.poll(() => card(b.page, name).getByTestId('pipeline-line').count(), POLL).toBe(0);

      // A rep cannot claim a business at Won: the picker offers it only from Proposal.
      const picker = card(a.page, name).getByLabel(`Pipeline stage of ${name}`);
      expect(await picker.locator('option', { hasText: 'Won' }).count()).toBe(0);
      await picker.selectOption('Proposal');
      await expect.poll(() => card(b.page, name).getByTestId('pipeline-line').count(), POLL).toBe(1);
      // Won asks whether the business becomes a current advertiser; "Won only" leaves it unmarked.
      await picker.selectOption('Won');
      const ask = a.page.getByRole('dialog');
      await ask.getByText(`${name} is won. Mark it as a current advertiser too?`).waitFor();
      await ask.getByRole('button', { name: 'Won only' }).click();
      await expect
        .poll(() => card(b.page, name).getByTestId('pipeline-line').textContent(), POLL)
        .toContain('Ann Seller · Won');
      const advertisers = await a.page.request.get(`${server.baseUrl}/api/current-advertisers`);
      expect(JSON.stringify(await advertisers.json())).not.toContain(name);
      expect(a.pageErrors).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
