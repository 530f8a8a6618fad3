// The field day goes on offline. With the network cut (context.setOffline), a reload shows Saved and
// the Log from the device; a call (with a follow-up) and a save made offline wait in the outbox, survive a
// reload, and reach the server exactly once when the network returns, also when the first replay's answer is
// lost on the way back. A replay the server refuses (the save limit of 30 reached meanwhile) is shown with its
// reason until dismissed. Screenshots of the offline banner and the refused write at 375x812 and 1440x900.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  keepScreenshot,
  openBrowser,
  POLL,
  registerViaApi,
  startServer,
  type TestBrowser,
  type TestServer,
} from './harness.js';
import { business, cachedState, card, serviceWorkerReady, SLOW, tab } from './offline-helpers.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server?.close();
});

async function rows(
  table: 'call_logs' | 'saved_prospects' | 'follow_ups',
  userId: string,
  prospectId: string,
) {
  return server.db.kysely
    .selectFrom(table)
    .selectAll()
    .where('user_id', '=', userId)
    .where('prospect_id', '=', prospectId)
    .execute();
}

async function signedInRep(viewport: { width: number; height: number }, email: string) {
  const rep = await openBrowser(server.baseUrl, viewport, { serviceWorkers: 'allow' });
  const { id } = await registerViaApi(server, rep, {
    name: 'Olive Offline',
    email,
    password: 'olive-pass-123',
  });
  return { rep, id };
}

async function logFromCard(page: Page, name: string, outcome: string, note?: string) {
  const c = card(page, name);
  await c.getByLabel('Status').selectOption(outcome);
  if (note) await c.getByLabel('Note').fill(note);
  await c.getByRole('button', { name: 'Log', exact: true }).click();
}

