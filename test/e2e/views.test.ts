/**
 * Views in real Chromium against a real embedded runtime: the demo's views built from scratch in
 * the builder (order detail with "mark shipped", orders search with server-side paging and a row
 * click into the detail, a code view) and used as an operator would; a code view that tries to
 * reach the console's page, cookies, storage or the network is stopped, one that crashes or loops
 * shows the error in place; a forbidden action and a bad expression say so where they happen; a
 * component renamed in the builder keeps the view working (references follow) and Ctrl+Z undoes it;
 * a table's checked rows and its CSV export (a real download of the shown rows).
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const sqlAction = (id: string, name: string, parameters: unknown[], sql: string, extra: object = {}) => ({
  id,
  name,
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  parameters,
  statements: [{ title: name, sql }],
  ...extra,
});

/**
 * The views use the demo's actions (search-orders with limit/offset, order-detail, mark-shipped);
 * a review-gated one is the test's own.
 */
const actions = [
  sqlAction(
    'vt-refund',
    'Refund',
    [{ name: 'order_id', kind: 'number', integer: true, required: true }],
    'SELECT {{ order_id }} AS refunded',
    { review: { required: true } },
  ),
];

const orderStatus = async (orderId: number): Promise<string> => {
  const run = await call(
    'POST',
    '/public/v1/projects/demo/environments/development/actions/order-detail/executions',
    {
      arguments: { order_id: orderId },
    },
  );
  return run.body.results[0].rows[0].status;
};

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  for (const action of actions) {
    const response = await call('PUT', `/api/v1/projects/demo/actions/${action.id}`, action);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  }
  page = await console_.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

const builder = () => page.locator('.view-builder');
const properties = () => page.getByRole('complementary', { name: 'Properties' });

async function addComponent(type: string) {
  await page
    .getByRole('complementary', { name: 'Components' })
    .getByRole('button', { name: `+ ${type}` })
    .click();
}

async function addEvent(scope: ReturnType<Page['locator']>, label: string, type: string) {
  await scope.getByLabel(`Event type for ${label}`).last().selectOption({ label: type });
  await scope
    .getByRole('button', { name: `Add to ${label}` })
    .last()
    .click();
}

