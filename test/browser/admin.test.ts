// The admin journey in the browser, with the San Francisco extract imported: block a business
// and see it leave a rep's open results and later scans; mark and unmark a current advertiser; export All
// Prospects and check the file's rows; generate an invitation and see it used; suspend a user whose open session
// then fails on its next request, re-enable them; hard delete with the password (empty cancels, wrong refused);
// and the Admin Panel's sections shown per role (docs/PRODUCT.md, "The Admin Panel"), at 1440 and 375 px.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { describeWithOsm, osmExtractPath } from '../helpers/osm-data.js';
import { parseCsv } from '../../src/core/csv.js';
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
import { scannedBusiness } from '../helpers/businesses.js';

const SF_EXTRACT = osmExtractPath('sf-downtown.osm.pbf'); // every test is inside describeWithOsm
const UNION_SQUARE = { lat: 37.788, lng: -122.4075 };
const OWNER = { name: 'Olive Owner', email: 'owner@example.com', password: 'owner-pass-1' };

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, OWNER);
  await importOsmFile(server.db, SF_EXTRACT);
});
afterAll(async () => {
  await server?.close();
});

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const names = (page: Page) => page.getByTestId('prospect-name').allTextContents();
const card = (page: Page, name: string) =>
  page
    .getByTestId('prospect-card')
    .filter({ has: page.getByTestId('prospect-name').getByText(name, { exact: true }) });
/** The Admin Panel's sections, in its list (a side list at 1440 px, a menu on a phone). */
const sectionTitles = (page: Page) =>
  page.locator('nav[aria-label="Admin Panel sections"] a').allTextContents();
/** Opens the Admin Panel from the header's link. */
async function openAdminPanel(page: Page) {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Admin Panel' }).click();
  await page.getByTestId('admin-panel').waitFor();
}
/** Opens one section of the Admin Panel as an admin would: its link beside it, or its menu on a phone. */
async function openSection(page: Page, title: string) {
  const link = page
    .getByRole('navigation', { name: 'Admin Panel sections' })
    .getByRole('link', { name: title, exact: true });
  if (await link.isVisible()) {
    await link.click();
  } else {
    await page.getByRole('combobox', { name: 'Section' }).click();
    await page.getByRole('option', { name: title, exact: true }).click();
  }
  await page.getByTestId('admin-panel').getByRole('heading', { level: 3, name: title }).waitFor();
}
const userRow = (page: Page, email: string) => page.getByTestId('user-row').filter({ hasText: email });

