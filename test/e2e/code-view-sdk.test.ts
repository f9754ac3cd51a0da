/**
 * The code-view SDK's parts from issue 29 in real Chromium against a real embedded runtime: a
 * `<Chart>` whose Chart.js the console sends only to a view that draws one (a view without a chart
 * never fetches it, and the frame's document does not carry it), an `<Input debounceMs>` driving
 * `useAction` (one run per pause in typing, counted from the server's answers), `toast()` shown by
 * the console outside the frame, `runAction(…, { confirm })` asked in the console's dialog (Cancel
 * sends nothing, Run sends one confirmed run), a `<Modal>` inside the frame, and a table's CSV file,
 * which the console downloads (the sandbox may not). A view cannot keep the viewer in dialogs: a
 * second question while one is open is refused, and after three declines the next is not asked. The frame's CSP
 * still holds: no policy violation is reported while all of it runs.
 */
import { readFile } from 'node:fs/promises';
import type { Frame, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewFrameCsp } from '../../shared/http/console-policies.ts';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;

const runs: { actionId: string; status: number; body: Record<string, unknown>; executionId?: string }[] = [];
const runPath = /\/public\/v1\/projects\/demo\/environments\/development\/actions\/([^/]+)\/executions$/;
/** Scripts the console fetched (its chunks): the chart library is one of them, fetched on demand. */
const scripts: { url: string; text: string }[] = [];
const violations: string[] = [];