describe('visual views built in the builder', () => {
  it('builds the order detail view: a query from the argument, a detail, a button that marks it shipped', async () => {
    await page.goto(`${base}/views-new/visual`);
    await builder().getByLabel('View id').fill('order-detail');
    await builder().getByLabel('Name', { exact: true }).fill('Order detail');
    await builder()
      .getByLabel(/^Arguments \(name \| kind/)
      .fill('id | number | Order');

    await properties().getByRole('button', { name: 'Add query' }).click();
    const query = properties().getByRole('group', { name: 'Query query1' });
    await query.getByLabel('Action').selectOption('order-detail');
    await query.getByLabel(/^Arguments/).fill('order_id: panel.args.id');
    await query.getByLabel('Query id').fill('order');

    await addComponent('Detail');
    await properties().getByLabel('Query', { exact: true }).first().selectOption('order');
    await properties().getByLabel('Title (template)').fill('Order #{{ panel.args.id }}');

    await addComponent('Button');
    await properties().getByLabel('Label (template)').fill('Mark shipped');
    await addEvent(properties(), 'On click', 'Run an action');
    const click = properties().getByRole('region', { name: 'On click 1' });
    await click.getByLabel('Action').selectOption('mark-shipped');
    await click.getByLabel(/^Arguments/).fill('order_id: panel.args.id');
    await addEvent(click, 'Then', 'Refresh');

    // The preview runs the draft: without an argument the query says which one is missing.
    await expect
      .poll(() => page.locator('.builder-preview [data-component="detail1"]').innerText())
      .toMatch(/order_id|required|必須/i);

    await page.getByRole('button', { name: /^Save and publish to/ }).click();
    await page.getByText(/Version 1 is published to/).waitFor();
  });

  it('builds the orders search: a form, a paged table, a row click into the detail', async () => {
    await page.goto(`${base}/views-new/visual`);
    await builder().getByLabel('View id').fill('orders-search');
    await builder().getByLabel('Name', { exact: true }).fill('Orders search');

    await properties().getByRole('button', { name: 'Add query' }).click();
    const query = properties().getByRole('group', { name: 'Query query1' });
    await query.getByLabel('Action').selectOption('search-orders');
    await query
      .getByLabel(/^Arguments/)
      .fill("customer: components.form1.value.customer ?? ''\nstatus: components.form1.value.status ?? ''");
    await query.getByRole('checkbox', { name: /Page on the server/ }).check();
    await query.getByLabel('Page size').fill('5');
    await query.getByLabel('Query id').fill('orders');

    await addComponent('Form');
    await properties()
      .getByLabel(/^Fields \(name \| type/)
      .fill('customer | text | Customer\nstatus | text | Status');
    await properties().getByLabel('Submit button label').fill('Search');
    await addEvent(properties(), 'On submit', 'Run a query');
    await properties()
      .getByRole('region', { name: 'On submit 1' })
      .getByLabel('Query', { exact: true })
      .selectOption('orders');

    await addComponent('Table');
    await properties().getByLabel('Query', { exact: true }).first().selectOption('orders');
    await properties()
      .getByLabel(/^Columns \(field/)
      .fill('id | Order\ncustomer | Customer\nstatus\ntotal_yen | Total | number');
    await addEvent(properties(), 'On row click', 'Navigate');
    const rowClick = properties().getByRole('region', { name: 'On row click 1' });
    await rowClick.getByLabel('View', { exact: true }).selectOption('order-detail');
    await rowClick.getByLabel(/^Arguments/).fill('id: row.id');

    // The live preview already pages on the server (5 rows a page).
    const previewRows = page.locator('.builder-preview table.view-table tbody tr');
    await expect.poll(() => previewRows.count()).toBe(5);
    await screenshot(page, 'views-builder');

    await page.getByRole('button', { name: /^Save and publish to/ }).click();
    await page.getByText(/Version 1 is published to/).waitFor();
  });

  it('uses them: search, page, open an order, mark it shipped', async () => {
    await page.goto(`${base}/views`);
    await page.getByRole('link', { name: 'Orders search' }).click();
    const table = page.locator('table.view-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);
    const firstPage = await table.locator('tbody tr').first().innerText();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText('Page 2').count()).toBe(1);
    await expect.poll(() => table.locator('tbody tr').first().innerText()).not.toBe(firstPage);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => table.locator('tbody tr').first().innerText()).toBe(firstPage);
    await screenshot(page, 'views-orders-search');

    // Search paid orders, open the first, ship it.
    await page.getByLabel('Status').fill('paid');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => table.locator('tbody tr').first().innerText()).toContain('paid');
    const orderId = (await table.locator('tbody tr').first().locator('td').first().innerText()).trim();
    await table.locator('tbody tr').first().click();
    await page.waitForURL(
      (url) => url.pathname.endsWith('/views/order-detail') && url.search === `?id=${orderId}`,
    );
    const detail = page.locator('[data-component="detail1"]');
    await expect.poll(() => detail.innerText()).toContain(`Order #${orderId}`);
    const status = detail.locator('.view-detail-row', { hasText: 'status' }).locator('dd');
    expect(await status.innerText()).toBe('paid');
    await page.getByRole('button', { name: 'Mark shipped' }).click();
    // Mark shipped changes data: the viewer confirms, seeing the action, the environment and the order.
    const confirm = page.getByRole('dialog', { name: 'Run Mark shipped in Development?' });
    expect(await confirm.innerText()).toContain(`order_id\n${orderId}`);
    await confirm.getByRole('button', { name: 'Run and change data' }).click();
    await expect.poll(() => status.innerText()).toBe('shipped');
    await screenshot(page, 'views-order-detail');
    expect(await orderStatus(Number(orderId))).toBe('shipped');
  });

  it('shows errors in place: a bad expression, a missing field, a review-gated action', async () => {
    const view = {
      id: 'vt-broken',
      name: 'Broken parts',
      definition: {
        kind: 'visual',
        parameters: [],
        queries: [
          {
            id: 'orders',
            actionId: 'search-orders',
            arguments: { customer: "''", status: "''", limit: '3' },
            runOn: 'load',
          },
        ],
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [
            { id: 'bad', type: 'text', content: 'Total: {{ queries.orders.rows[0].constructor }}' },
            { id: 'missing', type: 'table', query: 'orders', columns: [{ field: 'nope' }, { field: 'id' }] },
            {
              id: 'refund',
              type: 'button',
              label: 'Refund',
              events: [{ type: 'runAction', actionId: 'vt-refund', arguments: { order_id: '1' } }],
            },
            { id: 'fine', type: 'markdown', content: 'Still **working** <script>alert(1)</script>' },
          ],
        },
      },
    };
    const saved = await call('PUT', '/api/v1/projects/demo/views/vt-broken', view);
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    await page.goto(`${base}/views/vt-broken`);
    await expect
      .poll(() => page.locator('[data-component="bad"]').innerText())
      .toContain('"constructor" cannot be used in expressions');
    await expect
      .poll(() => page.locator('[data-component="missing"]').innerText())
      .toContain('No such field in the data: nope');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Review requested.').waitFor();
    const markdown = page.locator('[data-component="fine"] .view-markdown');
    expect(await markdown.locator('strong').innerText()).toBe('working');
    expect(await markdown.locator('script').count()).toBe(0);
    expect(await markdown.innerText()).toContain('<script>');
  });
});

