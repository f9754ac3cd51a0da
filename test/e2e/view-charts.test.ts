/**
 * Chart components in real Chromium against a real embedded runtime and the demo database
 * (issue 29): a bar chart drawn from a demo query under the console's CSP (no 'unsafe-eval'),
 * Chart.js fetched as its own chunk only by a view with a chart, the data-table alternative holding
 * the query's values, and a click on a bar's pixels making that point `components.<chart>.value`
 * and running its "On point click" events once.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;
const scripts: string[] = [];
const cspViolations: string[] = [];
const runs: { actionId: string; status: number }[] = [];
const runPath = /\/public\/v1\/projects\/demo\/environments\/development\/actions\/([^/]+)\/executions$/;

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
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  page.on('response', (response) => {
    const match = runPath.exec(new URL(response.url()).pathname);
    if (response.request().method() === 'POST' && match) {
      runs.push({ actionId: decodeURIComponent(match[1]!), status: response.status() });
    }
  });
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

/** The canvas pixels of the bars (their exact fill colour), as CSS-pixel boxes left to right. */
/** What the test reads of the canvas in the page (the test files are typed without the DOM library). */
interface CanvasInPage {
  width: number;
  height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  };
  getBoundingClientRect(): { width: number };
}

async function barBoxes(canvasSelector: string, rgb: [number, number, number]) {
  return page.locator(canvasSelector).evaluate((node, rgb) => {
    const canvas = node as unknown as CanvasInPage;
    const { width, height } = canvas;
    const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
    const isBar = (x: number, y: number) => {
      const i = (y * width + x) * 4;
      return data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2];
    };
    const columns: { x: number; top: number; bottom: number }[] = [];
    for (let x = 0; x < width; x++) {
      let top = -1;
      let bottom = -1;
      for (let y = 0; y < height; y++) {
        if (isBar(x, y)) {
          if (top < 0) top = y;
          bottom = y;
        }
      }
      if (top >= 0) columns.push({ x, top, bottom });
    }
    const boxes: { left: number; right: number; top: number; bottom: number }[] = [];
    for (const c of columns) {
      const last = boxes[boxes.length - 1];
      if (last && c.x === last.right + 1) {
        last.right = c.x;
        last.top = Math.min(last.top, c.top);
        last.bottom = Math.max(last.bottom, c.bottom);
      } else boxes.push({ left: c.x, right: c.x, top: c.top, bottom: c.bottom });
    }
    const scale = width / canvas.getBoundingClientRect().width;
    return boxes.map((b) => ({
      x: (b.left + b.right) / 2 / scale,
      y: (b.top + b.bottom) / 2 / scale,
      height: (b.bottom - b.top + 1) / scale,
    }));
  }, rgb);
}