async function record(response: Response) {
  const request = response.request();
  const match = runPath.exec(new URL(response.url()).pathname);
  if (request.method() === 'POST' && match) {
    const answer = (await response.json().catch(() => ({}))) as { id?: string };
    runs.push({
      actionId: decodeURIComponent(match[1]!),
      status: response.status(),
      body: JSON.parse(request.postData() ?? '{}'),
      ...(answer.id ? { executionId: answer.id } : {}),
    });
  } else if (request.resourceType() === 'script' && new URL(response.url()).pathname.startsWith('/assets/')) {
    scripts.push({ url: response.url(), text: await response.text().catch(() => '') });
  }
}
const runsOf = (actionId: string) => runs.filter((r) => r.actionId === actionId);
/** Chart.js's banner, which its bundle keeps: the library is in the text that carries it. */
const chartJsBanner = 'Chart.js v';
const chartScripts = () => scripts.filter((s) => s.text.includes(chartJsBanner));
/** Long enough for a duplicate run (an effect or a timer firing again) to show up. */
const settle = () => page.waitForTimeout(1500);

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function saveCodeView(id: string, source: string, actionIds: string[]) {
  const saved = await call('PUT', `/api/v1/projects/demo/views/${id}`, {
    id,
    name: id,
    definition: { kind: 'code', parameters: [], source, actionIds },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
}

const frameOf = async (): Promise<Frame> => {
  const handle = await page.waitForSelector('iframe.code-view-frame');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no frame');
  return frame;
};

const plainView = `
import { Text } from 'dogu';
export default function Plain() { return <Text>No chart here</Text>; }
`;

const sdkView = `
import { useState } from 'react';
import { useAction, runAction, toast, Input, Chart, Modal, Button, Table, Text, Stack } from 'dogu';

export default function SdkTour() {
  const [search, setSearch] = useState('');
  const { rows } = useAction('search-orders', { customer: search, limit: 5, offset: 0 });
  const [picked, setPicked] = useState('');
  const [note, setNote] = useState('');
  const [open, setOpen] = useState(false);
  const touch = () =>
    runAction('sdk-touch', { order_id: 1 }, { confirm: 'Touch order 1?' }).then(
      (result) => { setNote('touched ' + result.rows.length); toast('Order 1 touched'); },
      (error) => setNote(error.code),
    );
  const askTwice = () =>
    Promise.allSettled([
      runAction('sdk-touch', { order_id: 1 }, { confirm: 'First question?' }),
      runAction('sdk-touch', { order_id: 1 }, { confirm: 'Second question?' }),
    ]).then((results) => setNote(results.map((r) => (r.status === 'rejected' ? r.reason.code : 'ran')).join(', ')));
  return (
    <Stack>
      <Input label="Customer search" value={search} onChange={setSearch} debounceMs={400} />
      <Text>Searching: {search}</Text>
      <Chart type="bar" rows={rows} x="customer" y="total_yen" title="Totals" onPointClick={(p) => setPicked(String(p.x))} />
      <Text>Picked: {picked}</Text>
      <Table rows={rows} columns={['id', 'customer']} exportCsv="orders" />
      <Stack direction="row">
        <Button onClick={() => toast('Hello from the view', 'info')}>Say hello</Button>
        <Button variant="danger" onClick={touch}>Touch order 1</Button>
        <Button onClick={() => setOpen(true)}>Open details</Button>
        <Button onClick={askTwice}>Ask twice</Button>
      </Stack>
      <Text>Note: {note}</Text>
      <Modal open={open} onClose={() => setOpen(false)} title="Details">
        <Text>Inside the modal</Text>
      </Modal>
    </Stack>
  );
}
`;

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  const touch = await call('PUT', '/api/v1/projects/demo/actions/sdk-touch', {
    id: 'sdk-touch',
    name: 'Touch an order',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [{ name: 'order_id', kind: 'number', required: true }],
    statements: [
      { title: 'Touch', sql: 'UPDATE orders SET status = status WHERE id = {{ order_id }} RETURNING id' },
    ],
  });
  expect(touch.status, JSON.stringify(touch.body)).toBeLessThan(300);
  await saveCodeView('sdk-plain', plainView, []);
  await saveCodeView('sdk-tour', sdkView, ['search-orders', 'sdk-touch']);
  page = await console_.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  page.on('response', (response) => void record(response));
  page.on('console', (message) => {
    const text = message.text();
    // The frame's own proof that its script lock holds (close-channels.ts) is refused on purpose.
    if (/inline event handler/.test(text) && /'strict-dynamic'/.test(text)) return;
    if (/Content Security Policy|Refused to/i.test(text)) violations.push(text);
  });
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 180_000);

afterAll(async () => {
  await console_?.close();
});

describe('a code view without a chart', () => {
  it('never fetches Chart.js, and the frame document does not carry it', async () => {
    const frameDocument = await fetch(`${console_.url}/view-frame.html`);
    expect(frameDocument.headers.get('content-security-policy')).toContain(viewFrameCsp);
    const html = await frameDocument.text();
    expect(html).not.toContain(chartJsBanner);
    await page.goto(`${base}/views/sdk-plain`);
    const frame = await frameOf();
    await expect
      .poll(() => frame.locator('body').innerText(), { timeout: 20_000 })
      .toContain('No chart here');
    await settle();
    expect(chartScripts()).toEqual([]);
  }, 60_000);
});

describe('a code view with the SDK', () => {
  let frame: Frame;

  it('draws the chart with Chart.js sent by the console, and a click on a bar picks its row', async () => {
    runs.length = 0;
    await page.goto(`${base}/views/sdk-tour`);
    frame = await frameOf();
    const canvas = frame.locator('canvas[role="img"]');
    await expect.poll(() => canvas.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Bar chart: Totals');
    await expect.poll(() => frame.locator('.dg-table-wrap table tbody tr').count()).toBeGreaterThan(0);
    // Chart.js came as one chunk of the console's, fetched once, and drew into the frame's canvas.
    expect(chartScripts()).toHaveLength(1);
    // Where Chart.js drew the first bar (the middle of it), read from its chart instance.
    const firstBar = () =>
      frame.evaluate<{ label: string; x: number; y: number } | null>(`(() => {
        const chart = globalThis.__doguChartJs?.getChart(document.querySelector('canvas'));
        const bar = chart?.getDatasetMeta(0).data[0];
        return chart && bar ? { label: chart.data.labels[0], x: bar.x, y: (bar.y + bar.base) / 2 } : null;
      })()`);
    await expect.poll(firstBar).not.toBeNull();
    const point = (await firstBar())!;
    await canvas.click({ position: { x: point.x, y: point.y } });
    await expect.poll(() => frame.getByText(/^Picked:/).innerText()).toBe(`Picked: ${point.label}`);
    // The text alternative has the same points.
    const data = frame.getByRole('table', { name: 'Data of Totals' });
    expect(await data.locator('tbody th').first().innerText()).toBe(point.label);
  }, 90_000);

  it('runs the search once on open and once per pause in typing', async () => {
    await settle();
    expect(runsOf('search-orders').map((r) => r.body.arguments)).toEqual([
      { customer: '', limit: 5, offset: 0 },
    ]);
    const box = frame.getByLabel('Customer search');
    await box.pressSequentially('er 1', { delay: 60 });
    await expect.poll(() => frame.getByText(/^Searching:/).innerText()).toBe('Searching: er 1');
    await expect.poll(() => runsOf('search-orders').length).toBe(2);
    await settle();
    const searches = runsOf('search-orders');
    expect(searches.map((r) => r.body.arguments)).toEqual([
      { customer: '', limit: 5, offset: 0 },
      { customer: 'er 1', limit: 5, offset: 0 },
    ]);
    // Each run is one execution the server recorded.
    expect(searches.every((r) => r.status === 200 && r.executionId)).toBe(true);
    expect(new Set(searches.map((r) => r.executionId)).size).toBe(2);
  }, 60_000);

  it("shows the view's toast in the console's toast area, outside the frame", async () => {
    await frame.getByRole('button', { name: 'Say hello' }).click();
    const toasts = page.locator('.toasts');
    await expect.poll(() => toasts.innerText()).toContain('Hello from the view');
    expect(await frame.locator('body').innerText()).not.toContain('Hello from the view');
  }, 30_000);

  it("asks the view's question in the console's dialog: Cancel runs nothing, Run runs once", async () => {
    runs.length = 0;
    await frame.getByRole('button', { name: 'Touch order 1' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toContain('Touch order 1?');
    expect(await dialog.innerText()).toContain('order_id');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => frame.getByText(/^Note:/).innerText()).toBe('Note: run_declined');
    await settle();
    expect(runsOf('sdk-touch')).toEqual([]);

    await frame.getByRole('button', { name: 'Touch order 1' }).click();
    await expect.poll(() => dialog.innerText()).toContain('Touch order 1?');
    await screenshot(page, 'views-code-sdk-confirm');
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => frame.getByText(/^Note:/).innerText()).toBe('Note: touched 1');
    await expect.poll(() => page.locator('.toasts').innerText()).toContain('Order 1 touched');
    await settle();
    expect(runsOf('sdk-touch').map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 200, body: { arguments: { order_id: 1 }, source: { viewId: 'sdk-tour' }, confirm: true } },
    ]);
  }, 60_000);

  it('opens a modal inside the frame that keeps focus and closes on Escape', async () => {
    runs.length = 0;
    const opener = frame.getByRole('button', { name: 'Open details' });
    await opener.click();
    const modal = frame.getByRole('dialog', { name: 'Details' });
    await expect.poll(() => modal.innerText()).toContain('Inside the modal');
    const focusInside = () =>
      frame.evaluate<boolean>(
        "document.querySelector('[role=dialog]')?.contains(document.activeElement) ?? false",
      );
    expect(await focusInside()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusInside()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => modal.count()).toBe(0);
    expect(await opener.evaluate((el) => el.matches(':focus'))).toBe(true);
    // The console's own dialog was never involved, and nothing ran.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await settle();
    expect(runs).toEqual([]);
    expect(violations).toEqual([]);
  }, 30_000);

  it("downloads the table's CSV through the console", async () => {
    const shown = await frame.locator('.dg-table-wrap table tbody tr').count();
    const download = page.waitForEvent('download');
    await frame.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('orders.csv');
    const lines = (await readFile((await file.path())!, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('id,customer');
    expect(lines).toHaveLength(shown + 1);
  }, 30_000);

  it('asks one question at a time, and stops asking after three declines', async () => {
    // A fresh frame: its limits start afresh.
    await page.reload();
    frame = await frameOf();
    runs.length = 0;
    const dialog = page.getByRole('dialog');
    const note = () => frame.getByText(/^Note:/).innerText();
    await frame.getByRole('button', { name: 'Ask twice' }).click({ timeout: 20_000 });
    await expect.poll(() => dialog.innerText()).toContain('First question?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(note).toBe('Note: run_declined, question_pending');
    for (let declines = 2; declines <= 3; declines++) {
      await frame.getByRole('button', { name: 'Touch order 1' }).click();
      await expect.poll(() => dialog.innerText()).toContain('Touch order 1?');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    }
    await frame.getByRole('button', { name: 'Touch order 1' }).click();
    await expect.poll(note).toBe('Note: too_many_questions');
    expect(await dialog.count()).toBe(0);
    await settle();
    expect(runsOf('sdk-touch')).toEqual([]);
  }, 60_000);
});
