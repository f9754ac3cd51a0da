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

let console_: ConsoleUnderTest;
let page: Page;
/** Requests the page tried to send off this machine (the demo's media must need none). */
const offline: string[] = [];

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
  // The demo's media come from the runtime itself: any request leaving 127.0.0.1 fails the test.
  // Chromium's own pages (chrome://, the PDF viewer's chrome-extension://) are not requests that leave.
  await page.context().route(
    (url) => (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1',
    (route) => {
      offline.push(route.request().url());
      return route.abort();
    },
  );
}, 90_000);

afterAll(async () => {
  await console_?.close();
});

describe('action screen (Chromium, embedded runtime)', () => {
  it('signs in through the IdP and lands on the action list of the demo project', async () => {
    await login(page);
    expect(new URL(page.url()).pathname).toBe('/p/demo/e/development/actions');
    await page.getByRole('link', { name: /^Find orders/ }).waitFor();
    expect(await page.locator('.user-name').textContent()).toBe('Local Administrator');
    await screenshot(page, 'action-list');
  });

  it('search narrows the list', async () => {
    await page.getByPlaceholder('Search by name, id or description').fill('gallery');
    await expect(page.locator('.action-card').count()).resolves.toBe(1);
    await page.getByPlaceholder('Search by name, id or description').fill('');
  });

  it('runs Find orders with arguments and shows the rows the database holds', async () => {
    await page.getByRole('link', { name: /^Find orders/ }).click();
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

  it("says next to the input what breaks the parameter's rules, typed letters included", async () => {
    const limit = page.getByLabel(/^Limit/);
    const message = async () => {
      const describedBy = (await limit.getAttribute('aria-describedby'))!.split(' ');
      return page.locator(`[id="${describedBy.at(-1)}"]`).textContent();
    };
    await limit.fill('5000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    await expect(message()).resolves.toBe('Must be at most 1000.');
    await limit.fill('');
    await limit.pressSequentially('12abc');
    await expect(limit.inputValue()).resolves.toBe('12abc');
    await expect(message()).resolves.toBe('Enter a number.');
    await limit.fill('4');
    await expect.poll(() => limit.getAttribute('aria-invalid')).not.toBe('true');
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
    // (The development IdP's sign-in page asks for a web font; that page is not the demo's media.)
    offline.length = 0;
    await page.goto('/p/demo/e/development/actions/product-gallery');
    await page.getByLabel(/Maximum price/).fill('1000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('table', { name: 'Products' }).waitFor();
    const expected = await demoQuery<{ name: string }>(
      'SELECT name FROM products WHERE price_yen <= 1000 ORDER BY id',
    );
    const images = page.locator('img.media-thumb');
    await expect.poll(() => images.count(), { timeout: 10_000 }).toBe(expected.length);
    const first = images.first();
    await expect
      .poll(() => first.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), {
        timeout: 10_000,
      })
      .toBe(320);
    expect(await first.getAttribute('src')).toBe(`${console_.url}/demo-api/v1/media/sku-0001.png`);
    // The video plays from the runtime (a WebM clip), the PDF product sheet opens in the viewer.
    await page.getByRole('button', { name: /Play/ }).first().click();
    const video = page.getByRole('dialog').locator('video');
    expect(await video.getAttribute('src')).toBe(`${console_.url}/demo-api/v1/media/sku-0001.webm`);
    await expect
      .poll(() => video.evaluate((v) => (v as unknown as { readyState: number }).readyState), {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page
      .getByRole('button', { name: /Open PDF/ })
      .first()
      .click();
    await expect
      .poll(() => page.getByRole('dialog').locator('object[data$="/demo-api/v1/media/sku-0001.pdf"]').count())
      .toBe(1);
    // The PDF viewer may hold the keyboard focus (its plugin gets no page keys), so close by the button.
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(offline).toEqual([]);
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

  it('previews Mark shipped from the keyboard: one row, paid before and shipped after, nothing committed', async () => {
    await page.goto('/p/demo/e/development/actions/mark-shipped');
    const orderId = (
      await demoQuery<{ id: number }>("SELECT min(id) AS id FROM orders WHERE status = 'paid'")
    )[0]!.id;
    const input = page.getByLabel(/Order number/);
    await input.fill(String(orderId));
    // Ctrl+Shift+Enter from the form previews; no confirmation dialog: nothing is committed.
    await input.press('Control+Shift+Enter');
    const results = page.getByRole('region', { name: 'Preview (rolled back)' });
    await expect(results.getByTestId('preview-count').textContent()).resolves.toBe('1 row would be affected');
    expect(await tableRows(page, 'Before')).toEqual([[String(orderId), 'paid', expect.any(String)]]);
    expect(await tableRows(page, 'After')).toEqual([[String(orderId), 'shipped', expect.any(String)]]);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const [order] = await demoQuery<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(order!.status).toBe('paid');
    // The button is there too, beside Run, and reachable with Tab.
    await page.getByRole('button', { name: 'Preview', exact: true }).focus();
    await expect(page.evaluate<string>('document.activeElement?.textContent ?? ""')).resolves.toBe('Preview');
    await screenshot(page, 'action-preview', { fullPage: true });
  });
});
