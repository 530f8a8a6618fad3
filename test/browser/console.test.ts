// Console noise: a signed-out page load logs no error (the session is asked of GET /api/session,
// which answers 200 with null, not of GET /api/me, whose 401 every browser logs), and quick search's normal
// "no result" answers are not logged with console.error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  firstAccount,
  openBrowser,
  registerViaApi,
  startServer,
  trackApiRequests,
  type ApiSession,
  type TestServer,
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

/** Every console message of type error, as the page logs it. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

describe('console noise', () => {
  it('a signed-out page load logs no error', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      const errors = consoleErrors(page);
      const api = trackApiRequests(page);
      await page.goto(server.baseUrl);
      await page.getByRole('heading', { name: 'Sign In' }).waitFor();
      await api.settled();
      expect(errors).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('quick search: finding nothing is not logged as an error', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Cleo Console', email: 'cleo@example.com', password: 'cleo-pass-12' },
        { inviter: owner },
      );
      const errors = consoleErrors(page);
      await page.goto(server.baseUrl);
      await page.getByLabel('Name', { exact: true }).fill('Zzyzx Qwertyuiop Emporium');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await page
        .getByTestId('notice')
        .getByText('No matching business found within your radius. Try a more specific name.')
        .waitFor();
      // A category too generic asks for a more specific one: an answer too.
      await page.getByLabel('Search by').selectOption('category');
      await page.getByLabel('Category', { exact: true }).fill('business');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      const ask = page.getByRole('dialog').filter({ has: page.getByText(/more specific category/) });
      await ask.waitFor();
      await ask.getByRole('button', { name: 'Cancel' }).click();
      // The browser itself reports the 404 and 400 answers ('Failed to load resource'); the app logs nothing.
      expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
