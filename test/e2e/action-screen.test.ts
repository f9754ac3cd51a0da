/**
 * The generated action screen in real Chromium against a real embedded runtime: SSO login through
 * the built-in IdP, a run with arguments checked against the demo database, inline validation
 * from the API's 422, image results, the CSV download, and the Japanese UI.
 */
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';
import { solidPng } from './support/png.ts';

let console_: ConsoleUnderTest;
let page: Page;

async function demoQuery<T extends Record<string, unknown>>(
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client(console_.runtime.demo.database);
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** The visible body rows of the first result table, as text per cell. */
async function tableRows(target: Page, tableName: string): Promise<string[][]> {
  const table = target.getByRole('table', { name: tableName });
  await table.waitFor();
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
    );
}

beforeAll(async () => {
  console_ = await startConsole();
  page = await console_.newPage();
  // The demo's product images live on the internet; serve a local PNG in their place.
  const png = solidPng(32, 20, [37, 87, 214]);
  await page
    .context()
    .route('https://placehold.co/**', (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: png }),
    );
}, 90_000);

afterAll(async () => {
  await console_?.close();
});

describe('action screen (Chromium, embedded runtime)', () => {
  it('signs in through the IdP and lands on the action list of the demo project', async () => {
    await login(page);
    expect(new URL(page.url()).pathname).toBe('/p/demo/e/development/actions');
    await page.getByRole('link', { name: /Find orders/ }).waitFor();
    expect(await page.locator('.user-name').textContent()).toBe('Local Administrator');
    await screenshot(page, 'action-list');
  });

  it('search narrows the list', async () => {
    await page.getByPlaceholder('Search by name, id or description').fill('gallery');
    await expect(page.locator('.action-card').count()).resolves.toBe(1);
    await page.getByPlaceholder('Search by name, id or description').fill('');
  });

  it('runs Find orders with arguments and shows the rows the database holds', async () => {
    await page.getByRole('link', { name: /Find orders/ }).click();
    await page.getByRole('heading', { name: 'Find orders' }).waitFor();
    // Statuses: only "Delivered"; minimum total 5000; sort by total; limit 4.
    await page.getByLabel('Paid', { exact: true }).uncheck();
    await page.getByLabel('Shipped', { exact: true }).uncheck();
    await page.getByLabel('Delivered', { exact: true }).check();
    await page.getByLabel(/Minimum total/).fill('5000');
    await page.getByLabel(/Sort by/).selectOption({ label: 'Total' });
    await page.getByLabel(/^Limit/).fill('4');
    await page.getByRole('button', { name: 'Run', exact: true }).click();

    const rows = await tableRows(page, 'Orders');
    const expected = await demoQuery<{ id: number; customer: string; total_yen: number }>(
      `SELECT o.id, c.name AS customer, o.total_yen FROM orders o JOIN customers c ON c.id = o.customer_id
       WHERE o.status = 'delivered' AND o.total_yen >= 5000 AND o.ordered_at >= DATE '2026-03-01'
       ORDER BY o.total_yen LIMIT 4`,
    );
    expect(expected.length).toBe(4);
    expect(rows.map((cells) => [Number(cells[0]), cells[1], cells[2], Number(cells[3])])).toEqual(
      expected.map((row) => [row.id, row.customer, 'delivered', row.total_yen]),
    );
    await expect(page.locator('.results .status').first().textContent()).resolves.toBe('Succeeded');
    await screenshot(page, 'action-screen', { fullPage: true });
  });

  it("shows the API's validation message next to the input it concerns", async () => {
    await page.getByLabel(/^Limit/).fill('5000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const limit = page.getByLabel(/^Limit/);
    await expect.poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await limit.getAttribute('aria-describedby'))!.split(' ');
    const message = await page.locator(`[id="${describedBy.at(-1)}"]`).textContent();
    expect(message).toMatch(/limit/i);
    expect(message).toMatch(/1000/);
    await page.getByLabel(/^Limit/).fill('4');
  });

  it('downloads the statement shown as CSV without running the action again', async () => {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const shown = await tableRows(page, 'Orders');
    const apiCalls: string[] = [];
    const recordCall = (request: { method(): string; url(): string }) =>
      apiCalls.push(`${request.method()} ${new URL(request.url()).pathname}`);
    page.on('request', recordCall);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const [jsonDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    page.off('request', recordCall);
    expect(apiCalls.filter((call) => call.includes('/executions'))).toEqual([]);
    const executionId = (await page.locator('.results-header .mono').textContent())!;
    expect(JSON.parse(await readFile((await jsonDownload.path())!, 'utf8')).id).toBe(executionId);
    expect(download.suggestedFilename()).toBe(`find-orders-${executionId}.csv`);
    expect(download.suggestedFilename()).toMatch(/^find-orders-exe_[0-9a-f]+\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('id,customer,status,total_yen,ordered_at');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 4))).toEqual(
      shown.map((cells) => cells.slice(0, 4)),
    );
  });

  it('runs the same arguments as a job and shows them on the execution screen when it finishes', async () => {
    const shown = await tableRows(page, 'Orders');
    await page.getByRole('button', { name: 'Run as a job' }).click();
    await page.waitForURL(/\/p\/demo\/e\/development\/executions\/exe_[0-9a-f]+$/);
    await expect
      .poll(() => page.getByTestId('execution-status').textContent(), { timeout: 40_000 })
      .toBe('Succeeded');
    expect(await tableRows(page, 'Orders')).toEqual(shown);
    // A loaded CI machine: the job is queued, run and polled once a second.
  }, 60_000);

  it("a failed query shows the server's message inline, in the user's language, with the form kept", async () => {
    await page.goto('/p/demo/e/development/actions/orders-where');
    const condition = page.getByLabel(/WHERE condition/);
    await condition.fill("staus = 'paid'");
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const banner = page.locator('.error-banner');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toMatch(/The data source reported an error.*staus/);
    // The statement's own error reads as text, the rest of the console still stands.
    await expect(page.locator('.statement .notice-error').textContent()).resolves.toMatch(
      /^This statement failed: .*staus/,
    );
    await expect(condition.inputValue()).resolves.toBe("staus = 'paid'");
    await expect(page.getByRole('heading', { name: 'Orders matching raw SQL' }).count()).resolves.toBe(1);

    await condition.fill('true ORDER BY id LIMIT -5 --');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => banner.textContent()).toMatch(/LIMIT must not be negative/);
    await expect(condition.inputValue()).resolves.toBe('true ORDER BY id LIMIT -5 --');

    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('button', { name: '実行', exact: true }).click();
    await expect.poll(() => banner.textContent()).toMatch(/^データソースがエラーを返しました/);
    await expect(page.locator('.statement .notice-error').textContent()).resolves.toMatch(
      /^このステートメントは失敗しました: /,
    );
    await page.getByLabel('言語').selectOption('en');
  });

  it('a refused connection is shown inline too', async () => {
    // A data source whose database port answers nothing: the run fails with the driver's reason.
    const created = await page.evaluate<number>(`(async () => {
      const session = await (await fetch('/auth/session')).json();
      const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken };
      const source = await fetch('/api/v1/projects/demo/data-sources/closed-port', { method: 'PUT', headers, body: JSON.stringify({
        id: 'closed-port', name: 'Closed port', kind: 'postgresql',
        environments: { development: { host: '127.0.0.1', port: 1, database: 'x', user: 'x' } } }) });
      if (!source.ok) return source.status;
      const action = await fetch('/api/v1/projects/demo/actions/closed-port-query', { method: 'PUT', headers, body: JSON.stringify({
        id: 'closed-port-query', name: 'Closed port query', kind: 'sql', dataSourceId: 'closed-port',
        parameters: [], statements: [{ title: 'One', sql: 'SELECT 1' }] }) });
      return action.status;
    })()`);
    expect(created).toBe(201);
    await page.goto('/p/demo/e/development/actions/closed-port-query');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const banner = page.locator('.error-banner');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toMatch(
      /^The data source reported an error.*(refused|ECONNREFUSED)/i,
    );
    await expect(page.getByRole('button', { name: 'Run', exact: true }).isEnabled()).resolves.toBe(true);
  });

  it('shows image URLs of a result as images', async () => {
    await page.goto('/p/demo/e/development/actions/product-gallery');
    await page.getByLabel(/Maximum price/).fill('1000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('table', { name: 'Products' }).waitFor();
    const expected = await demoQuery<{ name: string }>(
      'SELECT name FROM products WHERE price_yen <= 1000 ORDER BY id',
    );
    const images = page.locator('img.media-thumb');
    await expect.poll(() => images.count()).toBe(expected.length);
    const first = images.first();
    await expect
      .poll(() => first.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(32);
    expect(await first.getAttribute('src')).toBe(
      `https://placehold.co/320x200.png?text=${expected[0]!.name}`,
    );
    // Video URLs get a player button; an HLS stream plays natively where the browser can, else a note says so.
    const hlsUrl = 'https://test-streams.mux.dev/x36xhzz/x36xhzz.m3u8';
    await page.getByRole('button', { name: /Play/ }).first().click();
    const dialog = page.getByRole('dialog');
    // Page scripts as strings: this project's type-check has no DOM library.
    const nativeHls = await page.evaluate<boolean>(
      "document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== ''",
    );
    if (nativeHls) expect(await dialog.locator('video').getAttribute('src')).toBe(hlsUrl);
    else await expect(dialog.textContent()).resolves.toMatch(/HLS stream/);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await screenshot(page, 'action-result-media', { fullPage: true });
  });

  it('the raw JSON view shows the response as the API sent it', async () => {
    await page.getByRole('tab', { name: 'Raw JSON' }).click();
    const raw = JSON.parse((await page.locator('pre.raw-json').textContent())!);
    expect(raw.actionId).toBe('product-gallery');
    expect(raw.results[0].columns.find((c: { name: string }) => c.name === 'image_url').media).toBe('image');
  });

  it('switches to Japanese without breaking the layout', async () => {
    await page.goto('/p/demo/e/development/actions/find-orders');
    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('button', { name: '実行', exact: true }).click();
    await page.getByRole('table', { name: 'Orders' }).waitFor();
    await expect(page.locator('.results h2').textContent()).resolves.toBe('実行結果');
    // No horizontal overflow of the page in Japanese.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'action-screen-ja', { fullPage: true });
    await page.getByLabel('言語').selectOption('en');
  });
});
