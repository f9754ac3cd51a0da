/**
 * JavaScript in the console (real Chromium, embedded runtime): the script editor with line numbers
 * and the actions the script may call, and a run that shows the console output and the result.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let page: Page;

beforeAll(async () => {
  console_ = await startConsole();
  page = await console_.newPage();
}, 90_000);

afterAll(async () => {
  await console_?.close();
});

describe('JavaScript actions in the console (Chromium)', () => {
  it('edits the script beside the list of actions it may call', async () => {
    await login(page, 'admin@dogu.local', '/p/demo/e/development/editor/actions/orders-digest');
    const script = page.getByLabel(/^Script/);
    await expect.poll(() => script.inputValue()).toContain("actions.run('find-orders'");
    const callable = page.getByRole('complementary', { name: 'Actions this script may call' });
    await callable.getByRole('button', { name: 'find-orders' }).waitFor();
    await expect(callable.getByRole('button', { name: 'orders-digest' }).count()).resolves.toBe(0);
    expect(await page.locator('.script-gutter').first().textContent()).toMatch(/^1\n2\n3/);
    await screenshot(page, 'javascript-editor', { fullPage: true });
  });

  it('runs the script and shows its console output and result', async () => {
    await page.goto(`${console_.url}/p/demo/e/development/actions/orders-digest`);
    await page.getByRole('heading', { name: 'Orders digest (JavaScript)' }).waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const logs = page.getByRole('region', { name: 'Console output' });
    await logs.waitFor();
    expect(await logs.locator('pre').textContent()).toMatch(
      /^find-orders returned \d+ orders since 2026-03-01$/,
    );
    const table = page.getByRole('table', { name: 'Orders digest (JavaScript)' });
    await table.waitFor();
    const statuses = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('td')?.textContent));
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(['paid', 'shipped', 'delivered']).toContain(status);
    await screenshot(page, 'javascript-run', { fullPage: true });
  });
});