describe('offline', () => {
  it('reads Saved and the Log offline, queues a call, a follow-up and a save, and sends each exactly once', async () => {
    const { rep, id } = await signedInRep({ width: 375, height: 812 }, 'olive@example.com');
    let browser: TestBrowser | null = rep;
    try {
      const page = rep.page;
      // Online: something saved and logged already, and a scan's results to work from.
      expect(
        (
          await page.request.post(`${server.baseUrl}/api/saved`, {
            data: { prospect: business('p-saved', 'Corner Bakery') },
          })
        ).status(),
      ).toBe(201);
      const logged = await page.request.post(`${server.baseUrl}/api/call-logs`, {
        data: { prospectId: 'p-saved', name: 'Corner Bakery', outcome: 'Called', note: 'first visit' },
      });
      expect(logged.status()).toBe(201);
      await page.goto(server.baseUrl);
      await serviceWorkerReady(page);
      await page.getByTestId('scan-button').click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), SLOW).toBeGreaterThan(2);
      const target = (await page.getByTestId('prospect-name').nth(1).textContent()) ?? '';
      expect(target).not.toBe('');
      await expect.poll(() => tab(page, 'Saved').innerText(), POLL).toMatch(/Saved\s*1/);
      await expect.poll(() => tab(page, 'Log').innerText(), POLL).toMatch(/Log\s*1/);
      // The scan's list (with the business to save), Saved and the Log are on the device.
      await expect
        .poll(async () => {
          const cached = await cachedState(page, id);
          return ['"callLogs"', '"saved"', JSON.stringify(target)].every((part) => cached.includes(part));
        }, SLOW)
        .toBe(true);

      // Offline: the reload comes from the service worker and the device.
      await rep.context.setOffline(true);
      await page.reload();
      await page.getByTestId('offline-banner').waitFor();
      expect(await page.getByTestId('offline-waiting').innerText()).toBe('Nothing waiting to send.');
      // Read from the device once its outbox is open.
      await expect
        .poll(() => page.getByTestId('offline-last-synced').innerText(), POLL)
        .toMatch(/^Last synced /);
      // Network-only actions are disabled with the reason.
      expect(await page.getByTestId('scan-button').isDisabled()).toBe(true);
      await page.getByTestId('scan-offline').waitFor();
      await page.getByTestId('quick-search-offline').waitFor();
      await tab(page, 'Saved').click();
      await card(page, 'Corner Bakery').waitFor();
      await tab(page, 'Log').click();
      await page.getByTestId('log-entry').filter({ hasText: 'Corner Bakery' }).waitFor();

      // A call with a follow-up from the Saved card, and a save from the scan's list, offline.
      await tab(page, 'Saved').click();
      const saved = card(page, 'Corner Bakery');
      await saved.getByLabel('Status').selectOption('Called');
      await saved.getByRole('button', { name: 'Tomorrow' }).click();
      await saved.getByLabel('Note').fill('called from the dead zone');
      await saved.getByRole('button', { name: 'Log', exact: true }).click();
      await tab(page, 'Prospects').click();
      await logFromCard(page, target, 'Save for Later');
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^2 changes waiting/);
      // Optimistic: they show at once in the Log, Today and Saved.
      await expect.poll(() => tab(page, 'Log').innerText(), POLL).toMatch(/Log\s*2/);
      await expect.poll(() => tab(page, 'Saved').innerText(), POLL).toMatch(/Saved\s*2/);
      await tab(page, 'Today').click();
      await page.getByTestId('follow-up').filter({ hasText: 'Corner Bakery' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      const banner375 = await keepScreenshot(page, 'offline-banner-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      const banner1440 = await keepScreenshot(page, 'offline-banner-1440');
      await page.setViewportSize({ width: 375, height: 812 });
      expect(banner375 && banner1440).toBeTruthy();

      // Reloaded before the network returns: the queue and what it shows are still there.
      await page.reload();
      await page.getByTestId('offline-banner').waitFor();
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^2 changes waiting/);
      await expect.poll(() => tab(page, 'Log').innerText(), POLL).toMatch(/Log\s*2/);
      expect(await rows('call_logs', id, 'p-saved')).toHaveLength(1);

      // The first replay of the call reaches the server but its answer is lost on the way back. Routed on the
      // context, which sees the service worker's requests too: its Background Sync may replay the queue first.
      let lost = 0;
      await rep.context.route('**/api/call-logs', async (route) => {
        if (route.request().method() !== 'POST' || lost > 0) return route.fallback();
        lost += 1;
        await route.fetch(); // the server applies it...
        await route.abort('connectionreset'); // ...and the phone never hears back
      });
      await rep.context.setOffline(false);
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await expect.poll(() => lost, SLOW).toBe(1);
      // The outbox keeps the call; it goes again (same Idempotency-Key) on the next round.
      await expect.poll(() => rows('call_logs', id, 'p-saved').then((r) => r.length), SLOW).toBe(2);
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await expect.poll(() => page.getByTestId('offline-status').count(), SLOW).toBe(0);

      // Exactly once each on the server.
      const calls = await rows('call_logs', id, 'p-saved');
      expect(calls).toHaveLength(2);
      expect(calls.filter((c) => c.note === 'called from the dead zone')).toHaveLength(1);
      expect(await rows('follow_ups', id, 'p-saved')).toHaveLength(1);
      const savedRows = await server.db.kysely
        .selectFrom('saved_prospects')
        .select(['prospect_id', 'prospect'])
        .where('user_id', '=', id)
        .execute();
      expect(savedRows).toHaveLength(2);
      expect(savedRows.filter((r) => r.prospect.includes(JSON.stringify(target)))).toHaveLength(1);
      await expect.poll(() => tab(page, 'Log').innerText(), SLOW).toMatch(/Log\s*2/);
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await browser?.close();
      browser = null;
    }
  });

  it('shows a replay the server refuses (save limit reached meanwhile) with its reason until dismissed', async () => {
    const { rep, id } = await signedInRep({ width: 1440, height: 900 }, 'rex@example.com');
    try {
      const page = rep.page;
      for (let i = 0; i < 29; i++) {
        const res = await page.request.post(`${server.baseUrl}/api/saved`, {
          data: { prospect: business(`p-${i}`, `Shop ${i}`) },
        });
        expect(res.status()).toBe(201);
      }
      await page.goto(server.baseUrl);
      await serviceWorkerReady(page);
      await page.getByTestId('scan-button').click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), SLOW).toBeGreaterThan(2);
      const target = (await page.getByTestId('prospect-name').first().textContent()) ?? '';
      await expect.poll(() => tab(page, 'Saved').innerText(), POLL).toMatch(/Saved\s*29/);

      await rep.context.setOffline(true);
      await logFromCard(page, target, 'Save for Later');
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^1 change waiting/);
      // Meanwhile the rep saves one more from another device: the limit of 30 is reached.
      const other = await fetch(`${server.baseUrl}/api/saved`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: server.baseUrl,
          cookie: (await rep.context.cookies(server.baseUrl)).map((c) => `${c.name}=${c.value}`).join('; '),
        },
        body: JSON.stringify({ prospect: business('p-other-device', 'Other Device Shop') }),
      });
      expect(other.status).toBe(201);

      await rep.context.setOffline(false);
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      const refused = page.getByTestId('refused-write');
      await refused.waitFor({ timeout: SLOW.timeout });
      expect(await refused.getByTestId('refused-reason').innerText()).toBe(
        'You can only save up to 30 prospects',
      );
      expect(await refused.innerText()).toContain(target);
      // 30 saved (the other device's among them), the refused one not.
      const all = await server.db.kysely
        .selectFrom('saved_prospects')
        .select('prospect')
        .where('user_id', '=', id)
        .execute();
      expect(all).toHaveLength(30);
      expect(all.filter((r) => r.prospect.includes(JSON.stringify(target)))).toHaveLength(0);
      expect(await rows('saved_prospects', id, 'p-other-device')).toHaveLength(1);
      await page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(page, 'offline-refused-1440');
      await page.setViewportSize({ width: 375, height: 812 });
      await keepScreenshot(page, 'offline-refused-375');

      // Kept across a reload until the rep dismisses it.
      await page.reload();
      await refused.waitFor({ timeout: SLOW.timeout });
      await refused.getByRole('button', { name: /^Dismiss/ }).click();
      await expect.poll(() => page.getByTestId('refused-write').count(), POLL).toBe(0);
      await page.reload();
      await page.getByTestId('scan-button').waitFor();
      expect(await page.getByTestId('refused-write').count()).toBe(0);
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await rep.close();
    }
  });
});
