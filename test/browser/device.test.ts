// The phone side of the main screen: GPS (granted and refused), a session that ends elsewhere sends the app
// back to sign-in, and the installable app (manifest, icons, service worker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstAccount,
  openBrowser,
  registerViaApi,
  startServer,
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

      // Refused: the spec's message, and the location stays.
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
      await page.goto(server.baseUrl);
      await page.getByText('Sue Session').waitFor();
      // The session is ended behind the page's back (as a sign-out on another tab or a suspension would).
      const out = await page.request.post(`${server.baseUrl}/api/auth/sign-out`, {
        data: {},
        headers: { origin: server.baseUrl },
      });
      expect(out.ok()).toBe(true);
      await page.getByRole('tab', { name: /^Log/ }).click();
      await page.getByRole('button', { name: 'Export to CSV' }).click(); // no request: nothing to export
      await page.getByTestId('scan-button').click();
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
