// An admin opens the Team tab and sees the charts with data from three reps (activity with
// follow-ups, the pipeline funnel, win rate by score band), opens one rep's page (log, pipeline, route history);
// a rep has no Team tab and the API refuses them. Screenshots at 1440x900 and 375x812.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { axeViolations } from './axe.js';
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

const OWNER = { name: 'Olive Owner', email: 'owner@example.com', password: 'owner-pass-1' };

let server: TestServer;
let owner: ApiSession;

/** A rep registered from Node with an invitation; answers a function calling the API with their cookie. */
async function rep(name: string, email: string) {
  const invitationCode = await owner.invite();
  const password = 'rep-pass-1234';
  const res = await fetch(`${server.baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ name, email, password, confirmPassword: password, invitationCode }),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { 'content-type': 'application/json', origin: server.baseUrl, cookie };
  const log = async (
    outcome: 'Called' | 'Visited',
    prospectId: string,
    name: string,
    minutesAgo: number,
    extra: { followUp?: boolean; position?: { lat: number; lng: number } } = {},
  ) => {
    const logged = await fetch(`${server.baseUrl}/api/call-logs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        prospectId,
        name,
        category: 'Dentist',
        outcome,
        note: `${outcome} ${name}`,
        timestamp: Date.now() - minutesAgo * 60_000,
        ...(extra.followUp
          ? { followUp: { dueDate: '2099-01-05', timeZone: 'UTC', nextStep: 'Send the proposal' } }
          : {}),
        ...(extra.position ? { position: { ...extra.position, accuracyM: 10 } } : {}),
      }),
    });
    expect(logged.status).toBe(201);
  };
  /** Sets a business's pipeline stage as this rep (claims it when nobody works it). */
  log.stage = async (businessId: string, stage: string, name: string) => {
    const set = await fetch(`${server.baseUrl}/api/pipeline/${businessId}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ stage, name }),
    });
    expect(set.status, await set.clone().text()).toBe(200);
  };
  return log;
}

/**
 * A business the team scanned (its position and score are kept on the call logs, so the map can show them; its
 * name is the one the pipeline stores).
 */
async function scanned(id: string, name: string, lat: number, lng: number, score: number) {
  await server.db.kysely
    .insertInto('team_prospects')
    .values({
      business_id: id,
      prospect: JSON.stringify({ id, name, lat, lng, score }),
      name,
      score,
      analysis_hash: '',
      business_hash: '',
      scanned_by: null,
      scanned_at: new Date().toISOString(),
    })
    .execute();
}

beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, OWNER);
  await scanned('biz-1', 'Bright Smiles', 41.881, -87.627, 0.82);
  await scanned('biz-2', 'Lakeside Dental', 41.889, -87.634, 0.55);
  await scanned('biz-3', 'Union Dental', 41.871, -87.65, 0.31);
  await scanned('biz-4', 'Corner Bakery', 41.885, -87.64, 0.6);
  const rita = await rep('Rita Rep', 'rita@example.com');
  const sam = await rep('Sam Rep', 'sam@example.com');
  const tom = await rep('Tom Rep', 'tom@example.com');
  // Minutes ago, so every entry is in this week and on today's local date.
  await rita('Called', 'biz-1', 'Bright Smiles', 3);
  await rita('Called', 'biz-2', 'Lakeside Dental', 4);
  await rita('Called', 'biz-3', 'Union Dental', 5);
  // At the business, with a follow-up: a verified visit on Rita's route.
  await rita('Visited', 'biz-1', 'Bright Smiles', 2, {
    followUp: true,
    position: { lat: 41.881, lng: -87.627 },
  });
  // Far from the business: logged, not verified; the second stop of her route.
  await rita('Visited', 'biz-2', 'Lakeside Dental', 1, { position: { lat: 41.95, lng: -87.7 } });
  await sam('Called', 'biz-2', 'Lakeside Dental', 6);
  await sam('Called', 'biz-3', 'Union Dental', 7);
  await tom('Visited', 'biz-3', 'Union Dental', 8);
  // The pipeline: Rita's calls claimed biz-1, biz-2 and biz-3 at Contacted (Sam's and Tom's entries on them
  // leave Rita's claims alone). Rita wins biz-1 (a rep wins from Proposal) and sends a proposal to biz-2; Sam
  // sets a meeting with biz-4.
  await rita.stage('biz-1', 'Meeting set', 'Bright Smiles');
  await rita.stage('biz-1', 'Proposal', 'Bright Smiles');
  await rita.stage('biz-1', 'Won', 'Bright Smiles');
  await rita.stage('biz-2', 'Proposal', 'Lakeside Dental');
  await sam.stage('biz-4', 'Meeting set', 'Corner Bakery');
});
afterAll(async () => {
  await server?.close();
});

const teamTab = (page: Page) => page.getByRole('link', { name: 'Team', exact: true });

it('shows an admin the charts with three reps, and one rep’s page; at 1440 and 375 px', async () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 375, height: 812 },
  ]) {
    const ada = await openBrowser(server.baseUrl, viewport, { touch: viewport.width < 500 });
    try {
      const email = `ada-${viewport.width}@example.com`;
      const ad = await registerViaApi(
        server,
        ada,
        { name: `Ada Admin ${viewport.width}`, email, password: 'ada-pass-123' },
        { inviter: owner },
      );
      expect((await owner.call('PATCH', `/api/users/${ad.id}/role`, { role: 'admin' })).status).toBe(200);
      await ada.page.goto(server.baseUrl);
      await teamTab(ada.page).click();
      const tab = ada.page.getByTestId('team-tab');
      await expect
        .poll(() => tab.getByTestId('team-reps-summary').textContent(), POLL)
        .toBe(
          '5 calls, 3 visits, 0 saves, 0 strategy requests and 1 follow-up set; the most active was Rita Rep (6).',
        );
      // The per-rep chart draws a bar for each rep with activity: Rita, Sam, Tom (calls, visits and follow-ups).
      const repChart = tab.getByTestId('team-reps-chart');
      await expect.poll(() => repChart.locator('.recharts-bar-rectangle').count(), POLL).toBe(5);
      const ticks = await repChart.locator('.recharts-cartesian-axis-tick-value').allTextContents();
      expect(ticks.filter((t) => !/^\d+$/.test(t))).toEqual(['Rita Rep', 'Sam Rep', 'Tom Rep']);
      // Only the figures reach the chart's SVG (a field such as the rep's role would become an ARIA role).
      expect(await repChart.locator('[role="user"]').count()).toBe(0);
      expect(await repChart.getAttribute('aria-label')).toContain('the most active was Rita Rep');
      // The table view of the same figures.
      await tab.getByTestId('team-section-reps').getByRole('button', { name: 'Show table' }).click();
      const rows = tab.getByTestId('team-reps-table').locator('tbody tr');
      const text = await rows.allInnerTexts();
      const cells = (name: string) =>
        text
          .find((t) => t.startsWith(name))
          ?.split('\t')
          .map((s) => s.trim());
      expect(cells('Rita Rep')).toEqual(['Rita Rep', '3', '2', '0', '0', '1']);
      expect(cells('Sam Rep')).toEqual(['Sam Rep', '2', '0', '0', '0', '0']);
      expect(cells('Tom Rep')).toEqual(['Tom Rep', '0', '1', '0', '0', '0']);
      // Outcomes, per day and the map have their data too.
      await expect
        .poll(() => tab.getByTestId('team-outcomes-summary').textContent(), POLL)
        .toBe('Called: 5, Visited: 3.');
      await expect
        .poll(() => tab.getByTestId('team-daily-summary').textContent(), POLL)
        .toMatch(/^9 entries over 7 days/);
      await expect
        .poll(() => tab.getByTestId('team-map-summary').textContent(), POLL)
        .toBe('5 calls and 3 visits at 3 places, over 0 scanned areas.');
      await expect.poll(() => tab.locator('.team-map path.leaflet-interactive').count(), POLL).toBe(3);

      // The funnel: biz-1 Won, biz-2 Proposal, biz-3 Contacted (Rita), biz-4 Meeting set (Sam).
      await expect
        .poll(() => tab.getByTestId('team-funnel-summary').textContent(), POLL)
        .toBe(
          'New 4 → Contacted 100%, Contacted 4 → Meeting set 75%, Meeting set 3 → Proposal 67%, ' +
            'Proposal 2 → Won 50%; 1 business won (25% of 4).',
        );
      const funnelChart = tab.getByTestId('team-funnel-chart');
      expect(await funnelChart.locator('.recharts-bar-rectangle').count()).toBe(5);
      expect(await funnelChart.getAttribute('aria-label')).toContain('Pipeline funnel: New 4');
      await tab.getByTestId('team-section-funnel').getByRole('button', { name: 'Show table' }).click();
      expect(
        (await tab.getByTestId('team-funnel-table').locator('tbody tr').allInnerTexts()).map((r) =>
          r.split('\t').map((c) => c.trim()),
        ),
      ).toEqual([
        ['New', '4', '100%'],
        ['Contacted', '4', '75%'],
        ['Meeting set', '3', '67%'],
        ['Proposal', '2', '50%'],
        ['Won', '1', '—'],
      ]);
      // Win rate by score band: the three businesses first called in the period, by their score (0.82, 0.55, 0.31).
      await expect
        .poll(() => tab.getByTestId('team-win-rates-summary').textContent(), POLL)
        .toBe(
          '3 businesses called or visited for the first time; those scored 80-89 were won most often (100%, 1 of 1).',
        );
      const winChart = tab.getByTestId('team-win-rates-chart');
      // Bars drawn for the non-zero rates: 80-89 meeting and won, 50-59 meeting.
      expect(await winChart.locator('.recharts-bar-rectangle').count()).toBe(3);
      await tab.getByTestId('team-section-win-rates').getByRole('button', { name: 'Show table' }).click();
      const bandRows = (
        await tab.getByTestId('team-win-rates-table').locator('tbody tr').allInnerTexts()
      ).map((r) => r.split('\t').map((c) => c.trim()));
      expect(bandRows.filter((r) => r[1] !== '0')).toEqual([
        ['30-39', '1', '0', '0', '0%'],
        ['50-59', '1', '1', '0', '0%'],
        ['80-89', '1', '1', '1', '100%'],
      ]);
      await tab.getByTestId('team-section-win-rates').getByRole('button', { name: 'Show chart' }).click();
      await tab.getByTestId('team-section-funnel').getByRole('button', { name: 'Show chart' }).click();
      await tab.getByTestId('team-section-funnel').scrollIntoViewIfNeeded();
      await ada.page.mouse.move(0, 0);
      await keepScreenshot(ada.page, `team-funnel-${viewport.width}`, { fullPage: false });
      await tab.getByTestId('team-section-win-rates').scrollIntoViewIfNeeded();
      await keepScreenshot(ada.page, `team-win-rates-${viewport.width}`, { fullPage: false });
      // The same businesses by category: all three are dentists; biz-1 won, biz-2 at Proposal.
      await expect
        .poll(() => tab.getByTestId('team-category-wins-summary').textContent(), POLL)
        .toBe('Dentist was won most often (33%, 1 of 3); Dentist set meetings most often (67%).');
      await tab.getByTestId('team-section-category-wins').scrollIntoViewIfNeeded();
      await keepScreenshot(ada.page, `team-category-wins-${viewport.width}`, { fullPage: false });
      await ada.page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(ada.page, `team-${viewport.width}`, { fullPage: false });
      await tab.getByTestId('team-section-map').scrollIntoViewIfNeeded();
      await keepScreenshot(ada.page, `team-map-${viewport.width}`);

      // No axe violations in the tab (charts, tables, map).
      expect(await axeViolations(ada.page, '[data-testid="team-tab"]')).toEqual([]);

      // The table as CSV, written with the product's CSV rules (BOM, CRLF, quoted and formula-guarded cells).
      const [download] = await Promise.all([
        ada.page.waitForEvent('download'),
        tab.getByRole('button', { name: 'Download Activity per rep as CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^team_per_rep_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv.startsWith('\uFEFFRep,Email,Role,Calls,Visits,Saves,Strategies,Follow-ups\r\n')).toBe(true);
      expect(csv).toContain('\r\nRita Rep,rita@example.com,user,3,2,0,0,1\r\n');
      // The funnel's table as CSV too.
      const [funnelDownload] = await Promise.all([
        ada.page.waitForEvent('download'),
        tab.getByRole('button', { name: 'Download Pipeline funnel as CSV' }).click(),
      ]);
      expect(funnelDownload.suggestedFilename()).toMatch(/^team_funnel_/);
      expect(readFileSync(await funnelDownload.path(), 'utf8')).toBe(
        '\uFEFFStage,Businesses,Conversion to the next stage\r\nNew,4,1\r\nContacted,4,0.75\r\n' +
          'Meeting set,3,0.667\r\nProposal,2,0.5\r\nWon,1,\r\n',
      );

      // The printed page: every section's table (the per-day one is a chart on screen), no controls.
      const dailyTable = tab.getByTestId('team-section-daily').locator('table');
      expect(await dailyTable.isVisible()).toBe(false);
      await ada.page.emulateMedia({ media: 'print' });
      expect(await dailyTable.isVisible()).toBe(true);
      expect(await tab.getByTestId('team-daily-chart').isVisible()).toBe(true);
      expect(await tab.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
      expect(await ada.page.getByRole('button', { name: 'Scan Area' }).isVisible()).toBe(false);
      await ada.page.emulateMedia({ media: 'screen' });

      // A rep's page from the dashboard.
      await tab.getByTestId('team-rep-link').filter({ hasText: 'Rita Rep' }).click();
      await expect.poll(() => ada.page.getByTestId('team-rep-name').textContent(), POLL).toBe('Rita Rep');
      // The rep's page has its own address: back and forward move between it and the dashboard, and the
      // address opened anew (a link shared with another admin) shows the same page.
      expect(await ada.page.evaluate(() => window.location.pathname)).toMatch(/^\/team\/reps\/[^/]+$/);
      const ritaPage = ada.page.url();
      await ada.page.goBack();
      await expect.poll(() => tab.getByTestId('team-reps-summary').isVisible(), POLL).toBe(true);
      expect(await ada.page.evaluate(() => window.location.pathname)).toBe('/team');
      await ada.page.goForward();
      await expect.poll(() => ada.page.getByTestId('team-rep-name').textContent(), POLL).toBe('Rita Rep');
      await ada.page.goto(ritaPage);
      await expect.poll(() => ada.page.getByTestId('team-rep-name').textContent(), POLL).toBe('Rita Rep');
      const log = ada.page.getByTestId('team-rep-log').locator('tbody tr');
      await expect.poll(() => log.count(), POLL).toBe(5);
      expect(await log.first().innerText()).toContain('Visited');
      // Rita's pipeline: what she owns now, and the period's changes (three claims by calls, four moves).
      await expect
        .poll(() => ada.page.getByTestId('team-rep-pipeline-summary').textContent(), POLL)
        .toBe('Rita Rep owns 3 businesses now: Contacted 1, Proposal 1, Won 1.');
      await ada.page
        .getByTestId('team-section-rep-pipeline')
        .getByRole('button', { name: 'Show table' })
        .click();
      const owned = await ada.page.getByTestId('team-rep-owned').locator('tbody tr').allInnerTexts();
      expect(
        owned
          .map((r) =>
            r
              .split('\t')
              .slice(0, 2)
              .map((c) => c.trim()),
          )
          .sort(),
      ).toEqual([
        ['Bright Smiles', 'Won'],
        ['Lakeside Dental', 'Proposal'],
        ['Union Dental', 'Contacted'],
      ]);
      const changes = ada.page.getByTestId('team-rep-changes').locator('tbody tr');
      expect(await changes.count()).toBe(7);
      expect(await changes.first().innerText()).toContain('Contacted → Proposal');
      // The whole table fits the screen, a phone's too (no sideways scrolling).
      expect(
        await ada.page
          .getByTestId('team-rep-changes')
          .evaluate((table) => table.getBoundingClientRect().right <= window.innerWidth),
      ).toBe(true);
      // Her route history: two visits in order (the first verified), joined on the map, and in the table.
      await expect
        .poll(() => ada.page.getByTestId('team-rep-route-summary').textContent(), POLL)
        .toBe('2 visits on 1 day, 1 verified.');
      const route = ada.page.getByTestId('team-section-rep-route');
      // The day's line and a dot per visit.
      await expect.poll(() => route.locator('path.leaflet-interactive').count(), POLL).toBe(3);
      await ada.page.mouse.move(0, 0);
      await route.scrollIntoViewIfNeeded();
      await keepScreenshot(ada.page, `team-rep-route-${viewport.width}`, { fullPage: false });
      await route.getByRole('button', { name: 'Show table' }).click();
      const visits = await ada.page.getByTestId('team-rep-route').locator('tbody tr').allInnerTexts();
      expect(visits).toHaveLength(2);
      expect(visits[0]).toMatch(/Bright Smiles\s+Yes$/);
      expect(visits[1]).toMatch(/Lakeside Dental\s+No$/);
      await ada.page.getByTestId('team-section-rep-pipeline').scrollIntoViewIfNeeded();
      await keepScreenshot(ada.page, `team-rep-pipeline-${viewport.width}`, { fullPage: false });
      await ada.page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(ada.page, `team-rep-${viewport.width}`);
      await ada.page.getByRole('button', { name: '← Back to the team' }).click();
      await expect.poll(() => tab.getByTestId('team-reps-summary').isVisible(), POLL).toBe(true);
      expect(ada.pageErrors).toEqual([]);
    } finally {
      await ada.close();
    }
  }
});

it('refuses a rep the tab and the API', async () => {
  const rex = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
  try {
    await registerViaApi(
      server,
      rex,
      { name: 'Rex Rep', email: 'rex@example.com', password: 'rex-pass-123' },
      {
        inviter: owner,
      },
    );
    await rex.page.goto(server.baseUrl);
    await expect.poll(() => rex.page.getByRole('tab', { name: /^Prospects/ }).count(), POLL).toBe(1);
    expect(await teamTab(rex.page).count()).toBe(0);
    for (const path of [
      '/api/team/activity?period=this-week',
      '/api/team/reps/x',
      '/api/team/map',
      '/api/team/funnel',
      '/api/team/win-rates',
      '/api/team/reps/x/pipeline',
      '/api/team/reps/x/route',
    ]) {
      const res = await rex.page.request.get(`${server.baseUrl}${path}`);
      expect(res.status(), path).toBe(403);
    }
  } finally {
    await rex.close();
  }
});
