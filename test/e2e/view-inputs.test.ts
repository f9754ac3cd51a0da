/**
 * Standalone inputs, toasts and the author's confirmation in real Chromium against a real embedded
 * runtime (issue 29): a search box whose value a `load` query reads runs that query once per pause
 * in typing, never once per key; a button's action asks the author's question first and shows a
 * toast after it succeeded. Every run the browser sent and the server answered is counted.
 */
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;

const runs: { actionId: string; status: number; body: Record<string, unknown> }[] = [];
const runPath = /\/public\/v1\/projects\/demo\/environments\/development\/actions\/([^/]+)\/executions$/;

function record(response: Response) {
  const request = response.request();
  const match = runPath.exec(new URL(response.url()).pathname);
  if (request.method() === 'POST' && match) {
    runs.push({
      actionId: decodeURIComponent(match[1]!),
      status: response.status(),
      body: JSON.parse(request.postData() ?? '{}'),
    });
  }
}
const runsOf = (actionId: string) => runs.filter((r) => r.actionId === actionId);

/** Long enough for a duplicate run (a timer or an effect firing again) to show up. */
const settle = () => page.waitForTimeout(1500);

const view = {
  id: 'inputs-e2e',
  name: 'Inputs e2e',
  definition: {
    kind: 'visual',
    parameters: [],
    queries: [
      {
        id: 'orders',
        actionId: 'search-orders',
        arguments: { customer: 'components.search1.value' },
        runOn: 'load',
      },
    ],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 1,
      children: [
        { id: 'search1', type: 'input', inputType: 'text', label: 'Customer search' },
        { id: 'echo', type: 'text', content: 'Searching: {{ components.search1.value }}' },
        {
          id: 'open3',
          type: 'button',
          label: 'Load order 3',
          events: [
            {
              type: 'runAction',
              actionId: 'order-detail',
              arguments: { order_id: '3' },
              confirm: 'Load order {{ 1 + 2 }}?',
              onSuccess: [{ type: 'toast', message: 'Order of {{ result[0].customer }} loaded' }],
            },
          ],
        },
        {
          id: 't1',
          type: 'table',
          query: 'orders',
          columns: [{ field: 'id' }, { field: 'customer' }],
          rowClick: [{ type: 'openModal', modal: 'order1' }],
        },
        {
          id: 'order1',
          type: 'modal',
          title: 'Order {{ components.t1.value.id }}',
          children: [{ id: 'who', type: 'text', content: 'Customer: {{ components.t1.value.customer }}' }],
        },
      ],
    },
  },
};

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  const response = await fetch(`${console_.url}/api/v1/projects/demo/views/${view.id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(view),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
  page = await console_.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  page.on('response', record);
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

describe('search as you type', () => {
  it('runs the search once on open and once per pause in typing', async () => {
    runs.length = 0;
    await page.goto(`${base}/views/${view.id}`);
    const rows = page.locator('[data-component="t1"] table tbody tr');
    await settle();
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    expect(runsOf('search-orders').map((r) => r.body.arguments)).toEqual([{ customer: '' }]);

    const box = page.getByLabel('Customer search');
    await box.pressSequentially('er 1', { delay: 60 });
    // The value is there at once; the query waits for the pause.
    await expect.poll(() => page.locator('[data-component="echo"]').innerText()).toBe('Searching: er 1');
    await expect.poll(() => runsOf('search-orders').length).toBe(2);
    await settle();
    expect(runsOf('search-orders').map((r) => r.body.arguments)).toEqual([
      { customer: '' },
      { customer: 'er 1' },
    ]);
    for (const name of await page.locator('[data-component="t1"] tbody td:nth-child(2)').allInnerTexts()) {
      expect(name.toLowerCase()).toContain('er 1');
    }

    await box.pressSequentially('5', { delay: 60 });
    await expect.poll(() => runsOf('search-orders').length).toBe(3);
    await settle();
    expect(runsOf('search-orders').at(-1)?.body.arguments).toEqual({ customer: 'er 15' });
    expect(runs.filter((r) => r.status >= 400)).toEqual([]);
  });
});

describe('a modal opened by a row click', () => {
  it('shows the clicked row, traps focus, closes on Escape and gives focus back to the row', async () => {
    runs.length = 0;
    const row = page.locator('[data-component="t1"] tbody tr').first();
    const id = (await row.locator('td').first().innerText()).trim();
    await row.click();
    const dialog = page.getByRole('dialog', { name: `Order ${id}` });
    await expect.poll(() => dialog.innerText()).toContain('Customer: Customer');
    expect(
      await page.evaluate(
        "document.querySelector('[role=dialog]')?.contains(document.activeElement) ?? false",
      ),
    ).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        "document.querySelector('[role=dialog]')?.contains(document.activeElement) ?? false",
      ),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await row.evaluate((el) => el.matches(':focus'))).toBe(true);
    // Opening and closing ran nothing.
    await settle();
    expect(runs).toEqual([]);
  });
});

describe('confirm before and toast after an action', () => {
  it("asks the author's question, runs once confirmed, then shows the toast", async () => {
    runs.length = 0;
    await page.getByRole('button', { name: 'Load order 3' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toContain('Load order 3?');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await settle();
    expect(runsOf('order-detail')).toEqual([]);

    await page.getByRole('button', { name: 'Load order 3' }).click();
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    const toasts = page.locator('.toasts');
    await expect.poll(() => toasts.innerText()).toMatch(/Order of .+ loaded/);
    expect(runsOf('order-detail')).toEqual([
      {
        actionId: 'order-detail',
        status: 200,
        body: { arguments: { order_id: 3 }, source: { viewId: view.id }, confirm: true },
      },
    ]);
  });
});
