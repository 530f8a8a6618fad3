// The first user registers (no code, becomes SuperAdmin), generates an invitation, a second
// person registers with it in a separate browser profile, signs out and signs in again. Plus the sign-in
// screen's messages, the session restored on reload and the password reset through the e-mailed link.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import * as msg from '../../src/core/messages.js';
import { keepScreenshot, openBrowser, registerViaApi, startServer, type TestServer } from './harness.js';

// Each test has its own server and database, so the first-user rule applies afresh.
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server?.close();
});

const header = (page: Page) => page.locator('header.app-header');

async function fillRegistration(
  page: Page,
  user: { name: string; email: string; password: string; confirm?: string },
) {
  await page.getByLabel(/^Name/).fill(user.name);
  await page.getByLabel(/^Email/).fill(user.email);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByLabel(/^Confirm Password/).fill(user.confirm ?? user.password);
}

/** The welcome dialog opens for a new user; tick "Don't show this again" and get started. */
async function closeWelcome(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Welcome to Prospect Finder' });
  await dialog.waitFor();
  await dialog.getByLabel("Don't show this again").check();
  await dialog.getByRole('button', { name: 'Get Started' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The install prompt follows 3 s later; "Don't Ask Again" is remembered for the user. */
async function refuseInstall(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Install Prospect Finder' });
  await dialog.waitFor({ timeout: 10_000 });
  // Headless Chromium offers no install prompt: the manual instructions are shown instead.
  await dialog.getByTestId('install-instructions').waitFor();
  await dialog.getByRole('button', { name: "Don't Ask Again" }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('accounts in the browser', () => {
  it('first user, invitation, second user in a fresh profile, sign out and in again', async () => {
    const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'first-pass-1' };
    const rep = { name: 'Rex Rep', email: 'rex@example.com', password: 'second-pass-2' };

    // --- First user: registers without a code and becomes SuperAdmin.
    const one = await openBrowser(server.baseUrl);
    try {
      const page = one.page;
      await page.goto(server.baseUrl);
      await page.getByRole('heading', { name: 'Sign In' }).waitFor();
      await keepScreenshot(page, 'sign-in-1440');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByRole('heading', { name: 'Create Account' }).waitFor();
      await fillRegistration(page, { ...admin, confirm: 'something-else' });
      await page.getByText(msg.PASSWORDS_DO_NOT_MATCH).first().waitFor();
      await page.getByLabel(/^Confirm Password/).fill(admin.password);
      await page.getByRole('button', { name: 'Create Account' }).click();

      await header(page).waitFor();
      await header(page).getByText('AI-Powered Prospect Discovery').waitFor();
      await header(page).getByText(admin.name).waitFor();
      await header(page).getByText('SuperAdmin').waitFor();
      for (const button of ['New Search', 'Help', 'Logout']) {
        await header(page).getByRole('button', { name: button }).waitFor();
      }
      await closeWelcome(page);
      await refuseInstall(page);
      await keepScreenshot(page, 'main-superadmin-1440');

      // The session survives a reload (GET /api/me), and the dismissed dialogs stay dismissed.
      await page.reload();
      await header(page).getByText(admin.name).waitFor();
      await page.waitForTimeout(3500);
      expect(await page.getByRole('dialog').count()).toBe(0);

      // --- An invitation, generated with the admin's session.
      const created = await page.request.post(`${server.baseUrl}/api/invitations`, { data: {} });
      expect(created.status()).toBe(201);
      const { invitation, link } = (await created.json()) as { invitation: { code: string }; link: string };
      expect(link).toBe(`${server.baseUrl}/?invite=${invitation.code}`);

      // --- Second user, in a separate browser profile, from the invitation link.
      const two = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
      try {
        const p2 = two.page;
        await p2.goto(`${server.baseUrl}/?invite=NOT-A-REAL-CODE`);
        await p2.getByRole('heading', { name: 'Create Account' }).waitFor();
        await p2.getByTestId('invite-status').getByText(msg.INVITATION_INVALID).waitFor();

        await p2.goto(link);
        await p2.getByRole('heading', { name: 'Create Account' }).waitFor();
        expect(await p2.getByLabel('Invitation Code').inputValue()).toBe(invitation.code);
        await p2.getByTestId('invite-status').getByText(msg.INVITATION_VALID).waitFor();
        // Every change is validated again.
        await p2.getByLabel('Invitation Code').fill(`${invitation.code}X`);
        await p2.getByTestId('invite-status').getByText(msg.INVITATION_INVALID).waitFor();
        await p2.getByLabel('Invitation Code').fill(invitation.code);
        await p2.getByTestId('invite-status').getByText(msg.INVITATION_VALID).waitFor();
        await keepScreenshot(p2, 'register-375');

        await fillRegistration(p2, rep);
        await p2.getByRole('button', { name: 'Create Account' }).click();
        await header(p2).getByText(rep.name).waitFor();
        await header(p2).getByText('User', { exact: true }).waitFor();
        await closeWelcome(p2);
        await refuseInstall(p2);
        await keepScreenshot(p2, 'main-user-375');
        // The page is no wider than the phone.
        expect(await p2.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

        // The code is used now.
        const check = await p2.request.get(
          `${server.baseUrl}/api/invitations/check?code=${encodeURIComponent(invitation.code)}`,
        );
        expect(await check.json()).toEqual({ valid: false, message: msg.INVITATION_USED });

        // --- Sign out, then sign in again.
        await header(p2).getByRole('button', { name: 'Logout' }).click();
        await p2.getByRole('heading', { name: 'Sign In' }).waitFor();
        const me = await p2.request.get(`${server.baseUrl}/api/me`);
        expect(me.status()).toBe(401);

        await p2.getByLabel(/^Email/).fill(` ${rep.email.toUpperCase()} `);
        await p2.getByLabel(/^Password/).fill('wrong-password');
        await p2.getByRole('button', { name: 'Sign In' }).click();
        await p2.getByTestId('auth-error').getByText(msg.WRONG_PASSWORD).waitFor();

        // Show/hide password toggles the field type.
        const password = p2.getByLabel(/^Password/);
        await password.fill(rep.password);
        expect(await password.getAttribute('type')).toBe('password');
        await p2.getByRole('button', { name: 'Show or hide password' }).click();
        expect(await password.getAttribute('type')).toBe('text');

        await p2.getByRole('button', { name: 'Sign In' }).click();
        await header(p2).getByText(rep.name).waitFor();
        // Preferences were saved in the profile: no welcome and no install prompt this time.
        await p2.waitForTimeout(3500);
        expect(await p2.getByRole('dialog').count()).toBe(0);
        expect(two.pageErrors).toEqual([]);
      } finally {
        await two.close();
      }
      expect(one.pageErrors).toEqual([]);
    } finally {
      await one.close();
    }
  });

  it('shows the forgot-password messages and resets the password through the e-mailed link', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      // A user to reset, after a first user (created through the API) invited them.
      const first = await page.request.post(`${server.baseUrl}/api/register`, {
        data: {
          name: 'Ada',
          email: 'ada@example.com',
          password: 'first-pass-1',
          confirmPassword: 'first-pass-1',
        },
      });
      expect(first.status()).toBe(201);
      const inv = await page.request.post(`${server.baseUrl}/api/invitations`, { data: {} });
      const code = ((await inv.json()) as { invitation: { code: string } }).invitation.code;
      await page.request.post(`${server.baseUrl}/api/auth/sign-out`, {
        data: {},
        headers: { origin: server.baseUrl },
      });
      const reg = await page.request.post(`${server.baseUrl}/api/register`, {
        data: {
          name: 'Forgetful Fay',
          email: 'fay@example.com',
          password: 'old-password-1',
          confirmPassword: 'old-password-1',
          invitationCode: code,
        },
      });
      expect(reg.status()).toBe(201);
      await b.context.clearCookies();

      await page.goto(server.baseUrl);
      await page.getByRole('button', { name: 'Forgot password' }).click();
      await page.getByTestId('auth-error').getByText(msg.FORGOT_PASSWORD_NEEDS_EMAIL).waitFor();
      await page.getByLabel(/^Email/).fill('fay@example.com');
      await page.getByRole('button', { name: 'Forgot password' }).click();
      await page.getByTestId('auth-info').getByText(msg.RESET_EMAIL_SENT).waitFor();

      const mail = server.mail.find((m) => m.to === 'fay@example.com');
      const url = mail?.text.match(/https?:\/\/\S+/)?.[0];
      expect(url).toBeTruthy();
      await page.goto(url!);
      await page.waitForURL(/\/reset-password\?token=/);
      await page.getByLabel(/^New Password/).fill('new-password-2');
      await page.getByLabel(/^Confirm Password/).fill('new-password-2');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText('Your password has been changed').waitFor();

      await page.getByRole('link', { name: 'Back to sign in' }).click();
      await page.getByLabel(/^Email/).fill('fay@example.com');
      await page.getByLabel(/^Password/).fill('new-password-2');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await header(page).getByText('Forgetful Fay').waitFor();
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('works from an address other than PUBLIC_URL: sign-out sticks, and failures are shown', async () => {
    // The browser opens http://127.0.0.1:PORT while PUBLIC_URL names another host (a phone on the LAN IP).
    await server.close();
    server = await startServer({
      PUBLIC_URL: 'http://prospects.example:3000',
      INVITATION_CHECK_RATE_LIMIT: '2',
    });
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      const root = await page.request.get(`${server.baseUrl}/`);
      expect(root.headers()['content-type']).toContain('text/html');
      expect(root.headers()['content-security-policy']).toContain("default-src 'self'");
      expect(root.headers()['x-content-type-options']).toBe('nosniff');

      await registerViaApi(server, b, { name: 'Lan Lee', email: 'lan@example.com', password: 'lan-pass-12' });
      await page.goto(server.baseUrl);
      await header(page).getByText('Lan Lee').waitFor();

      // A sign-out that fails keeps the user signed in and says why.
      await page.route('**/api/session', (route) =>
        route.request().method() === 'DELETE' ? route.abort('connectionfailed') : route.continue(),
      );
      await header(page).getByRole('button', { name: 'Logout' }).click();
      await page.getByTestId('notice').getByText(msg.NETWORK_ERROR).waitFor();
      await header(page).getByText('Lan Lee').waitFor();
      await page.unroute('**/api/session');

      // A real one ends the session for good: a reload stays signed out.
      await header(page).getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('heading', { name: 'Sign In' }).waitFor();
      expect((await b.context.cookies()).filter((c) => c.name.includes('session_token'))).toEqual([]);
      await page.reload();
      await page.getByRole('heading', { name: 'Sign In' }).waitFor();
      expect((await page.request.get(`${server.baseUrl}/api/me`)).status()).toBe(401);

      // Signing in from this address works too.
      await page.getByLabel(/^Email/).fill('lan@example.com');
      await page.getByLabel(/^Password/).fill('lan-pass-12');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await header(page).getByText('Lan Lee').waitFor();
      await header(page).getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('heading', { name: 'Sign In' }).waitFor();

      // Invitation checks past the rate limit: 'Error validating invitation code'.
      await page.getByRole('button', { name: 'Create Account' }).click();
      const code = page.getByLabel('Invitation Code');
      const status = page.getByTestId('invite-status');
      await code.fill('AAAA-AAAA');
      await status.getByText(msg.INVITATION_INVALID).waitFor();
      await code.fill('AAAA-AAAB');
      await status.getByText(msg.INVITATION_INVALID).waitFor();
      await code.fill('AAAA-AAAC');
      await status.getByText(msg.INVITATION_ERROR).waitFor();
      // And for a server error.
      await page.route('**/api/invitations/check*', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
      );
      await code.fill('AAAA-AAAD');
      await status.getByText(msg.INVITATION_ERROR).waitFor();
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
