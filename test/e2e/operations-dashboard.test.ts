/**
 * The seeded operations dashboard in real Chromium against a real embedded runtime (issue 29): at
 * 1280 px and at 390 px without sideways scrolling; one run of each query per open and exactly one
 * search run per pause in typing; "rows X–Y of N" with the last page; a row opened in the modal,
 * edited, confirmed, saved with a toast and shown updated; a total edited in its cell with the
 * keyboard (the action's refusal shown in the cell first); the CSV download's content; and the
 * dashboard listed inside its action group. Every run the browser sent and the server answered is
 * counted. Writes the screenshots of docs/views.md "The operations dashboard".
 */
import { readFile } from 'node:fs/promises';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
const viewPath = `${base}/views/operations-dashboard`;
let console_: ConsoleUnderTest;
let page: Page;

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
const argumentsOf = (actionId: string) => runsOf(actionId).map((r) => r.body.arguments);

/** Long enough for a duplicate run (an effect or a debounce firing again) to show up. */
const settle = () => page.waitForTimeout(1500);
/** Generous: two cores shared by several test processes. */
const poll = { timeout: 20_000 };

const table = () => page.locator('[data-component="orders_table"] table.view-table');
const bodyRows = () => table().locator('tbody tr');
const pagerText = () => page.locator('[data-component="orders_table"] .view-table-pager span').innerText();
const noSidewaysScroll = () =>
  page.evaluate<boolean>('document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth');

async function openDashboard() {
  await page.goto(viewPath);
  await expect.poll(() => bodyRows().count(), poll).toBe(20);
  await page.getByRole('img', { name: 'Line chart: Orders per day' }).waitFor();
  await page.getByRole('img', { name: 'Bar chart: Revenue by status (¥)' }).waitFor();
}

beforeAll(async () => {
  console_ = await startConsole();
  page = await console_.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  page.on('response', record);
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 180_000);

afterAll(async () => {
  await console_?.close();
});

describe('the operations dashboard at 1280 px', () => {
  it('opens with two charts and the orders table, one run of each query, rows 1–20 of 300', async () => {
    runs.length = 0;
    await openDashboard();
    await settle();
    expect(runs.map((r) => `${r.actionId} ${r.status}`).sort()).toEqual([
      'lookup-orders 200',
      'orders-per-day 200',
      'revenue-by-status 200',
    ]);
    expect(argumentsOf('lookup-orders')).toEqual([{ q: '', limit: 20, offset: 0 }]);
    expect(await pagerText()).toBe('Rows 1–20 of 300');
    // Newest first: order 300 leads.
    expect((await bodyRows().first().locator('td').first().innerText()).trim()).toBe('300');
    expect(await noSidewaysScroll()).toBe(true);
    // The charts sit side by side.
    const line = await page.locator('[data-component="orders_chart"]').boundingBox();
    const bars = await page.locator('[data-component="revenue_chart"]').boundingBox();
    expect(bars!.x).toBeGreaterThan(line!.x + line!.width - 1);
    await screenshot(page, 'views-operations-dashboard', { fullPage: true });
  });

  it('goes to the last page and back to the first through the total count', async () => {
    runs.length = 0;
    await page.getByRole('button', { name: 'Last page (15)' }).click();
    await expect.poll(pagerText, poll).toBe('Rows 281–300 of 300');
    expect((await bodyRows().first().locator('td').first().innerText()).trim()).toBe('20');
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'First page' }).click();
    await expect.poll(pagerText, poll).toBe('Rows 1–20 of 300');
    expect(argumentsOf('lookup-orders')).toEqual([
      { q: '', limit: 20, offset: 280 },
      { q: '', limit: 20, offset: 0 },
    ]);
  });

  it('searches as the viewer types: exactly one run per search, after the pause', async () => {
    runs.length = 0;
    const box = page.getByLabel('Search orders');
    await box.pressSequentially('Customer 7', { delay: 50 });
    await expect.poll(() => runsOf('lookup-orders').length, poll).toBe(1);
    await settle();
    expect(argumentsOf('lookup-orders')).toEqual([{ q: 'Customer 7', limit: 20, offset: 0 }]);
    await expect
      .poll(
        async () =>
          (await table().locator('tbody td:nth-child(2)').allInnerTexts()).every((s) => s === 'Customer 7'),
        poll,
      )
      .toBe(true);
    const found = await bodyRows().count();
    expect(found).toBeGreaterThan(0);
    await expect.poll(pagerText, poll).toBe(`Rows 1–${found} of ${found}`);

    // A second search (the order number) is one more run, again once the typing pauses.
    // Typing over the selected text: the box never holds '' in between.
    await box.selectText();
    await box.pressSequentially('123', { delay: 50 });
    await expect.poll(() => runsOf('lookup-orders').length, poll).toBe(2);
    await settle();
    expect(argumentsOf('lookup-orders').at(-1)).toEqual({ q: '123', limit: 20, offset: 0 });
    expect(runsOf('lookup-orders')).toHaveLength(2);
    await expect.poll(() => bodyRows().count(), poll).toBe(1);
    expect(await pagerText()).toBe('Rows 1–1 of 1');
    expect(runs.filter((r) => r.status >= 400)).toEqual([]);
    // Nothing but the search ran.
    expect(runs.every((r) => r.actionId === 'lookup-orders')).toBe(true);
  });

  it('opens the row in a modal, saves the edit after a confirmation, shows a toast and the updated row', async () => {
    runs.length = 0;
    const row = bodyRows().first();
    await row.locator('td').nth(1).click();
    const modal = page.getByRole('dialog', { name: 'Order 123' });
    await modal.waitFor();
    const status = modal.getByLabel('Status');
    await expect.poll(() => status.inputValue(), poll).not.toBe('');
    await status.selectOption('delivered');
    await modal.getByLabel('Total (¥)').fill('12345');
    await screenshot(page, 'views-operations-edit');
    await modal.getByRole('button', { name: 'Save' }).click();

    const confirm = page.getByRole('dialog', { name: /^Run update-order in Development/ });
    await expect.poll(() => confirm.innerText(), poll).toContain('Save order 123 as delivered, ¥12345?');
    expect(runsOf('update-order')).toEqual([]);
    await confirm.getByRole('button', { name: 'Run', exact: true }).click();

    await expect
      .poll(() => page.locator('.toasts').innerText(), poll)
      .toContain('Saved order 123: delivered');
    await expect.poll(() => page.getByRole('dialog').count(), poll).toBe(0);
    await expect.poll(() => row.innerText(), poll).toMatch(/delivered\s+Edit Total \(¥\):\s+12,345/);
    expect(runsOf('update-order')).toEqual([
      {
        actionId: 'update-order',
        status: 200,
        body: {
          arguments: { order_id: 123, status: 'delivered', total_yen: 12345 },
          source: { viewId: 'operations-dashboard' },
          confirm: true,
        },
      },
    ]);
    await settle();
    // The save refreshed the table and the revenue chart, once each.
    expect(runsOf('lookup-orders')).toHaveLength(1);
    expect(runsOf('revenue-by-status')).toHaveLength(1);
  });

  it('edits a total in its cell with the keyboard, shows a refusal in the cell, then saves', async () => {
    runs.length = 0;
    const cell = table().getByRole('button', { name: 'Edit Total (¥): 12,345' });
    await cell.focus();
    await page.keyboard.press('F2');
    const input = table().getByRole('spinbutton', { name: 'New Total (¥)' });
    await expect.poll(() => input.evaluate((el) => el === el.ownerDocument.activeElement), poll).toBe(true);
    // Escape cancels: nothing runs.
    await page.keyboard.press('Escape');
    await expect.poll(() => input.count(), poll).toBe(0);
    await expect.poll(() => cell.evaluate((el) => el === el.ownerDocument.activeElement), poll).toBe(true);

    await page.keyboard.press('Enter');
    await input.fill('-5');
    await page.keyboard.press('Enter');
    // A changing action run by the viewer: asked first (the confirmation dialog names it).
    const confirm = page.getByRole('dialog', { name: 'Run Update order in Development?' });
    await confirm.getByRole('button', { name: 'Run and change data' }).click();
    const problem = page.locator('.view-cell-editor .view-problem');
    await expect.poll(() => problem.innerText(), poll).toMatch(/total_yen|Total/);
    expect(runsOf('update-order').at(-1)?.status).toBe(422);
    expect(await input.isVisible()).toBe(true);
    await screenshot(page, 'views-inline-edit');

    await input.fill('777');
    await page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: 'Run and change data' }).click();
    await expect.poll(() => input.count(), poll).toBe(0);
    await expect
      .poll(() => bodyRows().first().innerText(), poll)
      .toMatch(/delivered\s+Edit Total \(¥\):\s+777/);
    const saved = runsOf('update-order').filter((r) => r.status === 200);
    expect(saved.map((r) => r.body)).toEqual([
      {
        arguments: { order_id: 123, status: 'delivered', total_yen: 777 },
        source: { viewId: 'operations-dashboard' },
        confirm: true,
      },
    ]);
    // The table's query ran again on its page after the save, once.
    await settle();
    expect(argumentsOf('lookup-orders')).toEqual([{ q: '123', limit: 20, offset: 0 }]);
  });

  it('exports the shown rows as CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('orders_table.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe('Order,Customer,Status,Total (¥),Ordered at');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^123,Customer \d+,delivered,777,2026-/);
  });
});

