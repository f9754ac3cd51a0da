/**
 * Views on a phone and in a wide window (real Chromium, real embedded runtime, the demo's views):
 * at 1280 px the orders view's 2-column grid shows its columns side by side; at 390 px they stack
 * and the page never scrolls sideways (a wide table scrolls inside its own box). Then a view's
 * version history: a change is saved, the diff shows it, and the view is rolled back by keyboard.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
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
  page.evaluate<{ scrollWidth: number; innerWidth: number }>(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
  );

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
    await page.goto(`${base}/views/orders/versions`);
    await page.getByRole('table', { name: 'Saved versions' }).waitFor();
    const versions = await overflow();
    expect(versions.scrollWidth).toBeLessThanOrEqual(versions.innerWidth);
  });
});

describe('a view’s version history in the console', () => {
  it('shows the diff of a change and rolls the view back to the earlier version, by keyboard', async () => {
    await page.setViewportSize({ width: 1280, height: 860 });
    const token = await loginToken(console_.runtime);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const viewPath = `${console_.url}/api/v1/projects/demo/views/orders`;
    const head = (await (await fetch(viewPath, { headers })).json()) as Record<string, unknown>;
    const before = head.version as number;
    // Someone renames the view (a new version, no one published it: development follows the latest).
    const {
      projectId: _p,
      version: _v,
      createdAt: _c,
      updatedAt: _u,
      updatedBy: _b,
      compiled: _x,
      ...input
    } = head;
    const renamed = await fetch(viewPath, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ ...input, name: 'Orders (renamed)', changeMessage: 'Rename' }),
    });
    expect(renamed.status).toBe(200);

    await page.goto(`${base}/views/orders`);
    await page.getByRole('heading', { name: 'Orders (renamed)' }).waitFor();
    await page.getByRole('link', { name: 'Versions' }).click();
    const table = page.getByRole('table', { name: 'Saved versions' });
    await table.locator(`tr[data-version="${before + 1}"]`, { hasText: 'Rename' }).waitFor();
    const diff = page.getByRole('region', {
      name: `Differences from version ${before} to version ${before + 1}`,
    });
    await expect
      .poll(() => diff.locator('[data-kind="removed"]').allInnerTexts())
      .toEqual([expect.stringContaining('"name": "Orders"')]);
    await expect
      .poll(() => diff.locator('[data-kind="added"]').allInnerTexts())
      .toEqual([expect.stringContaining('"name": "Orders (renamed)"')]);

    // Keyboard only: focus the rollback button, press Enter, confirm with Enter.
    await table.getByRole('button', { name: `Roll back to v${before}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Roll back to version ${before}?` });
    await dialog.getByRole('button', { name: 'Roll back' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(`Version ${before} saved again as version ${before + 2}.`).waitFor();
    await table
      .locator(`tr[data-version="${before + 2}"]`, { hasText: `Rolled back to version ${before}` })
      .waitFor();

    const after = (await (await fetch(viewPath, { headers })).json()) as Record<string, unknown>;
    expect(after.version).toBe(before + 2);
    expect(after.name).toBe('Orders');
    expect(after.definition).toEqual(head.definition);
    await page.goto(`${base}/views/orders`);
    await page.getByRole('heading', { name: 'Orders', exact: true, level: 1 }).waitFor();
    await expect.poll(() => page.locator('[data-component="orders_table"] table tbody tr').count()).toBe(20);
  });
});