async function scan(page: Page, count = 20) {
  const res = await page.request.post(`${server.baseUrl}/api/scans`, {
    data: { ...UNION_SQUARE, radiusMiles: 1, count, categories: [], locationLabel: 'Union Square' },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { prospects: { id: string; name: string; score: number }[] }).prospects;
}

describeWithOsm(SF_EXTRACT, 'the admin journey', () => {
  it('blocks for everyone, marks and unmarks advertisers and exports All Prospects', async () => {
    const ada = await openBrowser(server.baseUrl);
    const rex = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const adaUser = await registerViaApi(
        server,
        ada,
        { name: 'Ada Admin', email: 'ada@example.com', password: 'ada-pass-123' },
        { inviter: owner },
      );
      expect((await owner.call('PATCH', `/api/users/${adaUser.id}/role`, { role: 'admin' })).status).toBe(
        200,
      );
      await registerViaApi(
        server,
        rex,
        { name: 'Rex Rep', email: 'rex@example.com', password: 'rex-pass-123' },
        { inviter: owner },
      );

      // Rex scans and has his results open.
      const found = await scan(rex.page);
      expect(found.length).toBe(20);
      await rex.page.goto(server.baseUrl);
      await expect.poll(() => rex.page.getByTestId('prospect-card').count()).toBe(20);
      const rexNames = await names(rex.page);
      // A rep sees no admin tabs.
      expect(await tab(rex.page, 'All Prospects').count()).toBe(0);
      expect(await rex.page.getByRole('link', { name: 'Admin Panel' }).count()).toBe(0);
      // At an admin page's address a rep gets the main screen.
      await rex.page.goto(`${server.baseUrl}/admin/users`);
      await expect.poll(() => rex.page.evaluate(() => window.location.pathname)).toBe('/');
      await expect.poll(() => rex.page.getByTestId('prospect-card').count()).toBe(20);

      // Ada: the admin tabs in their order after Log; the pages linked from the header.
      const page = ada.page;
      await page.goto(server.baseUrl);
      await tab(page, 'All Prospects').waitFor();
      const tabNames = (await page.getByRole('tab').allTextContents()).map((t) =>
        t.replace(/\s*\d*\s*$/, ''),
      );
      expect(tabNames.slice(-3)).toEqual(['All Prospects', 'Blocked', 'Current Advertisers']);
      expect(
        await page.getByRole('navigation', { name: 'Pages' }).getByRole('link').allTextContents(),
      ).toEqual(['Prospects', 'Team', 'Admin Panel']);

      // All Prospects: every prospect Rex scanned.
      await tab(page, 'All Prospects').click();
      const team = page.getByTestId('team-prospect');
      await expect.poll(() => team.count()).toBeGreaterThanOrEqual(20);
      const teamNames = await page.getByTestId('team-prospect-name').allTextContents();
      for (const n of rexNames) expect(teamNames).toContain(n);

      // Export All: all_prospects_summary_{date}.csv with Name, Category, Address, Rating, Score (and the data's
      // credit), one row each.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export All' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^all_prospects_summary_\d{4}-\d{2}-\d{2}\.csv$/);
      const raw = readFileSync(await download.path(), 'utf8');
      expect(raw.startsWith('\uFEFF')).toBe(true);
      const { records } = parseCsv(raw);
      // The imported businesses' credit, last (OpenStreetMap's licence asks for it wherever its data is shown).
      expect(records[0]).toEqual(['Name', 'Category', 'Address', 'Rating', 'Score', 'Data Source']);
      const rows = records.slice(1);
      expect(rows).toHaveLength(teamNames.length);
      expect(rows.map((r) => r[0]).sort()).toEqual([...teamNames].sort());
      const firstRow = rows.find((r) => r[0] === rexNames[0])!;
      expect(Number(firstRow[4])).toBe(Math.round(found[0]!.score * 100));
      expect(firstRow[5]).toBe('© OpenStreetMap contributors');

      // Block Rex's third business from All Prospects: it leaves Rex's open results at once...
      const victim = rexNames[2]!;
      await team
        .filter({ has: page.getByTestId('team-prospect-name').getByText(victim, { exact: true }) })
        .getByRole('button', { name: `Block ${victim}` })
        .click();
      await page.getByTestId('notice').getByText(`${victim} was blocked for everyone.`).waitFor();
      await expect
        .poll(async () => (await names(rex.page)).includes(victim), { timeout: 10_000 })
        .toBe(false);
      await expect
        .poll(async () => (await page.getByTestId('team-prospect-name').allTextContents()).includes(victim))
        .toBe(false);
      // ...and every later scan of every user.
      expect((await scan(rex.page, 50)).map((p) => p.name)).not.toContain(victim);
      await rex.page.reload();
      await expect.poll(() => rex.page.getByTestId('prospect-card').count()).toBe(20);
      expect(await names(rex.page)).not.toContain(victim);

      // Blocked tab: the business, then Remove and the empty text.
      await tab(page, 'Blocked').click();
      const blocked = page.getByTestId('blocked-item');
      await expect.poll(() => blocked.count()).toBe(1);
      expect(await blocked.getByTestId('blocked-name').textContent()).toBe(victim);
      expect(await blocked.textContent()).toContain('by Ada Admin');
      await blocked.getByRole('button', { name: `Remove ${victim} from the blocklist` }).click();
      await page.getByText('No blocked businesses').waitFor();
      expect((await scan(rex.page, 50)).map((p) => p.name)).toContain(victim);

      // Rex marks a current advertiser; Ada sees who and when, removes it; Rex's banner goes.
      await rex.page.reload();
      await expect.poll(() => rex.page.getByTestId('prospect-card').count()).toBe(20);
      const marked = (await names(rex.page))[0]!;
      await card(rex.page, marked).getByRole('button', { name: 'Mark as current advertiser' }).click();
      await card(rex.page, marked).getByTestId('advertiser-banner').waitFor();
      await tab(page, 'Current Advertisers').click();
      const advertiser = page.getByTestId('advertiser-item');
      await expect.poll(() => advertiser.count()).toBe(1);
      expect(await advertiser.getByTestId('advertiser-name').textContent()).toBe(marked);
      expect(await advertiser.getByTestId('advertiser-marked').textContent()).toMatch(
        /^Marked by Rex Rep · .+/,
      );
      // A second mark of the same business is ignored.
      await rex.page.request.post(`${server.baseUrl}/api/current-advertisers`, {
        data: { businessId: found.find((p) => p.name === marked)!.id, label: marked },
      });
      await page.reload();
      await tab(page, 'Current Advertisers').click();
      await expect.poll(() => advertiser.count()).toBe(1);
      await advertiser.getByRole('button', { name: `Remove ${marked} from current advertisers` }).click();
      await page.getByText('No current advertisers marked').waitFor();
      await card(rex.page, marked)
        .getByTestId('advertiser-banner')
        .waitFor({ state: 'detached', timeout: 10_000 });

      // The customer-list import marks the matches and reports matched and unmatched rows.
      const csv = `Name,Phone,Website\r\n"${marked}",,\r\nNo Such Business Anywhere,+1 000 000 0000,\r\n`;
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByLabel('Customer list (CSV)').click(),
      ]);
      await chooser.setFiles({
        name: 'customers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv, 'utf8'),
      });
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const report = page.getByTestId('import-report');
      await report.getByText('1 matched (1 newly marked), 1 unmatched').waitFor();
      expect(await report.getByRole('table', { name: 'Matched rows', exact: true }).textContent()).toContain(
        marked,
      );
      const unmatched = report.getByRole('table', { name: 'Unmatched rows', exact: true });
      expect(await unmatched.locator('tbody tr td').first().textContent()).toBe('3');
      await expect.poll(() => advertiser.count()).toBe(1);
      await card(rex.page, marked).getByTestId('advertiser-banner').waitFor({ timeout: 10_000 });
      expect(await rex.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      // An admin's panel: the admin sections only; own row without buttons, a SuperAdmin read-only.
      await openAdminPanel(page);
      expect(await page.evaluate(() => window.location.pathname)).toBe('/admin/invitations');
      expect(await sectionTitles(page)).toEqual([
        'Invitation Management',
        'User Management',
        'Territories',
        'Business Data',
        'Billing',
        'Export Prospects',
        'Algorithm Settings',
        'Website Checks',
        'Cache Management',
      ]);
      await openSection(page, 'Cache Management');
      expect(await page.evaluate(() => window.location.pathname)).toBe('/admin/cache');
      expect(await page.getByRole('button', { name: 'Clear AI Cache' }).count()).toBe(0);
      await page.getByTestId('stat-total').waitFor();
      // Back and forward move between the sections; the address opens the same section.
      await page.goBack();
      await page
        .getByTestId('admin-panel')
        .getByRole('heading', { level: 3, name: 'Invitation Management' })
        .waitFor();
      await page.goForward();
      await page.getByTestId('stat-total').waitFor();
      await page.goto(`${server.baseUrl}/admin/users`);
      await page
        .getByTestId('admin-panel')
        .getByRole('heading', { level: 3, name: 'User Management' })
        .waitFor();
      await openSection(page, 'Algorithm Settings');
      expect(await page.getByLabel('Show all prospects').isDisabled()).toBe(true);
      await openSection(page, 'User Management');
      const own = userRow(page, 'ada@example.com');
      await own.waitFor();
      expect(await own.getByRole('button').count()).toBe(0);
      expect(await own.getByTestId('role-readonly').textContent()).toBe('Role: Admin');
      const ownerRow = userRow(page, OWNER.email);
      expect(await ownerRow.getByRole('button').count()).toBe(0);
      expect(await ownerRow.getByTestId('role-readonly').textContent()).toBe('Role: SuperAdmin');
      const rexRow = userRow(page, 'rex@example.com');
      expect(
        await rexRow
          .getByLabel('Role of Rex Rep')
          .locator('option')
          .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
      ).toEqual(['user', 'admin']);
      expect(await rexRow.getByRole('button', { name: 'Delete Rex Rep' }).count()).toBe(1);
      expect(await rexRow.getByRole('button', { name: 'Suspend Rex Rep' }).count()).toBe(0);
      expect(await rexRow.getByRole('button', { name: 'Hard delete Rex Rep' }).count()).toBe(0);
      // Role change from the select.
      await rexRow.getByLabel('Role of Rex Rep').selectOption('admin');
      await expect
        .poll(async () => {
          const res = await owner.call('GET', '/api/users');
          const users = ((await res.json()) as { users: { email: string; role: string }[] }).users;
          return users.find((u) => u.email === 'rex@example.com')?.role;
        })
        .toBe('admin');
      // Delete Rex's profile (confirmation; Escape cancels first): his row goes and his session ends.
      await rexRow.getByRole('button', { name: 'Delete Rex Rep' }).click();
      const confirm = page.getByRole('dialog', { name: 'Please confirm' });
      await confirm.getByText('Delete the profile of Rex Rep (rex@example.com)?', { exact: false }).waitFor();
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(await rexRow.count()).toBe(1);
      await rexRow.getByRole('button', { name: 'Delete Rex Rep' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await rexRow.waitFor({ state: 'detached' });
      expect((await rex.page.request.get(`${server.baseUrl}/api/me`)).status()).toBe(401);
      await keepScreenshot(page, 'admin-panel-admin-1440', { fullPage: true });
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Prospects' }).click();
      for (const name of ['All Prospects', 'Blocked', 'Current Advertisers']) {
        await tab(page, name).click();
        await page.getByRole('tabpanel').waitFor();
        expect(await axeViolations(page, '[role="tabpanel"]')).toEqual([]);
      }

      expect(ada.pageErrors).toEqual([]);
      expect(rex.pageErrors).toEqual([]);
    } finally {
      await ada.close();
      await rex.close();
    }
  });

  it('SuperAdmin: invitation used, suspend ends an open session, hard delete with password, every section', async () => {
    const olive = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    const ivy = await openBrowser(server.baseUrl);
    try {
      await olive.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
      const page = olive.page;
      const signIn = await page.request.post(`${server.baseUrl}/api/session`, {
        data: { email: OWNER.email, password: OWNER.password },
      });
      expect(signIn.ok()).toBe(true);
      await page.request.patch(`${server.baseUrl}/api/me`, {
        data: { hideInstructions: true, installPromptDismissed: true },
      });
      await page.goto(server.baseUrl);
      await openAdminPanel(page);
      expect(await sectionTitles(page)).toEqual([
        'Invitation Management',
        'User Management',
        'Territories',
        'Business Data',
        'Billing',
        'Export Prospects',
        'Universal Blocklist Management',
        'Algorithm Settings',
        'Website Checks',
        'Cache Management',
        'Audit Log',
        'User Data Testing',
        'Universal Blocklist Debug',
      ]);

      // Generate an invitation for Ivy; copy the code.
      await page.getByLabel('E-mail (optional)').fill('ivy@example.com');
      await page.getByRole('button', { name: 'Generate Invitation' }).click();
      const fresh = page.getByTestId('new-invitation');
      const code = (await fresh.getByTestId('invitation-code').textContent()) ?? '';
      expect(code.length).toBeGreaterThan(8);
      expect(await fresh.getByTestId('invitation-link').textContent()).toBe(
        `${server.baseUrl}/?invite=${code}`,
      );
      await fresh.getByRole('button', { name: 'Copy Code' }).click();
      await fresh.getByRole('button', { name: 'Copied!' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
      const invitation = page.getByTestId('invitation-row').filter({ hasText: code });
      expect(await invitation.getByTestId('invitation-status').textContent()).toBe('open');

      // Ivy registers with it; the list shows it used, by whom.
      const reg = await ivy.page.request.post(`${server.baseUrl}/api/register`, {
        data: {
          name: 'Ivy Invited',
          email: 'ivy@example.com',
          password: 'ivy-pass-123',
          confirmPassword: 'ivy-pass-123',
          invitationCode: code,
        },
      });
      expect(reg.status()).toBe(201);
      await ivy.page.request.patch(`${server.baseUrl}/api/me`, {
        data: { hideInstructions: true, installPromptDismissed: true },
      });
      await page.getByRole('button', { name: 'Refresh Invitations' }).click();
      await expect.poll(() => invitation.getByTestId('invitation-status').textContent()).toBe('used');
      expect(await invitation.getByTestId('invitation-used').textContent()).toMatch(
        /^Used by ivy@example\.com on .+/,
      );

      // An invitation sent to the wrong address is revoked: asked first, then shown revoked, by whom.
      await page.getByLabel('E-mail (optional)').fill('wrong.address@example.com');
      await page.getByRole('button', { name: 'Generate Invitation' }).click();
      const wrongCode = await page
        .getByTestId('new-invitation')
        .getByTestId('invitation-code')
        .filter({ hasNotText: code })
        .textContent();
      const wrong = page.getByTestId('invitation-row').filter({ hasText: wrongCode ?? '' });
      await wrong.getByRole('button', { name: `Revoke invitation ${wrongCode}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await expect.poll(() => wrong.getByTestId('invitation-status').textContent(), POLL).toBe('revoked');
      expect(await wrong.getByTestId('invitation-revoked').textContent()).toMatch(/^Revoked by .+ on .+/);
      expect(await wrong.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);

      // Ivy has the app open and scans.
      await scan(ivy.page, 5);
      await ivy.page.goto(server.baseUrl);
      await expect.poll(() => ivy.page.getByTestId('prospect-card').count()).toBeGreaterThan(0);

      // User Data Testing for Ivy.
      await openSection(page, 'User Data Testing');
      const ivyId = await page
        .getByLabel('User to test')
        .locator('option', { hasText: 'ivy@example.com' })
        .getAttribute('value');
      await page.getByLabel('User to test').selectOption(ivyId ?? '');
      await page.getByRole('button', { name: 'Test User Data' }).click();
      const data = page.getByTestId('user-data');
      await data.waitFor();
      expect(await data.getByTestId('stat-searches').textContent()).toBe('Searches1');
      expect(await data.getByTestId('stat-saved').textContent()).toBe('Saved0');

      // Suspend Ivy (confirmation): her open session fails on its next request and the app returns to sign-in.
      await openSection(page, 'User Management');
      await page.getByRole('button', { name: 'Refresh Users' }).click();
      const ivyRow = userRow(page, 'ivy@example.com');
      await ivyRow.waitFor();
      await ivyRow.getByRole('button', { name: 'Suspend Ivy Invited' }).click();
      const confirm = page.getByRole('dialog', { name: 'Please confirm' });
      await confirm.getByText('Suspend Ivy Invited (ivy@example.com)?', { exact: false }).waitFor();
      await confirm.getByRole('button', { name: 'Suspend' }).click();
      await ivyRow.getByTestId('suspended-badge').waitFor();
      await ivy.page.getByRole('button', { name: 'New Search' }).click();
      await ivy.page.getByRole('button', { name: 'Sign In' }).first().waitFor({ timeout: 10_000 });
      expect((await ivy.page.request.get(`${server.baseUrl}/api/me`)).status()).toBe(401);
      const refused = await ivy.page.request.post(`${server.baseUrl}/api/session`, {
        data: { email: 'ivy@example.com', password: 'ivy-pass-123' },
      });
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe(
        'This account has been disabled. Please contact support.',
      );

      // Re-enable: she can sign in again.
      await ivyRow.getByRole('button', { name: 'Re-enable Ivy Invited' }).click();
      await ivyRow.getByTestId('suspended-badge').waitFor({ state: 'detached' });
      const again = await ivy.page.request.post(`${server.baseUrl}/api/session`, {
        data: { email: 'ivy@example.com', password: 'ivy-pass-123' },
      });
      expect(again.ok()).toBe(true);

      // Hard delete: confirmation, then the password; an empty password cancels, a wrong one is refused.
      const hardDelete = async (password: string) => {
        await ivyRow.getByRole('button', { name: 'Hard delete Ivy Invited' }).click();
        await confirm
          .getByText('and all their data? This action cannot be undone.', { exact: false })
          .waitFor();
        await confirm.getByRole('button', { name: 'Continue' }).click();
        const ask = page.getByRole('dialog', { name: 'Confirm with your password' });
        await ask.getByLabel('Your password').fill(password);
        await ask.getByRole('button', { name: 'Hard Delete' }).click();
        await ask.waitFor({ state: 'detached' });
      };
      await hardDelete('');
      await page.waitForTimeout(300);
      expect(await ivyRow.count()).toBe(1);
      await hardDelete('not-my-password');
      await page
        .getByTestId('notice')
        .getByText('Failed to hard delete: Incorrect password. Please try again.')
        .waitFor();
      expect(await ivyRow.count()).toBe(1);
      await hardDelete(OWNER.password);
      await ivyRow.waitFor({ state: 'detached' });
      const gone = await ivy.page.request.post(`${server.baseUrl}/api/session`, {
        data: { email: 'ivy@example.com', password: 'ivy-pass-123' },
      });
      expect(gone.ok()).toBe(false);

      // The audit log names what was done, newest first.
      await openSection(page, 'Audit Log');
      await page.getByRole('button', { name: 'Refresh Log' }).click();
      await expect
        .poll(() => page.getByTestId('audit-action').first().textContent())
        .toBe('Hard-deleted a user');
      expect(await page.getByTestId('audit-action').first().getAttribute('title')).toBe('user.hard_delete');
      const actions = await page.getByTestId('audit-action').allTextContents();
      for (const a of ['Suspended a user', 'Unsuspended a user', 'Generated an invitation']) {
        expect(actions).toContain(a);
      }
      const [auditFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export Audit Log' }).click(),
      ]);
      expect(auditFile.suggestedFilename()).toMatch(/^audit_log_\d{4}-\d{2}-\d{2}\.csv$/);
      const auditRows = parseCsv(readFileSync(await auditFile.path(), 'utf8')).records;
      expect(auditRows[0]?.slice(0, 2)).toEqual(['When', 'Actor']);
      expect(auditRows[1]).toContain('user.hard_delete');

      // Universal Blocklist Debug and the clear with confirmation.
      const someId = (await scan(page, 5))[0]!;
      expect(
        (await owner.call('POST', '/api/blocklist', { businessId: someId.id, label: someId.name })).status,
      ).toBe(201);
      await openSection(page, 'Universal Blocklist Debug');
      await page.getByLabel('Business id').fill(someId.id);
      await page.getByRole('button', { name: 'Test Blocklist' }).click();
      await page
        .getByTestId('blocklist-check')
        .getByText(`Blocked: ${someId.name}`, { exact: false })
        .waitFor();
      await openSection(page, 'Universal Blocklist Management');
      await page.getByRole('button', { name: 'Refresh Blocklist' }).click();
      await expect.poll(() => page.getByTestId('panel-blocked-item').count()).toBe(1);
      await page.getByRole('button', { name: 'Clear Blocklist' }).click();
      await confirm.getByText('Clear the universal blocklist?', { exact: false }).waitFor();
      await confirm.getByRole('button', { name: 'Clear Blocklist' }).click();
      await expect.poll(() => page.getByTestId('panel-blocked-item').count()).toBe(0);
      await openSection(page, 'Universal Blocklist Debug');
      await page.getByLabel('Business id').fill(someId.id);
      await page.getByRole('button', { name: 'Test Blocklist' }).click();
      await page.getByTestId('blocklist-check').getByText(`Not blocked: ${someId.id}`).waitFor();

      // Algorithm Settings: a SuperAdmin changes them for the team.
      await openSection(page, 'Algorithm Settings');
      const showAll = page.getByLabel('Show all prospects');
      expect(await showAll.isChecked()).toBe(false);
      await showAll.click();
      await expect.poll(() => showAll.isChecked()).toBe(true);
      await expect
        .poll(async () => {
          const res = await owner.call('GET', '/api/admin/settings');
          return ((await res.json()) as { settings: { showAllProspects: boolean } }).settings
            .showAllProspects;
        })
        .toBe(true);

      // Export Current Scan (SuperAdmins): prospects_{date}.csv with this scan's rows.
      await openSection(page, 'Export Prospects');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export Current Scan' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^prospects_\d{4}-\d{2}-\d{2}\.csv$/);
      const { records } = parseCsv(readFileSync(await download.path(), 'utf8'));
      const latest = await page.request.get(`${server.baseUrl}/api/scans/latest?offset=0&limit=100`);
      const stored = ((await latest.json()) as { prospects: { id: string; name: string }[] }).prospects;
      expect(records[0]?.[0]).toBe('Name');
      expect(records.slice(1).map((r) => r[0])).toEqual(stored.map((p) => p.name));
      const idColumn = records[0]!.indexOf('Id');
      expect(records.slice(1).map((r) => r[idColumn])).toEqual(stored.map((p) => p.id));

      // Clear the AI cache with confirmation.
      await openSection(page, 'Cache Management');
      await page.getByRole('button', { name: 'Clear AI Cache' }).click();
      await confirm.getByRole('button', { name: 'Clear Cache' }).click();
      await page.getByTestId('notice').getByText('AI cache cleared').waitFor();
      await expect.poll(() => page.getByTestId('stat-total').textContent()).toBe('Total0');

      expect(await axeViolations(page, '[data-testid="admin-panel"]')).toEqual([]);
      await keepScreenshot(page, 'admin-panel-superadmin-375', { fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(olive.pageErrors).toEqual([]);
    } finally {
      await olive.close();
      await ivy.close();
    }
  });

  it('shows the empty texts on a fresh installation and outside text as text', async () => {
    const fresh = await startServer();
    const b = await openBrowser(fresh.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(fresh, b, {
        name: 'Fay First',
        email: 'fay@example.com',
        password: 'fay-pass-123',
      });
      await page.goto(fresh.baseUrl);
      await tab(page, 'All Prospects').click();
      await page.getByText('No prospects scanned yet.').waitFor();
      await page.getByRole('button', { name: 'Export All' }).click();
      await page.getByTestId('notice').getByText('No prospects to export').waitFor();
      await tab(page, 'Blocked').click();
      await page.getByText('No blocked businesses').waitFor();
      await tab(page, 'Current Advertisers').click();
      await page.getByText('No current advertisers marked').waitFor();
      await openAdminPanel(page);
      await page.getByText('No invitations found').waitFor();
      await openSection(page, 'Export Prospects');
      await page.getByRole('button', { name: 'Export Prospects' }).click();
      await page.getByTestId('notice').getByText('No prospects to export').last().waitFor();

      // Names from outside are text, never markup.
      const markup = '<img src=x onerror=alert(1)>';
      const blocked = await page.request.post(`${fresh.baseUrl}/api/blocklist`, {
        data: { businessId: 'osm:node/1', label: markup },
      });
      expect(blocked.status()).toBe(201);
      // The advertiser's name is its record's: a business scanned under a name that looks like markup.
      await scannedBusiness(fresh.db, 'osm:node/2', markup);
      const marked = await page.request.post(`${fresh.baseUrl}/api/current-advertisers`, {
        data: { businessId: 'osm:node/2', label: markup },
      });
      expect(marked.status()).toBe(201);
      await page.getByRole('link', { name: 'Prospects' }).click();
      await tab(page, 'Blocked').click();
      expect(await page.getByTestId('blocked-name').textContent()).toBe(markup);
      await tab(page, 'Current Advertisers').click();
      expect(await page.getByTestId('advertiser-name').textContent()).toBe(markup);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
      await fresh.close();
    }
  });
});
