/**
 * Governance screens in real Chromium against a real embedded runtime: a review-gated action is
 * requested by one user and approved (and so run) by another; a version is published to an
 * environment and rolled back, with the diff between the versions; the reviews list in Japanese.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devIdpAccounts } from '../../local/dev-idp.ts';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

const lead = { email: 'lead@dogu.local', name: 'Operations Lead' };
const base = '/p/demo/e/development';
const actionPath = '/api/v1/projects/demo/actions/approve-demo';

let console_: ConsoleUnderTest;
let admin: Page;
let reviewer: Page;
let token: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const definition = (sql: string) => ({
  id: 'approve-demo',
  name: 'Refund check',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  parameters: [{ name: 'order_id', kind: 'number', label: 'Order number', integer: true, required: true }],
  statements: [{ title: 'Refund', sql }],
  review: { required: true },
});

beforeAll(async () => {
  // The development IdP signs in only its seeded accounts: a second person for the review.
  if (!devIdpAccounts.some((account) => account.email === lead.email)) devIdpAccounts.push(lead);
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  const { services } = console_.runtime;
  const user = await services.store.createUser({
    id: services.ids.next('usr'),
    email: lead.email,
    name: lead.name,
    createdAt: new Date().toISOString(),
  });
  expect(
    (await call('PUT', `/api/v1/projects/demo/members/${user.id}`, { role: 'operations_lead' })).status,
  ).toBe(201);
  expect(
    (
      await call(
        'PUT',
        actionPath,
        definition('SELECT {{ order_id }}::int AS order_id, {{ currentUser.email }} AS requested_by'),
      )
    ).status,
  ).toBe(201);
  const v2 = await call('PUT', actionPath, {
    ...definition(
      "SELECT {{ order_id }}::int AS order_id, {{ currentUser.email }} AS requested_by, 'v2' AS revision",
    ),
    changeMessage: 'Say which revision answered',
  });
  expect(v2.status).toBe(200);
  admin = await console_.newPage();
  admin.setDefaultTimeout(10_000);
  reviewer = await console_.newPage();
  reviewer.setDefaultTimeout(10_000);
  await login(admin);
  await login(reviewer, lead.email);
}, 90_000);

afterAll(async () => {
  await console_?.close();
});

describe('governance screens (Chromium, embedded runtime)', () => {
  let reviewId = '';

  it('the administrator requests a review of a gated action', async () => {
    await admin.goto(`${base}/actions/approve-demo`);
    await admin.getByLabel(/Order number/).fill('1042');
    await admin.getByRole('button', { name: 'Request review' }).click();
    const link = admin.getByRole('link', { name: /Open review request/ });
    await link.waitFor();
    reviewId = decodeURIComponent((await link.getAttribute('href'))!.split('/').at(-1)!);
    const review = await call('GET', `/api/v1/projects/demo/review-requests/${reviewId}`);
    expect(review.body).toMatchObject({ status: 'pending', arguments: { order_id: 1042 }, actionVersion: 2 });
    // The requester cannot approve their own request: the screen offers only to cancel it.
    await link.click();
    await admin.getByText('This is your request: someone else approves it.').waitFor();
    await expect(admin.getByRole('button', { name: 'Approve and run' }).count()).resolves.toBe(0);
  });

  it('another member approves it with a comment and sees the run the approval made', async () => {
    await reviewer.getByRole('link', { name: 'Reviews' }).click();
    const row = reviewer.getByRole('row', { name: /approve-demo v2/ });
    await expect(row.textContent()).resolves.toMatch(/Pending.*Local Administrator/);
    await screenshot(reviewer, 'review-list');
    await row.getByRole('link').click();
    await reviewer.getByRole('heading', { name: 'Review request: approve-demo' }).waitFor();
    await expect(reviewer.locator('.detail-list').textContent()).resolves.toContain('order_id = 1042');
    await reviewer.getByLabel('Comment for the requester').fill('Checked with finance.');
    await screenshot(reviewer, 'review-detail', { fullPage: true });
    await reviewer.getByRole('button', { name: 'Approve and run' }).click();
    await expect.poll(() => reviewer.getByTestId('review-status').textContent()).toBe('Executed');
    // Approval runs as the requester: currentUser.email is the administrator's.
    const cells = await reviewer
      .getByRole('table', { name: 'Refund' })
      .locator('tbody td')
      .evaluateAll((tds) => tds.map((td) => td.textContent));
    expect(cells).toEqual(['1042', 'admin@dogu.local', 'v2']);
    const review = await call('GET', `/api/v1/projects/demo/review-requests/${reviewId}`);
    expect(review.body).toMatchObject({
      status: 'executed',
      decisionComment: 'Checked with finance.',
      decidedBy: { email: lead.email },
    });
    expect(review.body.executionId).toMatch(/^exe_/);
  });

  it('publishes version 1 to development, shows the diff, and rolls back after publishing version 2', async () => {
    await admin.goto(`${base}/actions/approve-demo/versions`);
    await admin.getByRole('heading', { name: 'Versions of approve-demo' }).waitFor();
    const development = admin.locator('tr[data-environment="development"]');
    await expect(development.textContent()).resolves.toContain('The latest version (2)');
    // The diff between the two versions: the SQL line v2 added.
    const sql = admin.getByRole('region', { name: 'statements[0].sql' });
    await expect(sql.locator('.diff-line-added').textContent()).resolves.toContain("'v2' AS revision");

    await admin.getByRole('button', { name: 'Publish v1' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => development.textContent()).toContain('Version 1 (published)');
    let versions = await call('GET', `${actionPath}/versions`);
    expect(versions.body.publications).toMatchObject([{ environmentId: 'development', version: 1 }]);

    await admin.getByRole('button', { name: 'Publish v2' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => development.textContent()).toContain('Version 2 (published)');
    await screenshot(admin, 'versions', { fullPage: true });

    await admin.getByRole('button', { name: 'Roll back to v1' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => development.textContent()).toContain('Version 1 (published)');
    versions = await call('GET', `${actionPath}/versions`);
    expect(versions.body.publications).toMatchObject([{ environmentId: 'development', version: 1 }]);
    // Production was never touched: protected, it runs nothing of this action until a version is published.
    await expect(admin.locator('tr[data-environment="production"]').textContent()).resolves.toContain(
      'Nothing (protected: publish a version)',
    );
  });

  it('reorders an action group with the keyboard buttons and saves the order', async () => {
    await admin.goto(`${base}/action-groups`);
    await admin.getByLabel(/^Id/).fill('daily');
    await admin.getByLabel(/^Name/).fill('Daily checks');
    for (const name of ['Find orders', 'Sales report', 'Refund check']) await admin.getByLabel(name).check();
    await admin.getByRole('button', { name: 'Create group' }).click();
    await admin.getByRole('list', { name: 'Order of Daily checks' }).waitFor();
    await admin.getByRole('button', { name: 'Move Refund check up' }).click();
    await admin.getByRole('button', { name: 'Move Refund check up' }).click();
    await admin.getByRole('button', { name: 'Save order' }).click();
    await expect
      .poll(async () => (await call('GET', '/api/v1/projects/demo/action-groups/daily')).body.actionIds)
      .toEqual(['approve-demo', 'find-orders', 'sales-report']);
    await screenshot(admin, 'action-groups', { fullPage: true });
  });

  it('finds the approval in the audit log', async () => {
    await admin.goto(`${base}/audit-log`);
    await admin.getByLabel(/^Event/).fill('review.');
    await admin.getByRole('button', { name: 'Search' }).click();
    const row = admin.getByRole('row', { name: /review\.approve/ });
    await expect(row.textContent()).resolves.toContain(lead.email);
    await screenshot(admin, 'audit-log');
  });

  it('shows the editor and identity screens', async () => {
    await admin.goto(`${base}/data-sources`);
    await admin.getByRole('row', { name: /demo-postgres/ }).waitFor();
    await screenshot(admin, 'data-sources');
    await admin.goto(`${base}/editor/actions/approve-demo`);
    await expect
      .poll(() => admin.getByLabel('SQL of statement 1', { exact: false }).inputValue())
      .toContain("'v2' AS revision");
    await screenshot(admin, 'action-editor', { fullPage: true });
    await admin.goto(`${base}/variables`);
    await admin.getByRole('heading', { name: 'Secrets', exact: true }).waitFor();
    await screenshot(admin, 'variables');
    await admin.goto(`${base}/members`);
    const member = admin.getByRole('row', { name: new RegExp(lead.email) });
    await expect(member.getByRole('combobox').inputValue()).resolves.toBe('operations_lead');
    await screenshot(admin, 'members', { fullPage: true });
    await admin.goto(`${base}/service-accounts`);
    await admin.getByRole('heading', { name: 'Service accounts' }).waitFor();
    await screenshot(admin, 'service-accounts');
  });

  it('shows the reviews in Japanese', async () => {
    await reviewer.getByLabel('Language').selectOption('ja');
    await reviewer.goto(`${base}/reviews`);
    await reviewer.getByRole('heading', { name: 'レビュー依頼' }).waitFor();
    await reviewer.getByLabel('状態').selectOption('executed');
    await reviewer
      .getByRole('row', { name: /approve-demo v2/ })
      .getByText('実行済み')
      .waitFor();
    await screenshot(reviewer, 'review-list-ja');
  });
});
