/**
 * Views on a phone and in a wide window (real Chromium, real embedded runtime, the demo's views):
 * at 1280 px the orders view's 2-column grid shows its columns side by side; at 390 px they stack
 * and the page never scrolls sideways (a wide table scrolls inside its own box).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
let console_: ConsoleUnderTest;
let page: Page;

beforeAll(async () => {
  console_ = await startConsole();
  page = await console_.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

/** Left and top of the root grid's first two children. */
async function firstTwoBoxes() {
  const children = page.locator('.view-grid').first().locator(':scope > *');
  await expect.poll(() => children.count()).toBeGreaterThanOrEqual(2);
  const a = await children.nth(0).boundingBox();
  const b = await children.nth(1).boundingBox();
  if (!a || !b) throw new Error('grid children are not shown');
  return { a, b };
}

const overflow = () =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));

async function openOrders() {
  await page.goto(`${base}/views/orders`);
  await expect.poll(() => page.locator('[data-component="orders_table"] table tbody tr').count()).toBe(20);
}

describe('views at 1280 px and at 390 px', () => {
  it('shows a 2-column grid side by side at 1280 px', async () => {
    await openOrders();
    const { a, b } = await firstTwoBoxes();
    expect(b.x).toBeGreaterThan(a.x + a.width - 1);
    expect(Math.abs(b.y - a.y)).toBeLessThan(2);
  });

  it('stacks the grid and never scrolls the page sideways at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openOrders();
    const { a, b } = await firstTwoBoxes();
    expect(Math.abs(b.x - a.x)).toBeLessThan(2);
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
    expect(a.width).toBeLessThanOrEqual(390);
    const orders = await overflow();
    expect(orders.scrollWidth).toBeLessThanOrEqual(orders.innerWidth);

    // A row click fills the detail and the form; the page still fits.
    await page.locator('[data-component="orders_table"] table tbody tr').first().click();
    await expect.poll(() => page.locator('[data-component="order_detail"]').innerText()).toMatch(/\d/);
    const afterClick = await overflow();
    expect(afterClick.scrollWidth).toBeLessThanOrEqual(afterClick.innerWidth);

    // The code view (its frame) and the list of views fit too.
    await page.goto(`${base}/views/sales-dashboard`);
    await page.locator('iframe').first().waitFor();
    const dashboard = await overflow();
    expect(dashboard.scrollWidth).toBeLessThanOrEqual(dashboard.innerWidth);
    await page.goto(`${base}/views`);
    await page.getByRole('link', { name: 'Orders', exact: true }).first().waitFor();
    const list = await overflow();
    expect(list.scrollWidth).toBeLessThanOrEqual(list.innerWidth);
  });
});
