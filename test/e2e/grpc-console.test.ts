/**
 * A gRPC action made in the console (real Chromium, embedded runtime with the demo gRPC service):
 * the method chosen from the data source's list fills the request template, the action is saved
 * and run, and the reply is shown as a table with its 64-bit integer exact.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let page: Page;
const base = '/p/demo/e/development';

beforeAll(async () => {
  console_ = await startConsole();
  page = await console_.newPage();
  await login(page);
}, 150_000);

afterAll(async () => {
  await console_?.close();
});

describe('gRPC action in the console (Chromium)', () => {
  it('lists the unary methods, fills the request template, saves and runs', async () => {
    await page.goto(`${base}/editor/actions/new`);
    await page.getByLabel(/^Id/).fill('order-by-console');
    await page.getByLabel(/^Name/).fill('Order by console');
    await page.getByLabel(/^Data source/).selectOption('demo-grpc');
    await page.getByRole('button', { name: 'Choose from the data source' }).click();
    const picker = page.getByRole('combobox', { name: 'Choose from the data source' });
    await picker.waitFor();
    const offered = await picker.locator('option').allTextContents();
    expect(offered).toEqual([
      'Choose one of 2…',
      'shop.v1.OrderService/GetOrder',
      'shop.v1.OrderService/ListOrders',
    ]);
    await picker.selectOption('shop.v1.OrderService/GetOrder');
    expect(await page.getByLabel(/^Method/).inputValue()).toBe('GetOrder');
    expect(await page.getByLabel(/^Service/).inputValue()).toBe('shop.v1.OrderService');
    const request = page.getByLabel(/^Request \(JSON\)/);
    expect(JSON.parse(await request.inputValue())).toEqual({ id: '', includeItems: false });
    await screenshot(page, 'grpc-action-editor', { fullPage: true });

    await request.fill('{"id": "ord-1002", "includeItems": true}');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/editor/actions/order-by-console'));

    await page.goto(`${base}/actions/order-by-console`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // Dogu cannot see that it only reads (gRPC) / an upload changes data: the console asks first.
    await page.getByRole('dialog').getByRole('button', { name: 'Run and change data' }).click();
    const table = page.getByRole('table', { name: 'Order by console' });
    await table.waitFor();
    const headers = await table.locator('thead th').allTextContents();
    // Each header shows the column's name and type; the int64 column is text, kept exact.
    expect(headers.slice(0, 3)).toEqual(['id text', 'customer text', 'totalCents text']);
    const cells = await table.locator('tbody tr').first().locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['ord-1002', 'ben@example.com', '9007199254740993']);
  });
});
