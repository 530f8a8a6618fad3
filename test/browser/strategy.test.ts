// The strategy modal: with the San Francisco extract imported and no AI endpoint configured
// (the built-in playbook), open a strategy from a card, see the loading state, then the content with every
// section; copy a hook line (clipboard and feedback) and the whole strategy; reopen instantly (kept per
// business); Regenerate; a 429 backs off and still succeeds; a failed job shows the failure state.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { describeWithOsm, osmExtractPath } from '../helpers/osm-data.js';
import { SECTION_TITLES } from '../../src/core/strategy/text.js';
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
import { chatCompletion } from '../helpers/fake-ai.js';

const SF_EXTRACT = osmExtractPath('sf-downtown.osm.pbf'); // every test is inside describeWithOsm
const UNION_SQUARE = { lat: 37.788, lng: -122.4075 };

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
  await importOsmFile(server.db, SF_EXTRACT);
});
afterAll(async () => {
  await server?.close();
});

const cards = (page: Page) => page.getByTestId('prospect-card');

describeWithOsm(SF_EXTRACT, 'appointment strategy in the browser', () => {
  it('opens a strategy from a card: loading, then every section; copies a hook line and the whole strategy', async () => {
    const b = await openBrowser(server.baseUrl);
    const alerts: string[] = [];
    b.page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    try {
      const page = b.page;
      await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
      await registerViaApi(
        server,
        b,
        { name: 'Stella Rep', email: 'stella@example.com', password: 'stella-pass-1' },
        { inviter: owner },
      );
      const scan = await page.request.post(`${server.baseUrl}/api/scans`, {
        data: {
          ...UNION_SQUARE,
          radiusMiles: 1,
          count: 10,
          categories: ['healthcare', 'legal', 'car', 'service'],
          locationLabel: 'Union Square, San Francisco',
        },
      });
      expect(scan.status()).toBe(200);
      await page.goto(server.baseUrl);
      await expect.poll(() => cards(page).count()).toBeGreaterThan(2);

      // The first card with a real category (the Strategy action needs one).
      const names = await page.getByTestId('prospect-name').allTextContents();
      const first = cards(page).first();
      const name = names[0]!;

      // Hold the first poll a moment so the loading state is on screen for certain.
      let polls = 0;
      await b.context.route('**/api/strategies/jobs/*', async (route) => {
        polls++;
        if (polls === 1) await new Promise((r) => setTimeout(r, 1000));
        await route.continue();
      });
      await first.getByRole('button', { name: `Strategy for ${name}` }).click();
      const modal = page.getByRole('dialog');
      await modal.getByTestId('strategy-loading').getByText('Generating appointment strategy...').waitFor();
      await modal.getByTestId('strategy-content').waitFor({ timeout: 60_000 });
      expect(polls).toBeGreaterThanOrEqual(1);
      expect(await modal.textContent()).toContain(name);
      expect(await modal.getByTestId('strategy-source').textContent()).toContain('Built-in playbook');

      // Every section in the modal's order (docs/PRODUCT.md, "Appointment strategy"); the playbook fills all.
      const headings = await modal.getByTestId('strategy-section').locator('h4').allTextContents();
      expect(headings).toEqual(Object.values(SECTION_TITLES));
      const mix = modal.getByTestId('media-mix');
      expect(await mix.locator('th').allTextContents()).toEqual(['Channel', 'Percent', 'Why']);
      const percents = (await mix.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) =>
        Number.parseInt(t, 10),
      );
      expect(percents.length).toBeGreaterThanOrEqual(4);
      expect(percents.reduce((a, x) => a + x, 0)).toBe(100);
      await keepScreenshot(page, 'strategy-1440');
      expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

      // Copy a hook line: the clipboard holds it and the line says so.
      const hook = modal.getByTestId('hook-line').nth(1);
      const hookText = (await hook.locator('span').first().textContent()) ?? '';
      expect(hookText.length).toBeGreaterThan(10);
      await hook.click();
      await hook.getByText('Copied!').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(hookText);

      // The voicemail script copies too; the whole strategy copies as text with the section headings.
      await modal.getByTestId('copy-voicemailScript').click();
      await modal.getByTestId('copy-voicemailScript').getByText('Copied!').waitFor();
      expect((await page.evaluate(() => navigator.clipboard.readText())).length).toBeGreaterThan(20);
      await modal.getByRole('button', { name: 'Copy Strategy' }).click();
      const all = await page.evaluate(() => navigator.clipboard.readText());
      expect(all.startsWith(`Appointment strategy: ${name}\n`)).toBe(true);
      expect(all).toContain('\nHook lines\n');
      expect(all).toContain(hookText);

      // Reopening is instant: the strategy is kept for the business.
      await modal.getByRole('button', { name: 'Close', exact: true }).click();
      await modal.waitFor({ state: 'detached' });
      await page.reload();
      await cards(page)
        .first()
        .getByRole('button', { name: `Strategy for ${name}` })
        .click();
      await page.getByRole('dialog').getByTestId('strategy-content').waitFor({ timeout: 5000 });
      await page.getByRole('dialog').getByText('Kept from an earlier request.', { exact: false }).waitFor();

      // Regenerate: loading, then a new job's content; a 429 on the way backs off by retryAfterMs.
      let posts = 0;
      await b.context.route('**/api/strategies', async (route) => {
        posts++;
        if (posts === 1) {
          await route.fulfill({
            status: 429,
            contentType: 'application/json',
            body: JSON.stringify({
              error: 'AI service is busy. Please try again in a moment.',
              retryAfterMs: 300,
            }),
          });
          return;
        }
        await route.continue();
      });
      polls = 0;
      await page.getByRole('dialog').getByRole('button', { name: 'Regenerate' }).click();
      await page.getByRole('dialog').getByTestId('strategy-loading').waitFor();
      await page.getByRole('dialog').getByTestId('strategy-content').waitFor({ timeout: 60_000 });
      expect(posts).toBe(2);
      expect(polls).toBeGreaterThanOrEqual(1);
      expect(
        await page.getByRole('dialog').getByText('Kept from an earlier request.', { exact: false }).count(),
      ).toBe(0);
      await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
      await b.context.unroute('**/api/strategies');

      // A job that fails on the server: the failure state with its exact words, and Try Again recovers.
      await b.context.unroute('**/api/strategies/jobs/*');
      let failNext = true;
      await b.context.route('**/api/strategies/jobs/*', async (route) => {
        if (failNext) {
          failNext = false;
          await route.fulfill({
            status: 502,
            contentType: 'application/json',
            body: JSON.stringify({
              status: 'error',
              error: 'AI job failed on the server. Please try again.',
            }),
          });
          return;
        }
        await route.continue();
      });
      const other = names[1]!;
      await cards(page)
        .nth(1)
        .getByRole('button', { name: `Strategy for ${other}` })
        .click();
      const failed = page.getByRole('dialog').getByTestId('strategy-error');
      await failed.getByText('Failed to generate strategy. Please try again.').waitFor({ timeout: 30_000 });
      await failed.getByText('AI job failed on the server. Please try again.').waitFor();
      // And the alert for it.
      await page
        .getByTestId('notice')
        .getByText('Failed to generate appointment strategy. Please try again.')
        .waitFor();
      await failed.getByRole('button', { name: 'Try Again' }).click();
      await page.getByRole('dialog').getByTestId('strategy-content').waitFor({ timeout: 60_000 });
      expect(await page.getByRole('dialog').textContent()).toContain(other);

      expect(alerts).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('fits a 375 px phone', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Phil Phone', email: 'phil@example.com', password: 'phil-pass-1' },
        { inviter: owner },
      );
      const scan = await page.request.post(`${server.baseUrl}/api/scans`, {
        data: { ...UNION_SQUARE, radiusMiles: 1, count: 5, categories: ['healthcare'], locationLabel: 'SF' },
      });
      expect(scan.status()).toBe(200);
      await page.goto(server.baseUrl);
      const name = (await page.getByTestId('prospect-name').first().textContent()) ?? '';
      await cards(page)
        .first()
        .getByRole('button', { name: `Strategy for ${name}` })
        .click();
      await page.getByRole('dialog').getByTestId('strategy-content').waitFor({ timeout: 60_000 });
      await keepScreenshot(page, 'strategy-375');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});

// With an AI endpoint (a local server speaking the OpenAI protocol): a strategy that has only the required
// sections shows only those (a section is shown only when it is not empty), in the modal and in the copied
// text; and with "Use AI analysis" on, the open screen picks up the model-written reasoning when it arrives.
describeWithOsm(SF_EXTRACT, 'with an AI endpoint', () => {
  const MINIMAL = {
    openingLine: 'Hi, this is the local ad team calling for the owner.',
    bestTimeToCall: 'Tuesday-Thursday 9-11 AM or 2-4 PM',
    keyTalkingPoints: ['Neighbours search for you on their phones.'],
    objectionHandlers: [{ objection: 'We are busy enough.', response: 'Then let us fill the quiet weeks.' }],
    valueProposition: 'More of the right customers from nearby.',
    callToAction: 'Fifteen minutes on Thursday?',
    hookLines: [],
    mediaMix: [],
    introEmail: '',
    voicemailScript: '   ',
  };
  let ai: Server;
  let aiServer: TestServer;
  let boss: ApiSession;
  // The model's reasoning answers wait for this, so the test can open the screen first.
  let releaseReasoning!: () => void;
  const reasoningReleased = new Promise<void>((r) => (releaseReasoning = r));
  beforeAll(async () => {
    ai = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const system =
          (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages[0]?.content ?? '';
        const strategy = system.includes('appointment strategy');
        void (strategy ? Promise.resolve() : reasoningReleased).then(() => answer(strategy));
      });
      const answer = (strategy: boolean) => {
        const content = strategy
          ? JSON.stringify(MINIMAL)
          : JSON.stringify({ reasoning: 'A neighbourhood business whose customers find it online first.' });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chatCompletion(content, 'local-test-model'));
      };
    });
    await new Promise<void>((r) => ai.listen(0, '127.0.0.1', r));
    aiServer = await startServer({
      PLACE_PROVIDERS: 'demo',
      AI_BASE_URL: `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1`,
      AI_MODEL: 'local-test-model',
      AI_MAX_RETRIES: '0',
    });
    boss = await firstAccount(aiServer, {
      name: 'Ada Admin',
      email: 'ada@example.com',
      password: 'ada-pass-1',
    });
    const on = await boss.call('PATCH', '/api/admin/settings', { useLlmAnalysis: true });
    expect(on.status).toBe(200);
  });
  afterAll(async () => {
    releaseReasoning();
    await aiServer?.close();
    ai?.closeAllConnections();
    await new Promise((r) => ai?.close(r));
  });

  it('refreshes the open list with model-written reasoning, and shows only the non-empty strategy sections', async () => {
    const b = await openBrowser(aiServer.baseUrl);
    try {
      const page = b.page;
      await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: aiServer.baseUrl });
      await registerViaApi(
        aiServer,
        b,
        { name: 'Mia Rep', email: 'mia@example.com', password: 'mia-pass-1' },
        { inviter: boss },
      );
      // The scan is done and its results are on screen (listening for live updates) while the model writes.
      const scan = await page.request.post(`${aiServer.baseUrl}/api/scans`, {
        data: { ...UNION_SQUARE, radiusMiles: 1, count: 5, locationLabel: 'Union Square' },
      });
      expect(scan.status()).toBe(200);
      const stream = page.waitForResponse((r) => r.url().endsWith('/api/events'));
      await page.goto(aiServer.baseUrl);
      expect((await stream).status()).toBe(200);
      // The screen restores the latest scan a page at a time (20 by default); the model rewrites the first 5.
      await expect.poll(() => cards(page).count(), POLL).toBeGreaterThan(5);
      expect(await page.getByTestId('reasoning-model').count()).toBe(0);
      releaseReasoning();
      // The job's notice makes the screen refetch: the cards carry the model's words and its name.
      await expect.poll(() => page.getByTestId('reasoning-model').count(), POLL).toBe(5);
      expect(await page.getByTestId('reasoning-model').first().textContent()).toBe(
        'Written by local-test-model',
      );
      expect(await cards(page).first().textContent()).toContain(
        'A neighbourhood business whose customers find it online first.',
      );

      const card = cards(page).first();
      const name = (await card.getByTestId('prospect-name').textContent()) ?? '';
      await card.getByRole('button', { name: `Strategy for ${name}` }).click();
      const modal = page.getByRole('dialog');
      await modal.getByTestId('strategy-content').waitFor({ timeout: 60_000 });
      expect(await modal.getByTestId('strategy-source').textContent()).toBe('AI · local-test-model');
      const headings = await modal.getByTestId('strategy-section').locator('h4').allTextContents();
      expect(headings).toEqual([
        SECTION_TITLES.openingLine,
        SECTION_TITLES.bestTimeToCall,
        SECTION_TITLES.keyTalkingPoints,
        SECTION_TITLES.objectionHandlers,
        SECTION_TITLES.valueProposition,
        SECTION_TITLES.callToAction,
      ]);
      expect(await modal.getByTestId('hook-line').count()).toBe(0);
      expect(await modal.getByTestId('media-mix').count()).toBe(0);
      for (const key of ['introEmail', 'followUpEmail', 'voicemailScript']) {
        expect(await modal.getByTestId(`copy-${key}`).count(), key).toBe(0);
      }
      await modal.getByRole('button', { name: 'Copy Strategy' }).click();
      await modal.getByRole('button', { name: 'Copied!' }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toContain(`${SECTION_TITLES.openingLine}\n${MINIMAL.openingLine}`);
      expect(copied).toContain(`${SECTION_TITLES.callToAction}\n${MINIMAL.callToAction}`);
      for (const absent of [
        SECTION_TITLES.hookLines,
        SECTION_TITLES.competitiveAngles,
        SECTION_TITLES.verticalInsights,
        SECTION_TITLES.discoveryQuestions,
        SECTION_TITLES.mediaMix,
        SECTION_TITLES.plan30Day,
        SECTION_TITLES.introEmail,
        SECTION_TITLES.followUpEmail,
        SECTION_TITLES.voicemailScript,
      ]) {
        expect(copied).not.toContain(absent);
      }
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
