// The Log and Today show the server's first page (200 entries) and a "Load more" button while it holds
// more; the button brings the next page under the ones shown and goes once everything is there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, registerViaApi, startServer, type TestServer } from './harness.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server?.close();
});

const POLL = { timeout: 15_000 };
const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

describe('long lists, a page at a time', () => {
  it('shows 200 Log entries and 200 follow-ups, then the rest with Load more', async () => {
    const rep = await openBrowser(server.baseUrl, { width: 1440, height: 900 });
    try {
      const page = rep.page;
      await registerViaApi(server, rep, {
        name: 'Pat Pager',
        email: 'pat@example.com',
        password: 'pat-pass-123',
      });
      for (let i = 0; i < 203; i++) {
        const logged = await page.request.post(`${server.baseUrl}/api/call-logs`, {
          data: {
            prospectId: `osm:node/${i}`,
            name: `Business ${i}`,
            outcome: 'Called',
            timestamp: Date.UTC(2026, 0, 1, 0, i),
            followUp: { dueDate: '2099-01-01', timeZone: 'America/Chicago' },
          },
        });
        expect(logged.status()).toBe(201);
      }
      await page.goto(server.baseUrl);

      await tab(page, 'Log').click();
      const entries = page.getByTestId('log-entry');
      await expect.poll(() => entries.count(), POLL).toBe(200);
      await expect.poll(() => entries.first().getByTestId('log-name').innerText(), POLL).toBe('Business 202');
      // The tab's count says there are more than those loaded, then the whole count.
      expect(await tab(page, 'Log').innerText()).toMatch(/^Log\s+200\+$/);
      await page.getByTestId('log-load-more').click();
      await expect.poll(() => entries.count(), POLL).toBe(203);
      await expect.poll(() => tab(page, 'Log').innerText(), POLL).toMatch(/^Log\s+203$/);
      expect(await entries.last().getByTestId('log-name').innerText()).toBe('Business 0');
      await page.getByTestId('log-load-more').waitFor({ state: 'detached' });

      await tab(page, 'Today').click();
      const more = page.getByTestId('follow-ups-load-more');
      await more.waitFor();
      await more.click();
      await more.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByText(/^Business \d+$/).count(), POLL).toBe(203);
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await rep.close();
    }
  });
});
