// Every dialog draws above the map and the sticky header. With a scan's markers on the map, the
// Help dialog, the Strategy modal and a confirmation (dialogs.tsx) are opened in turn at 1440x900 and 375x812;
// at the centre of every map element (markers, radius circle, zoom and attribution controls) the top element
// belongs to the dialog or its backdrop, and along the dialog's top edge it belongs to the dialog, never to the
// header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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
  // No place data anywhere: the demo grid answers, plenty of markers around the centre.
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

interface Probe {
  /** Map elements whose centre lies inside the dialog box. */
  insideBox: number;
  /** Map elements probed in the viewport. */
  probed: number;
  /** Map elements whose centre showed something else than the dialog or its backdrop. */
  uncovered: string[];
  /** Points along the dialog's top edge where something else than the dialog is on top. */
  topEdge: string[];
}

/** Every map element's centre and the dialog's top edge, asked of document.elementFromPoint. */
function probe(page: Page): Promise<Probe> {
  return page.evaluate(() => {
    const content = [...document.querySelectorAll<HTMLElement>('.mantine-Modal-content')].find(
      (el) => el.getBoundingClientRect().height > 0,
    );
    if (!content) throw new Error('no dialog is open');
    const root = content.closest('.mantine-Modal-root');
    const box = content.getBoundingClientRect();
    const describe = (el: Element | null) =>
      el ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` : 'nothing';
    const result = { insideBox: 0, probed: 0, uncovered: [] as string[], topEdge: [] as string[] };
    const mapElements = document.querySelectorAll(
      '.map-wrap .leaflet-marker-icon, .map-wrap path.leaflet-interactive, .map-wrap .leaflet-control-zoom a, .map-wrap .leaflet-control-attribution',
    );
    for (const el of mapElements) {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
      result.probed++;
      if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) result.insideBox++;
      const top = document.elementFromPoint(x, y);
      if (!root?.contains(top)) result.uncovered.push(`${describe(el)} under ${describe(top)}`);
    }
    for (let x = box.left + 4; x < box.right - 4; x += 20) {
      const top = document.elementFromPoint(x, box.top + 3);
      if (!content.contains(top)) result.topEdge.push(`${Math.round(x)}: ${describe(top)}`);
    }
    return result;
  });
}

/**
 * Scroll the page so the map's centre (where the scan's markers stand) is the middle of the view, under the open
 * dialog (a phone shows the map below the controls).
 */
async function mapIntoView(page: Page) {
  await page.evaluate(() => {
    const map = document.querySelector('.map-wrap');
    if (!map) throw new Error('no map');
    const r = map.getBoundingClientRect();
    const centre = r.top + r.height / 2 + document.documentElement.scrollTop;
    document.documentElement.scrollTop = Math.max(0, centre - window.innerHeight / 2);
  });
}

async function expectAboveMap(page: Page, shot: string) {
  await mapIntoView(page);
  await page.waitForTimeout(300); // the modal's transition
  const result = await probe(page);
  await keepScreenshot(page, shot);
  expect(result.probed).toBeGreaterThan(5);
  // The test means something only if map elements do lie under the dialog box.
  expect(result.insideBox).toBeGreaterThan(0);
  expect(result.uncovered).toEqual([]);
  expect(result.topEdge).toEqual([]);
}

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
] as const;

describe('dialogs above the map and the header', () => {
  for (const size of SIZES) {
    it(`at ${size.width}x${size.height}: Help, Strategy and a confirmation cover the map`, async () => {
      const b = await openBrowser(server.baseUrl, { width: size.width, height: size.height });
      try {
        const page = b.page;
        await registerViaApi(
          server,
          b,
          {
            name: `Ola Overlay ${size.name}`,
            email: `ola-${size.name}@example.com`,
            password: 'ola-pass-1234',
          },
          { inviter: owner },
        );
        // One entry in the call history, so Clear All asks for confirmation.
        const log = await page.request.post(`${server.baseUrl}/api/call-logs`, {
          data: { prospectId: 'p-1', name: 'Some Shop', outcome: 'Called' },
        });
        expect(log.status()).toBe(201);
        await page.goto(server.baseUrl);
        await page.getByTestId('scan-button').click();
        // The demo grid's markers stand close together: most are drawn as clusters, which are markers too.
        await expect
          .poll(
            () =>
              page
                .locator('.leaflet-marker-icon.prospect-marker, .leaflet-marker-icon.prospect-cluster')
                .count(),
            POLL,
          )
          .toBeGreaterThan(0);

        // Help (from the header).
        await page.getByRole('button', { name: 'Help' }).click();
        const help = page.getByRole('dialog', { name: 'Welcome to Prospect Finder' });
        await help.waitFor();
        await expectAboveMap(page, `overlay-help-${size.name}`);
        await help.getByRole('button', { name: 'Close' }).click();
        await help.waitFor({ state: 'hidden' });

        // The appointment strategy of the first card.
        await page
          .getByTestId('prospect-card')
          .first()
          .getByRole('button', { name: /^Strategy for/ })
          .click();
        const strategy = page.getByRole('dialog');
        await strategy.waitFor();
        await expectAboveMap(page, `overlay-strategy-${size.name}`);
        await page.keyboard.press('Escape');
        await strategy.waitFor({ state: 'hidden' });

        // A confirmation from dialogs.tsx: Clear All in the Log tab.
        await page.getByRole('tab', { name: /^Log/ }).click();
        await page.getByRole('button', { name: 'Clear All' }).click();
        const confirm = page.getByRole('dialog', { name: 'Please confirm' });
        await confirm.waitFor();
        await expectAboveMap(page, `overlay-confirm-${size.name}`);
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        expect(b.pageErrors).toEqual([]);
      } finally {
        await b.close();
      }
    }, 90_000);
  }
});
