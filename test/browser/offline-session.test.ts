// Offline: the session edges and the rest of the offline writes. One device (one Chromium profile) shared by
// two reps: rep A's queue waits through an ended session while rep B signs in, works and signs out
// (discarding only B's own queue), and is sent as A, once, when A signs in again; signing out online sends
// the queue first. Marking an advertiser, changing a pipeline stage and marking a follow-up done that is
// itself still queued work offline and each reach the server once; a business's details opened online show
// offline.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Prospect } from '../../src/core/types.js';
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

const signInHeading = (page: Page) => page.getByRole('heading', { name: 'Sign In' });

/** The writes waiting in a rep's outbox on this device, as their notes/labels (null: no database). */
async function queuedLabels(page: Page, userId: string): Promise<string[] | null> {
  return page.evaluate(async (id) => {
    const name = `prospect-finder-offline-${id}`;
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null;
    return new Promise<string[] | null>((resolve) => {
      const open = indexedDB.open(name);
      open.onerror = () => resolve(null);
      open.onsuccess = () => {
        const db = open.result;
        const all = db.transaction('outbox').objectStore('outbox').getAll();
        all.onsuccess = () => {
          resolve((all.result as { label: string }[]).map((w) => w.label));
          db.close();
        };
        all.onerror = () => resolve(null);
      };
    });
  }, userId);
}

const callsOf = (userId: string) =>
  server.db.kysely.selectFrom('call_logs').selectAll().where('user_id', '=', userId).execute();
const callsWithNote = (note: string) =>
  server.db.kysely.selectFrom('call_logs').selectAll().where('note', '=', note).execute();

async function logOnSavedCard(page: Page, name: string, note: string) {
  await tab(page, 'Saved').click();
  const c = card(page, name);
  await c.getByLabel('Status').selectOption('Called');
  await c.getByLabel('Note').fill(note);
  await c.getByRole('button', { name: 'Log', exact: true }).click();
}

async function signIn(page: Page, email: string, password: string) {
  await signInHeading(page).waitFor({ timeout: SLOW.timeout });
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByTestId('scan-button').waitFor({ timeout: SLOW.timeout });
}

async function goOnline(browser: TestBrowser) {
  await browser.context.setOffline(false);
  await browser.page.evaluate(() => window.dispatchEvent(new Event('online')));
}