describe('a bar chart from a demo query', () => {
  it('draws under the CSP as its own chunk, has a data table of its values, and a click on a bar is its value', async () => {
    await putView({
      id: 'vc-bars',
      name: 'Order totals',
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
            arguments: { order_id: 'components.c1.value.x' },
            runOn: 'manual',
          },
        ],
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [
            {
              id: 'c1',
              type: 'chart',
              title: 'Totals',
              chartType: 'bar',
              query: 'orders',
              x: 'id',
              y: ['total_yen'],
              pointClick: [{ type: 'runQuery', query: 'order' }],
            },
            {
              id: 'picked',
              type: 'text',
              content: "Picked: {{ components.c1.value?.x ?? 'none' }} = {{ components.c1.value?.y ?? '' }}",
            },
            { id: 't1', type: 'table', query: 'orders', columns: [{ field: 'id' }, { field: 'total_yen' }] },
          ],
        },
      },
    });

    // A view without a chart does not fetch Chart.js.
    scripts.length = 0;
    await page.goto(`${base}/views/orders`);
    await expect.poll(() => page.locator('[data-component="orders_table"] tbody tr').count()).toBe(20);
    const chartChunk = (path: string) => /\/assets\/chart-setup-[^/]*\.js$/.test(path);
    expect(scripts.filter(chartChunk)).toEqual([]);

    scripts.length = 0;
    runs.length = 0;
    const document_ = await page.goto(`${base}/views/vc-bars`);
    const csp = (await document_!.headerValue('content-security-policy')) ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');

    const canvas = page.getByRole('img', { name: 'Bar chart: Totals' });
    await canvas.waitFor();
    await expect.poll(() => scripts.filter(chartChunk).length).toBe(1);

    // The data table (the text alternative) holds the query's values, row for row.
    const tableRows = page.locator('[data-component="t1"] tbody tr');
    await expect.poll(() => tableRows.count()).toBe(5);
    const expected = await Promise.all(
      (await tableRows.all()).map(async (row) =>
        (await row.locator('td').allInnerTexts()).map((s) => s.trim().replace(/,/g, '')),
      ),
    );
    const data = page.getByRole('table', { name: 'Data of Totals' });
    const dataRows = data.locator('tbody tr');
    await expect.poll(() => dataRows.count()).toBe(5);
    const shown = await Promise.all(
      (await dataRows.all()).map(async (row) =>
        (await row.locator('th, td').allInnerTexts()).map((s) => s.trim().replace(/,/g, '')),
      ),
    );
    expect(shown).toEqual(expected);
    expect(expected.every(([id, total]) => /^\d+$/.test(id!) && /^\d+$/.test(total!))).toBe(true);
    // Hidden until asked for, then shown.
    // (visually hidden: read by screen readers, clipped to a pixel on screen).
    const toggle = page.getByRole('button', { name: 'Show data' });
    const holder = data.locator('xpath=..');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await holder.getAttribute('class')).toBe('visually-hidden');
    await toggle.click();
    await expect.poll(() => holder.getAttribute('class')).toBe('view-table-scroll');
    expect((await data.boundingBox())!.height).toBeGreaterThan(50);
    expect(await page.getByRole('button', { name: 'Hide data' }).getAttribute('aria-expanded')).toBe('true');

    // Five bars in the series colour, their heights in the order of the totals.
    const bars = await barBoxes('[data-component="c1"] canvas', [0x25, 0x63, 0xeb]);
    expect(bars).toHaveLength(5);
    const totals = expected.map(([, total]) => Number(total));
    for (let i = 0; i < 5; i++) {
      for (let j = 0; j < 5; j++) {
        if (totals[i]! > totals[j]!) expect(bars[i]!.height).toBeGreaterThan(bars[j]!.height);
      }
    }

    const picked = page.locator('[data-component="picked"]');
    expect(await picked.innerText()).toContain('Picked: none');
    expect(runs.filter((r) => r.actionId === 'order-detail')).toEqual([]);
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + bars[2]!.x, box.y + bars[2]!.y);
    const [id, total] = expected[2]!;
    await expect.poll(() => picked.innerText()).toContain(`Picked: ${id} = ${total}`);
    expect(await dataRows.nth(2).getAttribute('aria-current')).toBe('true');
    await expect
      .poll(() => runs.filter((r) => r.actionId === 'order-detail'))
      .toEqual([{ actionId: 'order-detail', status: 200 }]);

    // The keyboard way: Enter on a row of the shown data table picks that point.
    await dataRows.nth(4).focus();
    await page.keyboard.press('Enter');
    const [id4, total4] = expected[4]!;
    await expect.poll(() => picked.innerText()).toContain(`Picked: ${id4} = ${total4}`);
    await expect.poll(() => runs.filter((r) => r.actionId === 'order-detail').length).toBe(2);
    expect(runs.filter((r) => r.actionId === 'search-orders')).toHaveLength(1);
    expect(cspViolations).toEqual([]);
  });
});

describe('a chart in the builder', () => {
  it('is added from the palette and set up in its properties: type, query, x and y fields', async () => {
    await page.goto(`${base}/views-new/visual`);
    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties.getByRole('button', { name: 'Add query' }).click();
    const query = properties.getByRole('group', { name: 'Query query1' });
    await query.getByLabel('Action').selectOption('search-orders');
    await query.getByLabel(/^Arguments/).fill("customer: ''\nstatus: ''\nlimit: 4");
    await page
      .getByRole('complementary', { name: 'Components' })
      .getByRole('button', { name: '+ Chart' })
      .click();
    await properties.getByLabel('Chart type').selectOption('line');
    await properties.getByLabel('Query', { exact: true }).first().selectOption('query1');
    await properties.getByLabel(/^X field/).fill('id');
    await properties.getByLabel(/^Y fields/).fill('total_yen\nid');

    const preview = page.locator('.builder-preview [data-component="chart1"]');
    await preview.getByRole('img', { name: 'Line chart: chart1' }).waitFor();
    const data = preview.getByRole('table', { name: 'Data of chart1' });
    await expect.poll(() => data.locator('tbody tr').count()).toBe(4);
    expect(await data.locator('thead th').allInnerTexts()).toEqual(['id', 'total_yen', 'id']);
    expect(cspViolations).toEqual([]);
  });
});
