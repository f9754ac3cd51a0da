/**
 * Accounts in real Chromium against a real embedded runtime: the administrator signs in with the
 * demo password, invites a colleague on the users page and copies the link; the colleague sets a
 * password (a weak one refused with the reason), changes it, and is signed out when disabled; a
 * used link says so; the seeded reviewer approves the administrator's review request; run now.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../../local/accounts-startup.ts';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, passwordSignIn, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let admin: Page;
let token: string;
let invitationUrl = '';

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  admin = await console_.newPage();
  // 20 s: in a full run these pages load beside CDK bundling on 2 cores (10 s ran out once).
  admin.setDefaultTimeout(20_000);
}, 90_000);

afterAll(async () => {
  await console_?.close();
});

describe('accounts (Chromium, embedded runtime)', () => {
  it('the administrator signs in with e-mail and the demo password; a wrong password is refused', async () => {
    await admin.goto('/');
    await screenshot(admin, 'sign-in');
    await admin.getByLabel(/^E-mail address/).fill('admin@dogu.local');
    await admin.getByLabel(/^Password/).fill('not the password');
    await admin.getByRole('button', { name: 'Sign in', exact: true }).click();
    await admin.getByRole('alert').getByText('The e-mail address or the password is wrong.').waitFor();
    await passwordSignIn(admin, 'admin@dogu.local', demoPassword);
    await expect(admin.locator('.user-name').textContent()).resolves.toBe('Local Administrator');
  });

  it('invites a colleague on the users page and shows the link to copy', async () => {
    await admin.locator('.user-menu summary').click();
    await admin.getByRole('link', { name: 'Users' }).click();
    await admin.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await admin.getByLabel(/^E-mail address/).fill('sora@example.com');
    await admin.getByLabel(/^Name/).fill('Sora');
    await admin.getByRole('button', { name: 'Invite' }).click();
    const link = admin.getByRole('status').locator('input');
    await link.waitFor();
    invitationUrl = await link.inputValue();
    expect(invitationUrl).toMatch(new RegExp(`^${console_.url}/invitations/[\\w-]{40,}$`));
    await admin
      .getByRole('row', { name: /sora@example\.com/ })
      .getByText('Invited')
      .waitFor();
    await screenshot(admin, 'users', { fullPage: true });
    const members = await call('POST', '/api/v1/projects/demo/members', {
      email: 'sora@example.com',
      role: 'member',
    });
    expect(members.status).toBe(201);
  });

  it('the colleague sets a password through the link (a weak one is refused), then cannot reuse it', async () => {
    const sora = await console_.newPage();
    sora.setDefaultTimeout(20_000);
    await sora.goto(invitationUrl);
    await sora.getByText('You were invited to Dogu as sora@example.com').waitFor();
    await sora.getByLabel(/^New password/).fill('password1234');
    await sora.getByLabel(/^Repeat the password/).fill('password1234');
    await sora.getByRole('button', { name: 'Set password and sign in' }).click();
    await sora
      .getByRole('alert')
      .getByText(/commonly used/)
      .first()
      .waitFor();
    await sora.getByLabel(/^New password/).fill('blue kite over the harbour');
    await sora.getByLabel(/^Repeat the password/).fill('blue kite over the harbour');
    await screenshot(sora, 'accept-invitation');
    await sora.getByRole('button', { name: 'Set password and sign in' }).click();
    await sora.locator('.app-header').waitFor();
    await expect(sora.locator('.user-name').textContent()).resolves.toBe('Sora');

    const other = await console_.newPage();
    await other.goto(invitationUrl);
    await other.getByText('This invitation has been used already. Sign in with your password.').waitFor();
    const japanese = await console_.newPage({ locale: 'ja-JP' });
    await japanese.goto(invitationUrl);
    await japanese.getByText('この招待はすでに使われています。パスワードでログインしてください。').waitFor();
    await japanese.getByRole('link', { name: 'ログイン画面へ' }).click();
    await japanese.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
    await japanese.getByRole('button', { name: 'シングルサインオンでログイン' }).waitFor();
    await screenshot(japanese, 'sign-in-ja');
  });

  it('changes the password on the account page; the new one signs in', async () => {
    const sora = await console_.newPage();
    sora.setDefaultTimeout(20_000);
    await passwordSignIn(sora, 'sora@example.com', 'blue kite over the harbour');
    await sora.goto('/account');
    await sora.getByLabel(/^Current password/).fill('blue kite over the harbour');
    await sora.getByLabel(/^New password/).fill('red kite under the bridge');
    await sora.getByRole('button', { name: 'Change password' }).click();
    await sora.getByText('Your password was changed. Your other sessions have ended.').waitFor();
    // This session continues with its renewed cookie and CSRF token.
    await sora.getByRole('link', { name: 'Back to the console' }).click();
    await sora.locator('.app-header').waitFor();
    const fresh = await console_.newPage();
    fresh.setDefaultTimeout(20_000);
    await passwordSignIn(fresh, 'sora@example.com', 'red kite under the bridge');
    await fresh.goto('/account');
    await fresh.getByRole('heading', { name: 'Your account' }).waitFor();

    // Disabled by the administrator: the open session is refused at its next request.
    await admin
      .getByRole('row', { name: /sora@example\.com/ })
      .getByRole('button', { name: 'Disable' })
      .click();
    await admin
      .getByRole('row', { name: /sora@example\.com/ })
      .getByText('Disabled')
      .waitFor();
    await fresh.getByRole('link', { name: 'Back to the console' }).click();
    await fresh.getByText('Your session has ended. Sign in again to continue.').waitFor();
    await fresh.getByLabel(/^E-mail address/).fill('sora@example.com');
    await fresh.getByLabel(/^Password/).fill('red kite under the bridge');
    await fresh.getByRole('button', { name: 'Sign in', exact: true }).click();
    await fresh
      .getByRole('alert')
      .getByText(/disabled/)
      .waitFor();
  });

  it("the seeded reviewer approves the administrator's review request", async () => {
    const actionPath = '/api/v1/projects/demo/actions/refund-check';
    const put = await call('PUT', actionPath, {
      id: 'refund-check',
      name: 'Refund check',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      parameters: [
        { name: 'order_id', kind: 'number', label: 'Order number', integer: true, required: true },
      ],
      statements: [
        {
          title: 'Refund',
          sql: 'SELECT {{ order_id }}::int AS order_id, {{ currentUser.email }} AS requested_by',
        },
      ],
      review: { required: true },
    });
    expect(put.status).toBe(201);
    await admin.goto('/p/demo/e/development/actions/refund-check');
    await admin.getByLabel(/^Order number/).fill('77');
    await admin.getByRole('button', { name: 'Request review' }).click();
    await admin.getByRole('link', { name: /Open review request/ }).waitFor();

    const reviewer = await console_.newPage();
    reviewer.setDefaultTimeout(20_000);
    await passwordSignIn(reviewer, 'reviewer@dogu.local', demoPassword);
    await reviewer.getByRole('link', { name: 'Reviews' }).click();
    await reviewer
      .getByRole('row', { name: /refund-check/ })
      .getByRole('link')
      .first()
      .click();
    await reviewer.getByRole('button', { name: 'Approve and run' }).click();
    await expect.poll(() => reviewer.getByTestId('review-status').textContent()).toBe('Executed');
  });

  it('runs a cron job now; the run shows in its history as run by hand', async () => {
    const jobs = await call('GET', '/api/v1/projects/demo/environments/development/cron-jobs');
    const job = jobs.body.data.find((j: { name: string }) => j.name === 'Weekday sales report');
    await admin.goto(`/p/demo/e/development/cron-jobs/${job.id}`);
    await admin.getByRole('button', { name: 'Run now' }).click();
    await admin.getByText('Run now by admin@dogu.local').waitFor();
    await screenshot(admin, 'cron-run-now', { fullPage: true });
    const runs = await call('GET', `/api/v1/projects/demo/environments/development/cron-jobs/${job.id}/runs`);
    expect(runs.body.data[0]).toMatchObject({
      status: 'completed',
      manual: { by: { email: 'admin@dogu.local' } },
    });
  });

  it('configures single sign-on on the users page: a failing discovery names its step', async () => {
    await admin.goto('/admin/users');
    const form = admin.getByRole('form', { name: 'Single sign-on' });
    await form.getByLabel(/^Issuer URL/).fill('http://127.0.0.1:9/nothing');
    await form.getByLabel(/^Client ID/).fill('dogu-console');
    await form.getByLabel(/^Allowed e-mail domains/).fill('example.com');
    await form.getByRole('button', { name: 'Save provider' }).click();
    await form
      .getByRole('alert')
      .getByText(/discovery step/)
      .first()
      .waitFor();
    await form.getByLabel(/^Issuer URL/).fill(console_.runtime.devIdpIssuer!);
    await form.getByLabel(/^Projects newcomers join/).fill('demo: member');
    await form.getByRole('button', { name: 'Save provider' }).click();
    await admin.getByText('The single sign-on provider was saved.').waitFor();
    const saved = await call('GET', '/api/v1/sso-provider');
    expect(saved.body).toMatchObject({
      issuer: console_.runtime.devIdpIssuer,
      allowedDomains: ['example.com'],
      defaultMemberships: [{ projectId: 'demo', role: 'member' }],
    });
    await screenshot(admin, 'sso-provider', { fullPage: true });
    await form.getByRole('button', { name: 'Remove provider' }).click();
    await admin.getByText('The single sign-on provider was removed.').waitFor();
    expect((await call('GET', '/api/v1/sso-provider')).status).toBe(404);
  });
});
