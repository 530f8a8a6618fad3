// The phone side of the main screen: GPS (granted and refused), finger-sized controls, a map that lets one
// finger scroll the page, Website opening inside the tap (iOS Safari blocks later popups), a session that ends
// elsewhere sends the app back to sign-in, and the installable app (manifest, icons, service worker, the
// install prompt).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Prospect } from '../../src/core/types.js';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  registerViaApi,
  startServer,
  trackApiRequests,
  type ApiSession,
  type TestServer,
  POLL,
} from './harness.js';

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
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

describe('device features', () => {
  it('uses the GPS position and names it; says so when GPS is refused', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      await registerViaApi(
        server,
        b,
        { name: 'Gil GPS', email: 'gil@example.com', password: 'gil-pass-123' },
        { inviter: owner },
      );
      const page = b.page;
      await page.goto(server.baseUrl);

      // Refused: the exact message, and the location stays.
      await page.getByRole('button', { name: 'Use GPS' }).click();
      await page
        .getByTestId('notice')
        .getByText('Could not get GPS location. Please try again or enter an address manually.')
        .waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('location-label').textContent()).toContain('Birmingham, AL');

      // Granted: the centre moves there and the reverse lookup names it.
      await b.context.grantPermissions(['geolocation'], { origin: server.baseUrl });
      await b.context.setGeolocation({ latitude: 37.7879, longitude: -122.4066 });
      await page.getByRole('button', { name: 'Use GPS' }).click();
      await page.getByTestId('location-label').getByText('San Francisco, CA').waitFor();

      // Dragging the blue 'Your Location' marker moves the centre; the label is looked up again.
      await page.getByLabel('Address').fill('10001');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('location-label').getByText('New York, NY 10001').waitFor();
      const you = page.locator('.leaflet-marker-icon[title="Your Location"]');
      await you.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      const box = (await you.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 8 });
      await page.mouse.up();
      await expect.poll(() => page.getByTestId('location-label').textContent(), POLL).not.toContain('10001');
      const saved = await expect
        .poll(
          async () =>
            (
              (await (await page.request.get(`${server.baseUrl}/api/me`)).json()) as {
                user: { searchSettings: { lat: number; label: string } | null };
              }
            ).user.searchSettings?.label ?? '',
        )
        .toMatch(/New York|NY/);
      void saved;
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('has finger-sized controls on a phone, and one finger scrolls the page past the map', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      await registerViaApi(
        server,
        b,
        { name: 'Tia Touch', email: 'tia@example.com', password: 'tia-pass-123' },
        { inviter: owner },
      );
      const page = b.page;
      await page.goto(server.baseUrl);
      const map = page.locator('.prospect-map');
      await map.waitFor();
      const you = page.locator('.leaflet-marker-icon[title="Your Location"]');
      await you.waitFor();

      // One finger on the map scrolls the page; the map itself stays where it was and says how to move it.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const mapBox = (await map.boundingBox())!;
      // Where 'Your Location' sits inside the map. Both boxes are read in one frame: after the swipe the page
      // may still be coasting, and two separate reads would straddle a scroll.
      const offset = () =>
        page.evaluate(() => {
          const m = document.querySelector('.prospect-map')!.getBoundingClientRect();
          const y = document
            .querySelector('.leaflet-marker-icon[title="Your Location"]')!
            .getBoundingClientRect();
          return { x: y.x - m.x, y: y.y - m.y };
        });
      const before = await offset();
      const scrolledBefore = await page.evaluate(() => window.scrollY);
      const cdp = await b.context.newCDPSession(page);
      const x = Math.round(mapBox.x + mapBox.width * 0.3);
      const y = Math.round(mapBox.y + 150);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
      for (let i = 1; i <= 10; i++) {
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: [{ x, y: y + i * 20 }],
        });
        await page.waitForTimeout(16);
      }
      await page.getByTestId('map-hint').getByText('Use two fingers to move the map').waitFor();
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
      await expect
        .poll(async () => scrolledBefore - (await page.evaluate(() => window.scrollY)), POLL)
        .toBeGreaterThan(100);
      // Relative to the map, 'Your Location' has not moved: the map did not pan.
      const moved = await offset();
      expect(Math.abs(moved.x - before.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(moved.y - before.y)).toBeLessThanOrEqual(1);
      await page.getByTestId('map-hint').waitFor({ state: 'detached', timeout: 5000 });

      // Touch targets of at least 40 px: header, location, quick search, scan, tabs, the picked point, the log.
      const tall = async (name: string, locator = page.getByRole('button', { name, exact: true })) => {
        await locator.scrollIntoViewIfNeeded();
        const box = (await locator.boundingBox())!;
        return [name, box.height >= 40 ? 'ok' : `${box.height}px`];
      };
      const checks = [];
      for (const name of ['New Search', 'Help', 'Logout', 'Use GPS', 'Set Address', 'Find', 'Scan Area'])
        checks.push(await tall(name));
      for (const name of ['Prospects', 'Saved', 'Log'])
        checks.push(await tall(name, page.getByRole('tab', { name: new RegExp(`^${name}`) })));
      await map.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      const box = (await map.boundingBox())!;
      await page.touchscreen.tap(box.x + box.width * 0.3, box.y + box.height * 0.3);
      await page.getByTestId('picked-point').waitFor();
      checks.push(await tall('Set as center'));
      await page.getByRole('tab', { name: /^Log/ }).tap();
      checks.push(await tall('Export to CSV'), await tall('Clear All'));
      expect(Object.fromEntries(checks)).toEqual(Object.fromEntries(checks.map(([n]) => [n, 'ok'])));
      await keepScreenshot(page, 'touch-targets-375');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('opens Website inside the tap, then goes to the site once known or closes again when there is none', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Wes Web', email: 'wes@example.com', password: 'wes-pass-123' },
        { inviter: owner },
      );
      // Records every window.open and whether it ran while the tap's click event was being handled.
      await b.context.addInitScript(() => {
        const w = window as unknown as { __opens: { url: string; inClick: boolean }[] };
        w.__opens = [];
        let inClick = false;
        window.addEventListener('click', () => (inClick = true), true);
        window.addEventListener('click', () => (inClick = false), false);
        const open = window.open.bind(window);
        window.open = (...args: Parameters<typeof window.open>) => {
          w.__opens.push({ url: String(args[0] ?? ''), inClick });
          return open(...args);
        };
      });
      // Results without websites, so Website asks the server for the details first (answered slowly).
      await b.context.route('**/api/scans', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { prospects: Prospect[] };
        for (const p of body.prospects) delete p.website;
        await route.fulfill({ response, json: body });
      });
      let details: Record<string, string> | null = null;
      await b.context.route('**/api/places/*/details', async (route) => {
        await new Promise((r) => setTimeout(r, 800));
        if (details) await route.fulfill({ json: details });
        else await route.continue();
      });
      const siteRequests: string[] = [];
      b.context.on('request', (r) => {
        if (r.url().startsWith('https://example.com/')) siteRequests.push(r.url());
      });
      await page.goto(server.baseUrl);
      await page.getByTestId('scan-button').tap();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      const opens = () =>
        page.evaluate(() => (window as unknown as { __opens: { url: string; inClick: boolean }[] }).__opens);

      // A website in the details: the tab opened in the tap goes there.
      const first = page.getByTestId('prospect-card').first();
      const name = (await first.getByTestId('prospect-name').textContent())!;
      const [tab] = await Promise.all([
        b.context.waitForEvent('page'),
        first.getByRole('button', { name: `Website of ${name}` }).tap(),
      ]);
      await expect.poll(() => siteRequests.length, POLL).toBeGreaterThan(0);
      expect(siteRequests[0]).toMatch(/^https:\/\/example\.com\/demo\//);
      expect(await opens()).toEqual([{ url: '', inClick: true }]);
      await tab.close();

      // None: the tab closes again and the exact message shows.
      details = {};
      const second = page.getByTestId('prospect-card').nth(1);
      const secondName = (await second.getByTestId('prospect-name').textContent())!;
      const [empty] = await Promise.all([
        b.context.waitForEvent('page'),
        second.getByRole('button', { name: `Website of ${secondName}` }).tap(),
      ]);
      await page.getByTestId('notice').getByText('Website not available.').waitFor();
      await expect.poll(() => empty.isClosed(), POLL).toBe(true);
      expect(await opens()).toEqual([
        { url: '', inClick: true },
        { url: '', inClick: true },
      ]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it("offers to install the app: manual steps, Not Now for the session, Install, Don't Ask Again", async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Ian Install', email: 'ian@example.com', password: 'ian-pass-123' },
        { inviter: owner, quiet: false },
      );
      expect(
        (await page.request.patch(`${server.baseUrl}/api/me`, { data: { hideInstructions: true } })).ok(),
      ).toBe(true);
      // This Chromium would offer installation itself; only the test's own offers get through, so the first
      // visit is a browser without an install prompt (as on an iPhone).
      await b.context.addInitScript(() => {
        window.addEventListener(
          'beforeinstallprompt',
          (e) => {
            if (!(e as Event & { fromTest?: boolean }).fromTest) e.stopImmediatePropagation();
          },
          true,
        );
      });
      const dialog = page.getByRole('dialog', { name: 'Install Prospect Finder' });

      // No browser prompt (as on an iPhone): after 3 s, the manual steps for iPhone, Android and desktop.
      await page.goto(server.baseUrl);
      await page.getByTestId('scan-button').waitFor();
      expect(await dialog.count()).toBe(0);
      await dialog.waitFor({ timeout: 10_000 });
      const steps = dialog.getByTestId('install-instructions');
      for (const title of ['iPhone / iPad (Safari)', 'Android (Chrome)', 'Desktop (Chrome, Edge)'])
        await steps.getByRole('heading', { name: title }).waitFor();
      expect(await dialog.getByRole('button', { name: 'Install' }).count()).toBe(0);
      await keepScreenshot(page, 'install-prompt-375');
      // Not Now: not asked again in this browser session, not even after a reload.
      await dialog.getByRole('button', { name: 'Not Now' }).tap();
      await dialog.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByTestId('scan-button').waitFor();
      await page.waitForTimeout(4000);
      expect(await dialog.count()).toBe(0);

      // A new session where the browser offers installation: at once, with Install, which runs its prompt.
      await page.evaluate(() => sessionStorage.clear());
      await page.reload();
      await page.getByTestId('scan-button').waitFor();
      await offerInstall(page, 'accepted');
      await dialog.waitFor({ timeout: 2000 });
      expect(await dialog.getByTestId('install-instructions').count()).toBe(0);
      await dialog.getByRole('button', { name: 'Install' }).tap();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => (window as unknown as { __prompted: number }).__prompted)).toBe(1);

      // Don't Ask Again: stored in the profile, so no session or browser asks this user again.
      await page.evaluate(() => sessionStorage.clear());
      await page.reload();
      await dialog.waitFor({ timeout: 10_000 });
      await dialog.getByRole('button', { name: "Don't Ask Again" }).tap();
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(
          async () =>
            (
              (await (await page.request.get(`${server.baseUrl}/api/me`)).json()) as {
                user: { installPromptDismissed: boolean };
              }
            ).user.installPromptDismissed,
          POLL,
        )
        .toBe(true);
      await page.evaluate(() => sessionStorage.clear());
      await page.reload();
      await page.getByTestId('scan-button').waitFor();
      await offerInstall(page, 'dismissed');
      await page.waitForTimeout(4000);
      expect(await dialog.count()).toBe(0);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('returns to the sign-in screen when the session ends elsewhere', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      await registerViaApi(
        server,
        b,
        { name: 'Sue Session', email: 'sue@example.com', password: 'sue-pass-123' },
        { inviter: owner },
      );
      const page = b.page;
      const api = trackApiRequests(page);
      await page.goto(server.baseUrl);
      await page.getByText('Sue Session').waitFor();
      // The page's own first loads are done, so the next request is the rep's action below.
      await api.settled();
      // The session is ended behind the page's back (as a sign-out on another tab or a suspension would).
      const out = await page.request.post(`${server.baseUrl}/api/auth/sign-out`, {
        data: {},
        headers: { origin: server.baseUrl },
      });
      expect(out.ok()).toBe(true);
      // Opening the Log loads the day's visits: the first request after the sign-out.
      await page.getByRole('tab', { name: /^Log/ }).click();
      await page.getByRole('heading', { name: 'Sign In' }).waitFor();
      expect(await page.getByText('Sue Session').count()).toBe(0);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('is installable: manifest, icons and service worker are served', async () => {
    const res = await fetch(`${server.baseUrl}/`);
    const html = await res.text();
    expect(html).toContain('rel="manifest"');
    expect(html).toContain('registerSW.js');
    const manifest = (await (await fetch(`${server.baseUrl}/manifest.webmanifest`)).json()) as {
      name: string;
      display: string;
      start_url: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Prospect Finder', display: 'standalone', start_url: '/' });
    const sizes = manifest.icons.map((i) => i.sizes);
    expect(sizes).toContain('192x192');
    expect(sizes).toContain('512x512');
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const got = await fetch(`${server.baseUrl}/${icon.src}`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toContain(icon.type.split('+')[0]);
    }
    const sw = await fetch(`${server.baseUrl}/sw.js`);
    expect(sw.status).toBe(200);
    expect(await sw.text()).toContain('precache');

    // In the browser the service worker registers under the server's Content-Security-Policy.
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { serviceWorkers: 'allow' });
    try {
      await b.page.goto(server.baseUrl);
      await b.page.getByRole('heading', { name: 'Sign In' }).waitFor();
      const scope = await b.page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      expect(scope).toBe(`${server.baseUrl}/`);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});

/** Fires the browser's install offer (Chromium's `beforeinstallprompt`) with a prompt that counts its calls. */
async function offerInstall(page: Page, outcome: 'accepted' | 'dismissed') {
  await page.evaluate((choice) => {
    const w = window as unknown as { __prompted: number };
    w.__prompted = 0;
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      fromTest: true,
      prompt: () => {
        w.__prompted += 1;
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: choice, platform: 'web' }),
    });
    window.dispatchEvent(event);
  }, outcome);
}
