/**
 * How many times a visual view runs its queries, in real Chromium against a real embedded runtime
 * (issue 29): opening a view runs each on-load query once and one search runs one more; a query
 * whose required arguments are still empty waits instead of sending a run the server refuses
 * (no 422s on first use); a table's selected row is `components.<table>.value` without any
 * "On row click" event. Every run the browser sent and the server answered is counted.
 */
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;

/** Every action run the page sent, as the server answered it: action id and HTTP status. */
const runs: { actionId: string; status: number }[] = [];
const runPath = /\/public\/v1\/projects\/demo\/environments\/development\/actions\/([^/]+)\/executions$/;

function record(response: Response) {
  const request = response.request();
  const match = runPath.exec(new URL(response.url()).pathname);
  if (request.method() === 'POST' && match) {
    runs.push({ actionId: decodeURIComponent(match[1]!), status: response.status() });
  }
}

const runsOf = (actionId: string) => runs.filter((r) => r.actionId === actionId);
const refused = () => runs.filter((r) => r.status >= 400);

/** Long enough for a duplicate run (an effect firing again after a re-render) to show up. */
const settle = () => page.waitForTimeout(1500);

async function putView(view: unknown) {
  const response = await fetch(`${console_.url}/api/v1/projects/demo/views/${(view as { id: string }).id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(view),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
}

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  page = await console_.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  page.on('response', record);
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

describe('runs per interaction', () => {
  it('opening the demo orders view runs search-orders once; one search runs it once more', async () => {
    runs.length = 0;
    await page.goto(`${base}/views/orders`);
    const table = page.locator('[data-component="orders_table"] table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(20);
    await settle();
    expect(runsOf('search-orders')).toEqual([{ actionId: 'search-orders', status: 200 }]);
    // The manual query (order detail) did not run by itself.
    expect(runsOf('order-detail')).toEqual([]);

    await page.getByLabel('Status').selectOption('paid');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(async () =>
        (await table.locator('tbody td:nth-child(3)').allInnerTexts()).every((s) => s === 'paid'),
      )
      .toBe(true);
    await settle();
    expect(runsOf('search-orders')).toHaveLength(2);
    expect(refused()).toEqual([]);

    // Another search with the same values is another run (the viewer asked for it), exactly one.
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => runsOf('search-orders').length).toBe(3);
    await settle();
    expect(runsOf('search-orders')).toHaveLength(3);
  });
  it("the builder's preview runs an edited query once per pause in typing, and not for layout edits", async () => {
    await page.goto(`${base}/views-new/visual`);
    runs.length = 0;
    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties.getByRole('button', { name: 'Add query' }).click();
    const query = properties.getByRole('group', { name: 'Query query1' });
    await query.getByLabel('Action').selectOption('search-orders');
    await expect.poll(() => runsOf('search-orders').length).toBe(1);
    // Typed a key at a time: one run once the typing pauses, not one per key.
    const typed = "customer: ''\nstatus: 'paid'";
    await query.getByLabel(/^Arguments/).pressSequentially(typed, { delay: 40 });
    await expect.poll(() => runsOf('search-orders').length).toBeGreaterThanOrEqual(2);
    await settle();
    // One run per pause: a loaded machine can stall the browser past the 400 ms pause once while
    // typing (one more run), never anywhere near one run per key.
    const afterTyping = runsOf('search-orders').length;
    expect(afterTyping).toBeLessThanOrEqual(3);

    // Layout edits do not change the query: nothing runs again.
    await page
      .getByRole('complementary', { name: 'Components' })
      .getByRole('button', { name: '+ Table' })
      .click();
    await properties.getByLabel('Query', { exact: true }).first().selectOption('query1');
    await properties.getByLabel(/^Columns \(field/).fill('id | Order\nstatus');
    const previewRows = page.locator('.builder-preview table.view-table tbody tr');
    await expect.poll(() => previewRows.count()).toBeGreaterThan(0);
    expect(await previewRows.first().innerText()).toContain('paid');
    await settle();
    expect(runsOf('search-orders')).toHaveLength(afterTyping);
    expect(refused()).toEqual([]);
  });
});

describe('a query waits for its required arguments', () => {
  it('a new query in the builder sends nothing until its action and its required argument are there', async () => {
    runs.length = 0;
    await page.goto(`${base}/views-new/visual`);
    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties.getByRole('button', { name: 'Add query' }).click();
    await page
      .getByRole('complementary', { name: 'Components' })
      .getByRole('button', { name: '+ Detail' })
      .click();
    await properties.getByLabel('Query', { exact: true }).first().selectOption('query1');
    const detail = page.locator('.builder-preview [data-component="detail1"]');
    await expect
      .poll(() => detail.innerText())
      .toContain('Waits for an action to be chosen for query query1');

    const query = properties.getByRole('group', { name: 'Query query1' });
    await query.getByLabel('Action').selectOption('order-detail');
    await expect.poll(() => detail.innerText()).toContain('Waits for its arguments: order_id');
    await settle();
    expect(runs).toEqual([]);

    await query.getByLabel(/^Arguments/).fill('order_id: 3');
    await expect.poll(() => detail.innerText()).toMatch(/customer[\s\S]*status/i);
    await settle();
    expect(runsOf('order-detail')).toEqual([{ actionId: 'order-detail', status: 200 }]);
    expect(refused()).toEqual([]);
  });

  it('a view opened without its argument waits, and runs once the argument is applied', async () => {
    await putView({
      id: 'vr-wait',
      name: 'Waits for an order',
      definition: {
        kind: 'visual',
        parameters: [{ name: 'id', kind: 'number', label: 'Order' }],
        queries: [
          { id: 'order', actionId: 'order-detail', arguments: { order_id: 'panel.args.id' }, runOn: 'load' },
        ],
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [{ id: 'detail', type: 'detail', query: 'order' }],
        },
      },
    });
    runs.length = 0;
    await page.goto(`${base}/views/vr-wait`);
    const detail = page.locator('[data-component="detail"]');
    await expect.poll(() => detail.innerText()).toContain('Waits for its arguments: order_id');
    await settle();
    expect(runs).toEqual([]);

    await page.getByRole('form', { name: 'View arguments' }).getByLabel('Order').fill('4');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => detail.innerText()).toMatch(/status/);
    await settle();
    expect(runs).toEqual([{ actionId: 'order-detail', status: 200 }]);
  });
});

describe('table selection without an event', () => {
  it('a clicked row (or Enter on it) is components.<table>.value; a query waiting for it runs once', async () => {
    await putView({
      id: 'vr-select',
      name: 'Select a row',
      definition: {
        kind: 'visual',
        parameters: [],
        queries: [
          {
            id: 'orders',
            actionId: 'search-orders',
            arguments: { customer: "''", status: "''", limit: '5' },
            runOn: 'load',
          },
          {
            id: 'order',
            actionId: 'order-detail',
            arguments: { order_id: 'components.t1.value.id' },
            runOn: 'load',
          },
        ],
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [
            { id: 't1', type: 'table', query: 'orders', columns: [{ field: 'id' }, { field: 'customer' }] },
            { id: 'picked', type: 'text', content: "Picked: {{ components.t1.value?.customer ?? 'none' }}" },
            { id: 'd1', type: 'detail', query: 'order', fields: [{ field: 'id' }, { field: 'customer' }] },
          ],
        },
      },
    });
    runs.length = 0;
    await page.goto(`${base}/views/vr-select`);
    const rows = page.locator('[data-component="t1"] tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
    const picked = page.locator('[data-component="picked"]');
    expect(await picked.innerText()).toContain('Picked: none');
    const detail = page.locator('[data-component="d1"]');
    // Nothing selected yet: the query waits for the row; no error about "id".
    await expect.poll(() => detail.innerText()).toContain('Waits for its arguments: order_id');
    expect(await page.locator('.view-root').innerText()).not.toContain('is not defined here');
    await settle();
    expect(runsOf('order-detail')).toEqual([]);

    const second = rows.nth(1);
    const [id, customer] = (await second.locator('td').allInnerTexts()).map((s) => s.trim());
    await second.click();
    await expect.poll(() => picked.innerText()).toContain(`Picked: ${customer}`);
    expect(await second.getAttribute('aria-current')).toBe('true');
    await expect.poll(() => detail.innerText()).toContain(customer!);
    expect(await detail.innerText()).toContain(id!);
    await settle();
    expect(runsOf('order-detail')).toEqual([{ actionId: 'order-detail', status: 200 }]);
    expect(runsOf('search-orders')).toHaveLength(1);

    // The keyboard way: focus another row, Enter.
    const third = rows.nth(2);
    const thirdCustomer = (await third.locator('td').nth(1).innerText()).trim();
    await third.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => picked.innerText()).toContain(`Picked: ${thirdCustomer}`);
    expect(await third.getAttribute('aria-current')).toBe('true');
    expect(await second.getAttribute('aria-current')).toBeNull();
    expect(await page.locator('.view-root').innerText()).not.toContain('is not defined here');
  });
});