const frameOf = async (selector = 'iframe.code-view-frame'): Promise<Frame> => {
  const handle = await page.waitForSelector(selector);
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no frame');
  return frame;
};

async function saveCodeView(id: string, source: string, actionIds: string[]) {
  const saved = await call('PUT', `/api/v1/projects/demo/views/${id}`, {
    id,
    name: id,
    definition: { kind: 'code', parameters: [], source, actionIds },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
}

describe('code views', () => {
  it('builds a code view in the editor, previews the draft and runs it', async () => {
    await page.goto(`${base}/views-new/code`);
    await builder().getByLabel('View id').fill('orders-code');
    await builder().getByLabel('Name', { exact: true }).fill('Orders (code)');
    await builder()
      .getByRole('checkbox', { name: /search-orders/ })
      .check();
    const source = [
      "import { useState } from 'react';",
      "import { useAction, Table, Text, Button, Stack, navigate } from 'dogu';",
      'export default function Orders() {',
      '  const [page, setPage] = useState(0);',
      "  const { rows, loading, error } = useAction('search-orders', { customer: '', status: '', limit: 3, offset: page * 3 });",
      '  if (error) return <Text>{error.message}</Text>;',
      '  return (',
      '    <Stack>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the view's own source holds a template literal
      '      <Text>{loading ? "Loading" : `Orders page ${page + 1}`}</Text>',
      "      <Table rows={rows} onRowClick={(row) => navigate({ view: 'order-detail' }, { id: row.id })} />",
      '      <Button onClick={() => setPage(page + 1)}>More</Button>',
      '    </Stack>',
      '  );',
      '}',
    ].join('\n');
    await builder().getByLabel('Source (React, default export)').fill(source);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Saved as version 1.').waitFor();
    const preview = await frameOf('.builder-preview iframe.code-view-frame');
    await preview.getByText('Orders page 1').waitFor();
    expect(await preview.locator('tbody tr').count()).toBe(3);
    await preview.getByRole('button', { name: 'More' }).click();
    await preview.getByText('Orders page 2').waitFor();
    await screenshot(page, 'views-code-editor');

    await page.getByRole('link', { name: 'Open view' }).click();
    const frame = await frameOf();
    await frame.getByText('Orders page 1').waitFor();
    await frame.locator('tbody tr').first().click();
    await page.waitForURL((url) => url.pathname.endsWith('/views/order-detail'));
  });

  it('stops a code view that reaches for the page, cookies, storage, the network or undeclared actions', async () => {
    await saveCodeView(
      'vt-escape',
      [
        "import { useEffect, useState } from 'react';",
        "import { runAction } from 'dogu';",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the view's own source holds template literals
        'const attempt = async (name, fn) => { try { await fn(); return `${name}: reached`; } catch (e) { return `${name}: blocked`; } };',
        'export default function Escape() {',
        '  const [lines, setLines] = useState([]);',
        '  useEffect(() => { (async () => {',
        '    const out = [];',
        "    out.push(await attempt('parent', () => { window.parent.document.title = 'pwned'; }));",
        "    out.push(await attempt('top', () => window.top.location.href));",
        "    out.push(await attempt('cookie', () => document.cookie));",
        "    out.push(await attempt('localStorage', () => localStorage.getItem('dogu.workspace')));",
        "    out.push(await attempt('fetch', () => fetch('/api/v1/projects')));",
        "    out.push(await attempt('image', () => new Promise((ok, fail) => { const i = new Image(); i.onload = ok; i.onerror = fail; i.src = '/favicon.ico'; })));",
        "    out.push(await attempt('undeclared', () => runAction('mark-shipped', { order_id: 7 })));",
        '    setLines(out);',
        '  })(); }, []);',
        '  return <pre id="out">{lines.join(\'\\n\')}</pre>;',
        '}',
      ].join('\n'),
      ['search-orders'],
    );
    const before = await orderStatus(7);
    await page.goto(`${base}/views/vt-escape`);
    const frame = await frameOf();
    await expect.poll(() => frame.locator('#out').innerText()).toContain('undeclared');
    const out = await frame.locator('#out').innerText();
    for (const name of ['parent', 'top', 'cookie', 'localStorage', 'fetch', 'image', 'undeclared']) {
      expect(out).toContain(`${name}: blocked`);
    }
    expect(await page.title()).not.toBe('pwned');
    // The frame's origin is opaque and its document has the frame CSP.
    expect(await frame.evaluate('window.origin')).toBe('null');
    const response = await fetch(`${console_.url}/view-frame.html`);
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'none'");
    expect((await fetch(`${console_.url}${base}/views`)).headers.get('content-security-policy')).toContain(
      "script-src 'self'",
    );
    // The undeclared action did not run.
    expect(before).toBe('paid');
    expect(await orderStatus(7)).toBe('paid');
  });

  it('shows a crash in place and stops a view that loops, while the console keeps working', async () => {
    await saveCodeView(
      'vt-crash',
      "export default function Crash() { throw new Error('boom in render'); }",
      [],
    );
    await saveCodeView('vt-loop', 'export default function Loop() { for (;;) {} }', []);
    await page.goto(`${base}/views/vt-crash`);
    await page
      .getByText(/The code view failed: .*boom in render/)
      .first()
      .waitFor();
    await page.goto(`${base}/views/vt-loop`);
    await page.getByText('The code view stopped responding (an endless loop?) and was stopped.').waitFor({
      timeout: 15_000,
    });
    await screenshot(page, 'views-code-stopped');
    await page.getByRole('link', { name: 'Views', exact: true }).first().click();
    await page.getByRole('link', { name: 'Orders search' }).waitFor();
  });
});

describe('the seeded demo views', () => {
  it('renders the orders view (row click into the detail) and the sales dashboard code view', async () => {
    await page.goto(`${base}/views/orders`);
    const table = page.locator('[data-component="orders_table"] table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(20);
    await table.locator('tbody tr', { hasText: 'paid' }).first().click();
    const detail = page.locator('[data-component="order_detail"]');
    await expect.poll(() => detail.innerText()).toContain('paid');
    await page.getByRole('button', { name: 'Mark shipped' }).waitFor();
    await page.goto(`${base}/views/sales-dashboard`);
    const frame = await frameOf();
    await frame.getByText('Top customers').waitFor();
    await expect.poll(() => frame.locator('ol li').count()).toBe(5);
  });

  it('renames the orders table in the builder: the references follow, the view still works, Ctrl+Z undoes it', async () => {
    await page.goto(`${base}/views/orders/edit`);
    const outline = page.getByRole('list', { name: 'Layout' });
    await outline.getByRole('button', { name: /orders_table/ }).click();
    const id = properties().getByLabel('Component id');
    await id.fill('order list');
    await properties()
      .getByText(/cannot be an id/)
      .waitFor();
    await id.fill('order_detail');
    await properties().getByText('Another component is already called “order_detail”.').waitFor();
    await id.fill('order_list');
    await id.press('Enter');
    await outline.getByRole('button', { name: /order_list/ }).waitFor();
    expect(await outline.getByRole('button', { name: /orders_table/ }).count()).toBe(0);

    // The detail's query, title and `hidden` now read `components.order_list`: a row click still opens it.
    const table = page.locator('.builder-preview [data-component="order_list"] table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(20);
    await table.locator('tbody tr', { hasText: 'paid' }).first().click();
    const detail = page.locator('.builder-preview [data-component="order_detail"]');
    await expect.poll(() => detail.innerText()).toContain('paid');
    await outline.getByRole('button', { name: /order_detail/ }).click();
    expect(await properties().getByLabel('Title (template)').inputValue()).toBe(
      'Order {{ components.order_list.value.id }}',
    );

    await page.keyboard.press('Control+z');
    await outline.getByRole('button', { name: /orders_table/ }).waitFor();
    expect(await outline.getByRole('button', { name: /order_list/ }).count()).toBe(0);
    await page.locator('.builder-preview [data-component="orders_table"] table').waitFor();
    await page.keyboard.press('Control+Shift+z');
    await outline.getByRole('button', { name: /order_list/ }).waitFor();
    await page.getByRole('button', { name: /Undo/ }).click();
    await outline.getByRole('button', { name: /orders_table/ }).waitFor();
  });

  it('checks rows and exports the shown rows as CSV from the orders table in the builder preview', async () => {
    await page.goto(`${base}/views/orders/edit`);
    await page
      .getByRole('list', { name: 'Layout' })
      .getByRole('button', { name: /orders_table/ })
      .click();
    await properties()
      .getByLabel(/Multi-select rows/)
      .check();
    await properties().getByLabel('CSV export button').check();
    const table = page.locator('.builder-preview [data-component="orders_table"]');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(20);
    await table.getByRole('checkbox', { name: 'Select row 1', exact: true }).check();
    await table.getByRole('checkbox', { name: 'Select row 2', exact: true }).check();
    await table.getByText('2 selected').waitFor();
    // Checking a box is not a row click: the detail (shown for a clicked row) stays hidden.
    expect(await page.locator('.builder-preview [data-component="order_detail"]').count()).toBe(0);

    await table.getByLabel(/^Filter Orders/).fill('paid');
    await expect.poll(() => table.locator('tbody tr', { hasNotText: 'paid' }).count()).toBe(0);
    const shown = await table.locator('tbody tr').count();
    const firstId = (await table.locator('tbody tr').first().locator('td').nth(1).innerText()).trim();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      table.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('orders_table.csv');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('Order,Customer,Status,Total (¥),Ordered at');
    // The shown rows only: the filtered ones, every one of them paid.
    expect(lines).toHaveLength(shown + 1);
    expect(lines[1]!.split(',')[0]).toBe(firstId);
    for (const line of lines.slice(1)) expect(line.split(',')[2]).toBe('paid');
  });
});