describe('the operations dashboard at 390 px', () => {
  it('stacks the charts and never scrolls the page sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openDashboard();
    expect(await noSidewaysScroll()).toBe(true);
    const line = await page.locator('[data-component="orders_chart"]').boundingBox();
    const bars = await page.locator('[data-component="revenue_chart"]').boundingBox();
    expect(Math.abs(bars!.x - line!.x)).toBeLessThan(2);
    expect(bars!.y).toBeGreaterThan(line!.y);
    await screenshot(page, 'views-operations-phone');
    // Opening the modal there keeps the page from scrolling sideways too.
    await bodyRows().first().locator('td').nth(1).click();
    await page.getByRole('dialog').waitFor();
    expect(await noSidewaysScroll()).toBe(true);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('inside its action group', () => {
  it('is listed in the Operations group on the groups screen, the group screen and the action list', async () => {
    await page.goto(`${base}/action-groups`);
    await page.getByRole('button', { name: 'Operations' }).click();
    const inGroup = page.getByRole('list', { name: 'Views in this group' });
    await expect.poll(() => inGroup.innerText(), poll).toContain('Operations dashboard');
    await screenshot(page, 'views-in-action-group');

    await page.goto(`${base}/action-groups/operations`);
    await expect
      .poll(() => page.getByRole('list', { name: 'Views in this group' }).innerText(), poll)
      .toContain('Operations dashboard');

    await page.goto(`${base}/actions`);
    const section = page.getByRole('region', { name: 'Operations' });
    await expect.poll(() => section.innerText(), poll).toContain('Operations dashboard');
    expect(await section.innerText()).toContain('Look up orders');
    await section.getByRole('link', { name: /Operations dashboard/ }).click();
    await page.waitForURL(/\/views\/operations-dashboard$/);
    await expect.poll(() => bodyRows().count(), poll).toBe(20);
  });
});
