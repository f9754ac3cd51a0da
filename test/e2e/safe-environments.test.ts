/**
 * Issue 25's two stories in real Chromium, one browser session:
 * 1. A developer who may not run `admin-only-ship` saves a view whose query runs it on load. An
 *    administrator opens it: in the protected production it shows nothing (nothing published, with a
 *    Publish button); in development the query is refused in place (it changes data and nobody
 *    clicked). Order 7 is never shipped.
 * 2. A newcomer's first save does not reach production: the action screen says so and publishes
 *    version 1 with one button; a data-changing action run from the console asks first, naming the
 *    action, the environment and the arguments.
 * 3. The Environments screen (project settings) protects and unprotects with the keyboard, asking
 *    before production loses its protection; a direct member sees it read-only and is told to ask
 *    for a publish, until a user group that may publish lists them: then the Publish button is theirs.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devIdpAccounts } from '../../local/dev-idp.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let page: Page;
let adminToken: string;
let developerToken: string;

async function call(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const project = '/api/v1/projects/demo';
const orderStatus = async (orderId: number) =>
  (
    await call(
      adminToken,
      'POST',
      '/public/v1/projects/demo/environments/development/actions/order-detail/executions',
      {
        arguments: { order_id: orderId },
      },
    )
  ).body.results[0].rows[0].status as string;

// The development IdP signs in only its seeded accounts: a member who publishes through a group.
const groupPublisher = { email: 'publisher25@dogu.local', name: 'Group Publisher' };

beforeAll(async () => {
  if (!devIdpAccounts.some((account) => account.email === groupPublisher.email))
    devIdpAccounts.push(groupPublisher);
  console_ = await startConsole();
  adminToken = await loginToken(console_.runtime);
  const developer: Principal = { kind: 'user', id: 'usr_dev25', email: 'dev25@example.com', name: 'Dev' };
  await console_.runtime.services.store.createUser({ ...developer, createdAt: new Date().toISOString() });
  await console_.runtime.services.store.putMembership({
    projectId: 'demo',
    principalId: developer.id,
    role: 'developer',
  });
  developerToken = (await console_.runtime.services.tokens.issue(developer, 3600)).token;
  // The administrators' shipping action: only admins may run it; it changes data.
  const ship = await call(adminToken, 'PUT', `${project}/actions/admin-only-ship`, {
    id: 'admin-only-ship',
    name: 'Ship (admins only)',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [{ name: 'order_id', kind: 'number', required: true }],
    permission: { mode: 'restricted', roles: ['admin'] },
    statements: [
      { title: 'Ship', sql: "UPDATE orders SET status = 'shipped' WHERE id = {{ order_id }} RETURNING id" },
    ],
  });
  expect(ship.status, JSON.stringify(ship.body)).toBe(201);
  await call(adminToken, 'PUT', `${project}/actions/admin-only-ship/publications/production`, { version: 1 });
  page = await console_.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await login(page, 'admin@dogu.local', '/p/demo/e/development/views');
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

describe('a view cannot act for its viewer', () => {
  it('the developer saves it; the admin opens it in production and development; order 7 is not shipped', async () => {
    const before = await orderStatus(7);
    expect(before).not.toBe('shipped');
    const saved = await call(developerToken, 'PUT', `${project}/views/ship-seven`, {
      id: 'ship-seven',
      name: 'Ship seven',
      definition: {
        kind: 'visual',
        parameters: [],
        queries: [{ id: 'ship', actionId: 'admin-only-ship', arguments: { order_id: '7' }, runOn: 'load' }],
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [{ id: 'rows', type: 'table', title: 'Shipped', query: 'ship' }],
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);

    // Production is protected and nothing of the view is published: nothing shows, nothing runs.
    await page.goto('/p/demo/e/production/views/ship-seven');
    const notice = page.locator('.not-published');
    await expect.poll(() => notice.innerText()).toContain('Nothing of this view is published to Production');
    expect(await notice.innerText()).toContain('Production is protected');
    await notice.getByRole('button', { name: 'Publish version 1 to Production' }).waitFor();

    // Development shows the latest: the on-load query is refused in place, nobody clicked.
    await page.goto('/p/demo/e/development/views/ship-seven');
    const table = page.locator('[data-component="rows"]');
    await expect.poll(() => table.innerText()).toMatch(/changes data/);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Published to production by the admin, it still cannot ship on load there.
    await page.goto('/p/demo/e/production/views/ship-seven');
    await page.getByRole('button', { name: 'Publish version 1 to Production' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => page.locator('[data-component="rows"]').innerText()).toMatch(/changes data/);
    expect(await orderStatus(7)).toBe(before);
    const runs = await call(
      adminToken,
      'GET',
      `${project}/audit-log?target=admin-only-ship&event=execution.run`,
    );
    expect(runs.body.data.every((entry: { outcome: string }) => entry.outcome !== 'succeeded')).toBe(true);
  });
});

describe("a newcomer's save does not reach production unseen", () => {
  it('production says nothing is published and publishes version 1 with one button; changing runs are confirmed', async () => {
    const saved = await call(adminToken, 'PUT', `${project}/actions/first-steps`, {
      id: 'first-steps',
      name: 'First steps',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      parameters: [{ name: 'note', kind: 'text', required: true }],
      statements: [
        { title: 'Note', sql: "UPDATE orders SET status = status WHERE id = -1 AND {{ note }} <> ''" },
      ],
    });
    expect(saved.status).toBe(201);
    await page.goto('/p/demo/e/production/actions/first-steps');
    const notice = page.locator('.not-published');
    await expect
      .poll(() => notice.innerText())
      .toContain('Nothing of this action is published to Production');
    expect(await page.getByRole('button', { name: 'Run', exact: true }).isDisabled()).toBe(true);
    await notice.getByRole('button', { name: 'Publish version 1 to Production' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => page.locator('.not-published').count()).toBe(0);
    await expect.poll(() => page.locator('.action-meta').innerText()).toContain('Changes data');

    await page.getByLabel(/note/i).first().fill('hello');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Run First steps in Production?' });
    expect(await confirm.innerText()).toContain('note\nhello');
    await confirm.getByRole('button', { name: 'Run and change data' }).click();
    await expect.poll(() => page.locator('.run-outcome').innerText()).toMatch(/Succeeded|0 rows/);
    const versions = await call(adminToken, 'GET', `${project}/actions/first-steps/versions`);
    expect(versions.body.publications).toMatchObject([{ environmentId: 'production', version: 1 }]);
  });
});

describe('the Environments screen and publishing through a user group', () => {
  it('protects and unprotects production (asked first); a member publishes once a group lets them', async () => {
    const protectedOf = async (id: string) =>
      (await call(adminToken, 'GET', `${project}/environments`)).body.data.find(
        (e: { id: string }) => e.id === id,
      ).protected as boolean;

    // The admin reaches the screen from the side navigation.
    await page.goto('/p/demo/e/development/actions');
    await page.getByRole('navigation').getByRole('link', { name: 'Environments' }).click();
    await page.getByRole('heading', { name: 'Environments', level: 1 }).waitFor();
    const production = page.locator('tr[data-environment-row="production"]');
    expect(await production.innerText()).toContain('Protected');

    // Keyboard only: Enter on the button opens the confirmation, Escape leaves production protected.
    const unprotect = production.getByRole('button', { name: 'Stop protecting Production' });
    await unprotect.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Stop protecting Production?' });
    expect(await dialog.innerText()).toContain('without anyone publishing it');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await protectedOf('production')).toBe(true);

    await unprotect.focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Stop protecting' }).click();
    await production.getByRole('button', { name: 'Protect Production' }).waitFor();
    expect(await production.innerText()).toContain('Not protected');
    expect(await protectedOf('production')).toBe(false);
    const audit = await call(adminToken, 'GET', `${project}/audit-log?event=environment.update`);
    expect(audit.body.data[0]).toMatchObject({ outcome: 'succeeded', target: { id: 'production' } });

    // Protecting needs no confirmation: the safe direction.
    await production.getByRole('button', { name: 'Protect Production' }).focus();
    await page.keyboard.press('Enter');
    const again = production.getByRole('button', { name: 'Stop protecting Production' });
    await again.waitFor();
    expect(await protectedOf('production')).toBe(true);
    // The keyboard stays where it was: on the same row's button, now saying the opposite.
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe(
      'Stop protecting Production',
    );

    // A direct member: the screen is read-only and says why; nothing published, ask someone.
    const { services } = console_.runtime;
    const user = await services.store.createUser({
      id: 'usr_publisher25',
      email: groupPublisher.email,
      name: groupPublisher.name,
      createdAt: new Date().toISOString(),
    });
    await services.store.putMembership({ projectId: 'demo', principalId: user.id, role: 'member' });
    const saved = await call(adminToken, 'PUT', `${project}/actions/group-publish`, {
      id: 'group-publish',
      name: 'Group publish',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      statements: [{ title: 'One', sql: 'SELECT 1 AS one' }],
    });
    expect(saved.status).toBe(201);
    const member = await console_.newPage();
    member.setDefaultTimeout(10_000);
    await login(member, groupPublisher.email, '/p/demo/e/production/settings/environments');
    const note = member.getByRole('note');
    await expect
      .poll(() => note.innerText())
      .toContain("your roles (Member) lack the right 'manage_project'");
    expect(await member.locator('tr[data-environment-row="production"]').getByRole('button').count()).toBe(0);
    await member.goto('/p/demo/e/production/actions/group-publish');
    const notice = member.locator('.not-published');
    await expect.poll(() => notice.innerText()).toContain('Ask someone who may publish versions');
    expect(await notice.getByRole('button').count()).toBe(0);

    // A user group with a development lead's role lists the member: still a member directly, the
    // projects list says so, yet the notice offers Publish and the publication goes through.
    const group = await call(adminToken, 'PUT', `${project}/user-groups/publishers`, {
      id: 'publishers',
      name: 'Publishers',
      role: 'development_lead',
      members: [user.id],
    });
    expect(group.status).toBe(201);
    await member.reload();
    await notice.getByRole('button', { name: 'Publish version 1 to Production' }).click();
    await member.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => member.locator('.not-published').count()).toBe(0);
    const versions = await call(adminToken, 'GET', `${project}/actions/group-publish/versions`);
    expect(versions.body.publications).toMatchObject([{ environmentId: 'production', version: 1 }]);
  });
});