describe('offline sessions', () => {
  it("never sends rep A's queue as rep B; B's discard leaves A's; A's goes as A once; sign-out sends first", async () => {
    const device = await openBrowser(
      server.baseUrl,
      { width: 375, height: 812 },
      { serviceWorkers: 'allow' },
    );
    try {
      const page = device.page;
      const ann = { name: 'Ann Offline', email: 'ann@example.com', password: 'ann-pass-1234' };
      const ben = { name: 'Ben Samephone', email: 'ben@example.com', password: 'ben-pass-1234' };
      // Ben is invited by Ann and registers elsewhere; this phone is Ann's first.
      const { id: annId } = await registerViaApi(server, device, ann);
      const invite = await page.request.post(`${server.baseUrl}/api/invitations`, { data: {} });
      const code = ((await invite.json()) as { invitation: { code: string } }).invitation.code;
      const elsewhere = await openBrowser(server.baseUrl);
      let benId = '';
      try {
        const reg = await elsewhere.page.request.post(`${server.baseUrl}/api/register`, {
          data: { ...ben, confirmPassword: ben.password, invitationCode: code },
        });
        expect(reg.status()).toBe(201);
        await elsewhere.page.request.patch(`${server.baseUrl}/api/me`, {
          data: { hideInstructions: true, installPromptDismissed: true },
        });
        for (const [id, name] of [
          ['p-ben', 'Ben Bakery'],
          ['p-ben-2', 'Ben Second Bakery'],
        ] as const)
          expect(
            (
              await elsewhere.page.request.post(`${server.baseUrl}/api/saved`, {
                data: { prospect: business(id, name) },
              })
            ).status(),
          ).toBe(201);
        benId = (
          (await (await elsewhere.page.request.get(`${server.baseUrl}/api/me`)).json()) as {
            user: { id: string };
          }
        ).user.id;
      } finally {
        await elsewhere.close();
      }
      for (const [id, name] of [
        ['p-ann', 'Ann Bakery'],
        ['p-ann-2', 'Ann Second Bakery'],
      ] as const)
        expect(
          (
            await page.request.post(`${server.baseUrl}/api/saved`, { data: { prospect: business(id, name) } })
          ).status(),
        ).toBe(201);

      await page.goto(server.baseUrl);
      await serviceWorkerReady(page);
      await expect.poll(() => tab(page, 'Saved').innerText(), POLL).toMatch(/Saved\s*2/);

      // Ann logs a call offline; while she is away her session ends (expired on the server).
      await device.context.setOffline(true);
      await logOnSavedCard(page, 'Ann Bakery', 'ann from the dead zone');
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^1 change waiting/);
      await server.db.kysely.deleteFrom('session').where('userId', '=', annId).execute();
      await goOnline(device);
      // The replay meets a 401: kept for Ann, nothing written.
      await page.reload();
      await signInHeading(page).waitFor({ timeout: SLOW.timeout });
      expect(await queuedLabels(page, annId)).toEqual(['Called Ann Bakery']);
      expect(await callsWithNote('ann from the dead zone')).toHaveLength(0);

      // Ben signs in on the same phone: Ann's call is never sent with his session.
      await signIn(page, ben.email, ben.password);
      await expect.poll(() => tab(page, 'Saved').innerText(), POLL).toMatch(/Saved\s*2/);
      await page.waitForTimeout(1500);
      expect(await callsOf(benId)).toHaveLength(0);
      expect(await callsWithNote('ann from the dead zone')).toHaveLength(0);

      // Ben queues a call, cannot reach the server, and signs out: the dialog asks first.
      await device.context.setOffline(true);
      await logOnSavedCard(page, 'Ben Bakery', 'ben discards this');
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^1 change waiting/);
      // Cut at the browser, so the service worker's Background Sync cannot reach the server either.
      await device.context.route('**/api/call-logs', (route) =>
        route.request().method() === 'POST' ? route.abort('connectionrefused') : route.fallback(),
      );
      await goOnline(device);
      await page.getByRole('button', { name: 'Logout' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(/1 change has not reached the server yet/).waitFor();
      await page.waitForTimeout(500); // the modal's fade-in, for the screenshots
      await keepScreenshot(page, 'offline-sign-out-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      await keepScreenshot(page, 'offline-sign-out-1440');
      await page.setViewportSize({ width: 375, height: 812 });
      // Cancel: still signed in, the call still waits.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(0);
      expect(await queuedLabels(page, benId)).toEqual(['Called Ben Bakery']);
      expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
      // Discard and sign out: Ben's queue goes, Ann's stays.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Discard and sign out' }).click();
      await signInHeading(page).waitFor({ timeout: SLOW.timeout });
      expect(await queuedLabels(page, benId)).toBeNull();
      expect(await queuedLabels(page, annId)).toEqual(['Called Ann Bakery']);
      await device.context.unroute('**/api/call-logs');
      expect(await callsOf(benId)).toHaveLength(0);

      // Ann signs in again: her call is sent, as Ann, once.
      await signIn(page, ann.email, ann.password);
      await expect.poll(async () => (await callsWithNote('ann from the dead zone')).length, SLOW).toBe(1);
      expect((await callsWithNote('ann from the dead zone'))[0]?.user_id).toBe(annId);
      await expect.poll(() => queuedLabels(page, annId), SLOW).toEqual([]);
      await page.waitForTimeout(1000);
      expect(await callsWithNote('ann from the dead zone')).toHaveLength(1);
      expect(await callsOf(benId)).toHaveLength(0);

      // Signing out online sends what waits first (the server answers slowly), then ends the session.
      await device.context.setOffline(true);
      await logOnSavedCard(page, 'Ann Second Bakery', 'sent before sign-out');
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^1 change waiting/);
      const order: string[] = [];
      await device.context.route('**/api/call-logs', async (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        await new Promise((r) => setTimeout(r, 1500));
        const response = await route.fetch();
        order.push(`call ${response.status()}`);
        await route.fulfill({ response });
      });
      await device.context.route('**/api/session', async (route) => {
        if (route.request().method() === 'DELETE') order.push('sign-out');
        await route.fallback();
      });
      await device.context.setOffline(false);
      await page.getByRole('button', { name: 'Logout' }).click();
      await signInHeading(page).waitFor({ timeout: SLOW.timeout });
      // Sent before the session ended (by the page, and maybe by the worker's Background Sync as well: once).
      expect(order.at(-1)).toBe('sign-out');
      expect(order.slice(0, -1).length).toBeGreaterThan(0);
      expect(new Set(order.slice(0, -1))).toEqual(new Set(['call 201']));
      expect(await callsWithNote('sent before sign-out')).toHaveLength(1);
      expect(await queuedLabels(page, annId)).toBeNull();
      expect(device.pageErrors).toEqual([]);
    } finally {
      await device.close();
    }
  });

  it('marks an advertiser, sets a stage and completes a still-queued follow-up offline; details opened online show offline', async () => {
    const rep = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { serviceWorkers: 'allow' });
    try {
      const page = rep.page;
      const { id } = await registerViaApi(server, rep, {
        name: 'Olive Offline',
        email: 'olive@example.com',
        password: 'olive-pass-123',
      });
      expect(
        (
          await page.request.post(`${server.baseUrl}/api/saved`, {
            data: { prospect: business('p-saved', 'Corner Bakery') },
          })
        ).status(),
      ).toBe(201);
      // The scan's results come without websites, so Website asks the server for the business's details.
      await rep.context.route('**/api/scans', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { prospects: Prospect[] };
        for (const p of body.prospects) delete p.website;
        await route.fulfill({ response, json: body });
      });
      await page.goto(server.baseUrl);
      await serviceWorkerReady(page);
      await page.getByTestId('scan-button').click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), SLOW).toBeGreaterThan(3);
      const names = await page.getByTestId('prospect-name').allTextContents();
      const [toMark, toStage, withDetails, without] = names as [string, string, string, string];
      const siteOf = (name: string) => card(page, name).getByRole('link', { name: `Website of ${name}` });
      expect(await siteOf(withDetails).count()).toBe(0);
      const [opened] = await Promise.all([
        rep.context.waitForEvent('page'),
        card(page, withDetails)
          .getByRole('button', { name: `Website of ${withDetails}` })
          .click(),
      ]);
      await expect.poll(() => siteOf(withDetails).getAttribute('href'), SLOW).toMatch(/^https:\/\//);
      await opened.close();
      const site = await siteOf(withDetails).getAttribute('href');
      // Kept on the device with the other lists.
      await expect
        .poll(() => cachedState(page, id).then((c) => c.includes('"placeDetails"')), SLOW)
        .toBe(true);

      await rep.context.setOffline(true);
      await page.reload();
      await page.getByTestId('offline-banner').waitFor();
      await card(page, withDetails).waitFor();
      // The details opened online are there offline; a business never opened has none.
      expect(await siteOf(withDetails).getAttribute('href')).toBe(site);
      expect(await siteOf(without).count()).toBe(0);

      // Mark an advertiser and claim a business at a stage, offline.
      await card(page, toMark).getByRole('button', { name: 'Mark as current advertiser' }).click();
      await card(page, toMark).getByTestId('advertiser-banner').waitFor();
      await card(page, toStage).getByLabel(`Pipeline stage of ${toStage}`).selectOption('Meeting set');
      await expect
        .poll(() => card(page, toStage).getByTestId('pipeline-line').innerText(), POLL)
        .toMatch(/Meeting set/);
      // A call with a follow-up, and that follow-up marked done while both still wait.
      await tab(page, 'Saved').click();
      const saved = card(page, 'Corner Bakery');
      await saved.getByLabel('Status').selectOption('Called');
      await saved.getByRole('button', { name: 'Tomorrow' }).click();
      await saved.getByRole('button', { name: 'Log', exact: true }).click();
      await tab(page, 'Today').click();
      const followUp = page.getByTestId('follow-up').filter({ hasText: 'Corner Bakery' });
      await followUp.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => followUp.count(), POLL).toBe(0);
      // Said honestly: kept on the device, not done on the server yet.
      await page.getByText('Saved on this device: it is sent when you are back online.').first().waitFor();
      expect(await page.getByText('Done: Corner Bakery.').count()).toBe(0);
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^4 changes waiting/);
      await page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(page, 'offline-more-writes-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      await tab(page, 'Prospects').click();
      await keepScreenshot(page, 'offline-more-writes-1440');

      await goOnline(rep);
      await expect.poll(() => page.getByTestId('offline-status').count(), SLOW).toBe(0);
      // Each once, as this rep, and nothing refused.
      const marks = await server.db.kysely.selectFrom('current_advertisers').selectAll().execute();
      expect(marks.map((m) => [m.label, m.marked_by])).toEqual([[toMark, id]]);
      const claims = await server.db.kysely
        .selectFrom('pipeline')
        .selectAll()
        .where('label', '=', toStage)
        .execute();
      expect(claims.map((c) => [c.stage, c.owner_id])).toEqual([['Meeting set', id]]);
      const moves = await server.db.kysely
        .selectFrom('pipeline_history')
        .selectAll()
        .where('business_id', '=', claims[0]!.business_id)
        .execute();
      expect(moves).toHaveLength(1);
      expect(await callsOf(id)).toHaveLength(1);
      const followUps = await server.db.kysely
        .selectFrom('follow_ups')
        .selectAll()
        .where('user_id', '=', id)
        .execute();
      expect(followUps).toHaveLength(1);
      expect(followUps[0]?.done_at).not.toBeNull();
      await card(page, toMark).getByTestId('advertiser-banner').waitFor();
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await rep.close();
    }
  });

  it("the service worker sends the signed-in rep's queue by Background Sync with no page of the app open", async () => {
    const rep = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { serviceWorkers: 'allow' });
    try {
      let page = rep.page;
      const person = { name: 'Sam Sync', email: 'sam@example.com', password: 'sam-pass-1234' };
      const { id } = await registerViaApi(server, rep, person);
      expect(
        (
          await page.request.post(`${server.baseUrl}/api/saved`, {
            data: { prospect: business('p-sync', 'Sync Bakery') },
          })
        ).status(),
      ).toBe(201);
      await page.goto(server.baseUrl);
      await serviceWorkerReady(page);
      await expect.poll(() => tab(page, 'Saved').innerText(), POLL).toMatch(/Saved\s*1/);
      await rep.context.setOffline(true);
      await logOnSavedCard(page, 'Sync Bakery', 'sent by the worker');
      await expect
        .poll(() => page.getByTestId('offline-waiting').innerText(), POLL)
        .toMatch(/^1 change waiting/);

      // No page of the app is open, and the session ends meanwhile. The connection returns: Chromium wakes the
      // worker with the 'outbox' sync the page registered, and the worker, signed out, sends nothing.
      await page.close();
      const blank = await rep.context.newPage();
      await server.db.kysely.deleteFrom('session').where('userId', '=', id).execute();
      await rep.context.setOffline(false);
      const cdp = await rep.context.newCDPSession(blank);
      const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event) =>
        registrations.push(...event.registrations),
      );
      await cdp.send('ServiceWorker.enable');
      await expect
        .poll(() => registrations.some((r) => r.scopeURL === `${server.baseUrl}/` && !r.isDeleted), SLOW)
        .toBe(true);
      const registrationId = registrations.find((r) => r.scopeURL === `${server.baseUrl}/`)!.registrationId;
      const sync = () =>
        cdp.send('ServiceWorker.dispatchSyncEvent', {
          origin: server.baseUrl,
          registrationId,
          tag: 'outbox',
          lastChance: false,
        });

      // Woken again (through CDP, as the browser does): still signed out, still nothing sent.
      await sync();
      await blank.waitForTimeout(2000);
      expect(await callsWithNote('sent by the worker')).toHaveLength(0);

      // Signed in again (elsewhere in this browser): the worker sends it, as this rep, once.
      const signIn = await blank.request.post(`${server.baseUrl}/api/session`, {
        data: { email: person.email, password: person.password },
        headers: { origin: server.baseUrl },
      });
      expect(signIn.status()).toBe(200);
      await sync();
      await expect.poll(async () => (await callsWithNote('sent by the worker')).length, SLOW).toBe(1);
      expect((await callsWithNote('sent by the worker'))[0]?.user_id).toBe(id);
      await sync();
      await blank.waitForTimeout(1000);
      expect(await callsWithNote('sent by the worker')).toHaveLength(1);

      // The app opened again: nothing waits, the call is in the Log.
      page = await rep.context.newPage();
      await page.goto(server.baseUrl);
      await expect.poll(() => tab(page, 'Log').innerText(), SLOW).toMatch(/Log\s*1/);
      expect(await page.getByTestId('offline-status').count()).toBe(0);
      expect(await queuedLabels(page, id)).toEqual([]);
      await cdp.detach();
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await rep.close();
    }
  });
});
