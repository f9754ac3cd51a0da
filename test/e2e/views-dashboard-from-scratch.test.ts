/**
 * The operations dashboard built from scratch in the visual builder (issue 29), in real Chromium
 * against a real embedded runtime: a new view, its three queries on the demo actions, a chart, the
 * search input and the orders table dragged from the palette with the mouse, the second chart, a
 * modal and its form dropped with the keyboard (Space, arrows, Space), properties set in the panel
 * (chart series, debounce, the table's query taking the input's value, a row click opening the
 * modal, a submit running update-order after a confirmation and then a toast), one undo and one redo,
 * renames whose references follow (a modal's open and close events too), the view's action group,
 * the draft's live preview. Then the saved view at 1280 px and 390 px without sideways
 * scrolling, one run per query per open and exactly one search run per search, a row edited in the
 * modal, the CSV download, a rollback to the first version from the version history, and that
 * version published from the builder.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
const viewId = 'ops-from-scratch';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;

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
/** Long enough for a duplicate run (an effect or a debounce firing again) to show up. */
const settle = () => page.waitForTimeout(1500);
/** Generous: two cores shared by several test processes. */
const poll = { timeout: 30_000 };

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  page = await console_.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(30_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  page.on('response', record);
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 180_000);

afterAll(async () => {
  await console_?.close();
});

const palette = (type: string) =>
  page.getByRole('complementary', { name: 'Components' }).getByRole('button', { name: `+ ${type}` });
const zone = (name: string) => page.getByRole('list', { name, exact: true });
const item = (id: string) => page.locator(`.canvas-tree [data-component-id="${id}"]`);
const endOf = (name: string) => zone(name).locator(':scope > li.canvas-end');
const head = (id: string) => item(id).locator(':scope > .canvas-head');
const order = (name: string) =>
  zone(name)
    .locator(':scope > li[data-component-id]')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-component-id')));
const props = () => page.locator('.builder-properties');
const announced = () => page.locator('[id^="DndLiveRegion"]').innerText();

/** Space, then a 0 ms timer: dnd-kit adds its key listener in one (views-builder-dnd.test.ts). */
async function pickUp() {
  await page.keyboard.press('Space');
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
}

async function centreOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not shown');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A real mouse drag: press, move past the 6 px that start a drag, travel in steps, release. */
async function drag(from: Locator, to: Locator) {
  await to.scrollIntoViewIfNeeded();
  await from.scrollIntoViewIfNeeded();
  const start = await centreOf(from);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 12, start.y + 8, { steps: 4 });
  const target = await centreOf(to);
  await page.mouse.move(target.x, target.y, { steps: 20 });
  await page.mouse.move(target.x + 1, target.y, { steps: 2 });
  await page.mouse.up();
}

type Arrow = 'ArrowDown' | 'ArrowUp' | 'ArrowRight' | 'ArrowLeft';

/** The keyboard way: Space picks up, arrows until the announcement names the place, Space drops. */
async function keyboardMove(focus: Locator, keys: { first?: Arrow; key: Arrow }, wanted: RegExp) {
  await focus.focus();
  await pickUp();
  await expect.poll(announced, poll).toMatch(/^Picked up|would go to/);
  const heard: string[] = [];
  const press = async (key: Arrow) => {
    const before = await announced();
    await page.keyboard.press(key);
    await expect
      .poll(announced, { timeout: 3_000 })
      .not.toBe(before)
      .catch(() => undefined);
    heard.push(`${key}: ${await announced()}`);
  };
  if (keys.first) await press(keys.first);
  for (let i = 0; i < 12 && !wanted.test(await announced()); i++) await press(keys.key);
  expect(await announced(), heard.join('\n')).toMatch(wanted);
  await page.keyboard.press('Space');
}

async function select(id: string) {
  await head(id).click();
  await expect.poll(() => page.locator('.builder-panel h2 .mono').first().innerText(), poll).toBe(id);
}

async function addQuery(index: number, id: string, actionId: string) {
  await page.getByRole('button', { name: 'Add query' }).click();
  const query = page.locator('.builder-query').nth(index);
  await query.getByLabel('Query id').fill(id);
  await query.getByLabel('Action', { exact: true }).selectOption(actionId);
  return query;
}

async function savedView() {
  const response = await fetch(`${console_.url}/api/v1/projects/demo/views/${viewId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { version: number; definition: Record<string, unknown> };
}

const table = () => page.locator('[data-component="orders_table"] table.view-table');
const bodyRows = () => table().locator('tbody tr');
const noSidewaysScroll = () =>
  page.evaluate<boolean>('document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth');

async function openView() {
  await page.goto(`${base}/views/${viewId}`);
  await expect.poll(() => bodyRows().count(), poll).toBe(20);
  await page.getByRole('img', { name: 'Line chart: Orders per day' }).waitFor();
  await page.getByRole('img', { name: 'Bar chart: Revenue by status (¥)' }).waitFor();
}

describe('the operations dashboard built from scratch in the builder', () => {
  it('lays out a chart, the search input and the table with the mouse, the rest with the keyboard', async () => {
    await page.goto(`${base}/views-new/visual`);
    const builder = page.locator('.view-builder');
    await builder.getByLabel('View id').fill(viewId);
    await builder.getByLabel('Name', { exact: true }).fill('Operations from scratch');
    // Listed in the action group of the actions it runs, chosen in the view settings.
    await builder.getByLabel('Action group').selectOption('operations');

    // Mouse: a chart into the empty layout, then the input and the table after it.
    await drag(palette('Chart'), zone('grid root'));
    await expect.poll(() => order('grid root'), poll).toEqual(['chart1']);
    await drag(palette('Input'), endOf('grid root'));
    await expect.poll(() => order('grid root'), poll).toEqual(['chart1', 'input1']);
    await drag(palette('Table'), endOf('grid root'));
    await expect.poll(() => order('grid root'), poll).toEqual(['chart1', 'input1', 'table1']);

    // Keyboard: the second chart after the first, a modal at the end, a form into the modal.
    await keyboardMove(
      palette('Chart'),
      // A palette item starts at the end of the layout; up from there.
      { first: 'ArrowRight', key: 'ArrowUp' },
      /would go to position 2 of 4 in grid root/,
    );
    await expect.poll(() => order('grid root'), poll).toEqual(['chart1', 'chart2', 'input1', 'table1']);
    await keyboardMove(
      palette('Modal or drawer'),
      { first: 'ArrowRight', key: 'ArrowDown' },
      /would go to position 5 of 5 in grid root/,
    );
    await expect
      .poll(() => order('grid root'), poll)
      .toEqual(['chart1', 'chart2', 'input1', 'table1', 'modal1']);
    await keyboardMove(palette('Form'), { first: 'ArrowRight', key: 'ArrowDown' }, /in modal modal1\.$/);
    await expect.poll(() => order('modal modal1'), poll).toEqual(['form1']);

    // One undo takes the form out of the modal, one redo puts it back; nothing else moves.
    await page.keyboard.press('Control+z');
    await expect.poll(() => order('modal modal1'), poll).toEqual([]);
    expect(await order('grid root')).toEqual(['chart1', 'chart2', 'input1', 'table1', 'modal1']);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => order('modal modal1'), poll).toEqual(['form1']);
    expect(await order('grid root')).toEqual(['chart1', 'chart2', 'input1', 'table1', 'modal1']);
  }, 240_000);

  it('sets the queries and every property in the panel, renames components (their references follow), and saves', async () => {
    await addQuery(0, 'per_day', 'orders-per-day');
    await addQuery(1, 'by_status', 'revenue-by-status');
    const orders = await addQuery(2, 'orders', 'lookup-orders');
    await orders.getByLabel('Arguments (name: expression per line)').fill('q: components.input1.value');
    await orders.getByText('Page on the server (limit/offset parameters)').click();
    await orders.getByLabel('Total count (expression; rows, result)').fill('rows[0]?.total_count ?? 0');

    await select('chart1');
    await props().getByLabel('Title (template)').fill('Orders per day');
    await props().getByLabel('Chart type').selectOption('line');
    await props().getByLabel('Query', { exact: true }).selectOption('per_day');
    await props().getByLabel('X field (labels; a number for scatter)').fill('day');
    await props().getByLabel('Y fields (one series per line)').fill('orders');
    await select('chart2');
    await props().getByLabel('Title (template)').fill('Revenue by status (¥)');
    await props().getByLabel('Query', { exact: true }).selectOption('by_status');
    await props().getByLabel('X field (labels; a number for scatter)').fill('status');
    await props().getByLabel('Y fields (one series per line)').fill('revenue_yen');

    await select('input1');
    await props().getByLabel('Label (template)').fill('Search orders');
    await props().getByLabel('Pause before queries run (ms)').fill('400');

    await select('table1');
    await props().getByLabel('Title (template)').fill('Orders');
    await props().getByLabel('Query', { exact: true }).selectOption('orders');
    await props()
      .getByLabel('Columns (field | label | format per line)')
      .fill(
        [
          'id | Order',
          'customer | Customer',
          'status | Status',
          'total_yen | Total (¥) | number',
          'ordered_at | Ordered at | datetime',
        ].join('\n'),
      );
    await props().getByText('CSV export button').click();
    const rowClick = props().getByRole('group', { name: 'On row click' });
    await rowClick.getByLabel('Event type for On row click').selectOption('openModal');
    await rowClick.getByRole('button', { name: 'Add to On row click' }).click();
    await rowClick.getByLabel('Modal', { exact: true }).selectOption('modal1');

    await select('modal1');
    await props().getByLabel('Title (template)').fill('Order {{ components.table1.value.id }}');

    await select('form1');
    await props()
      .getByLabel('Fields (name | type | label per line)')
      .fill(['status | text | Status', 'total_yen | number | Total (¥)'].join('\n'));
    await props().getByLabel('Submit button label').fill('Save');
    const submit = props().getByRole('group', { name: 'On submit' });
    await submit.getByRole('button', { name: 'Add to On submit' }).click();
    const run = submit.getByRole('region', { name: 'On submit 1' });
    await run.getByLabel('Action', { exact: true }).selectOption('update-order');
    await run
      .getByLabel('Arguments (name: expression per line)')
      .first()
      .fill(
        [
          'order_id: components.table1.value.id',
          'status: components.form1.value.status',
          'total_yen: components.form1.value.total_yen',
        ].join('\n'),
      );
    await run
      .getByLabel('Ask before running (template, optional)')
      .fill('Save order {{ components.table1.value.id }} as {{ components.form1.value.status }}?');
    const then = run.getByRole('group', { name: 'Then' });
    for (const type of ['closeModal', 'refresh', 'toast']) {
      await then.getByLabel('Event type for Then').selectOption(type);
      await then.getByRole('button', { name: 'Add to Then' }).click();
    }
    await then.getByLabel('Modal', { exact: true }).selectOption('modal1');
    await then.getByLabel('Queries to refresh (comma separated)').fill('orders');
    await then
      .getByLabel('Message (template)')
      .fill('Saved order {{ result[0].id }}: {{ result[0].status }}');

    // Renames: the input (the query's argument follows), the table and the form (the modal's title,
    // the submit's arguments and its question follow).
    for (const [from, to] of [
      ['input1', 'search'],
      ['table1', 'orders_table'],
      ['form1', 'edit_form'],
      ['modal1', 'edit_order'],
    ] as const) {
      await select(from);
      await page.getByRole('complementary', { name: 'Properties' }).getByLabel('Component id').fill(to);
      await page.keyboard.press('Enter');
      await expect.poll(() => order('grid root'), poll).not.toContain(from);
      await select(to);
    }
    expect(await order('grid root')).toEqual(['chart1', 'chart2', 'search', 'orders_table', 'edit_order']);
    expect(await order('modal edit_order')).toEqual(['edit_form']);

    // The builder's preview draws the charts from the draft.
    const preview = page.locator('.builder-preview');
    await preview.getByRole('img', { name: 'Line chart: Orders per day' }).waitFor();
    await preview.getByRole('img', { name: 'Bar chart: Revenue by status (¥)' }).waitFor();

    await page.getByRole('button', { name: 'Save draft' }).click();
    // Either the save's notice or the refusal (shown, so a failure says why).
    const outcome = page.getByText('Saved as version 1.').or(page.getByRole('alert'));
    await outcome.first().waitFor();
    expect(await outcome.first().innerText()).toBe('Saved as version 1.');
    const saved = await savedView();
    expect(saved.version).toBe(1);
    expect((saved as { groupId?: string }).groupId).toBe('operations');
    const definition = saved.definition as {
      queries: { id: string; arguments: Record<string, string> }[];
      layout: { children: Record<string, unknown>[] };
    };
    expect(definition.queries.map((q) => q.id)).toEqual(['per_day', 'by_status', 'orders']);
    expect(definition.queries[2]!.arguments).toEqual({ q: 'components.search.value' });
    const [, , search, ordersTable, modal] = definition.layout.children;
    expect(search).toMatchObject({ id: 'search', type: 'input', debounceMs: 400 });
    expect(ordersTable).toMatchObject({
      id: 'orders_table',
      query: 'orders',
      csvExport: true,
      rowClick: [{ type: 'openModal', modal: 'edit_order' }],
    });
    expect(modal).toMatchObject({ id: 'edit_order', title: 'Order {{ components.orders_table.value.id }}' });
    const form = (modal!.children as Record<string, unknown>[])[0]!;
    expect(form).toMatchObject({
      id: 'edit_form',
      submit: [
        {
          type: 'runAction',
          actionId: 'update-order',
          arguments: {
            order_id: 'components.orders_table.value.id',
            status: 'components.edit_form.value.status',
            total_yen: 'components.edit_form.value.total_yen',
          },
          onSuccess: [{ type: 'closeModal', modal: 'edit_order' }, { type: 'refresh' }, { type: 'toast' }],
        },
      ],
    });
  }, 300_000);
});

describe('the built dashboard in use', () => {
  it('opens at 1280 px with one run of each query and no sideways scrolling', async () => {
    // Off the builder first: its live preview runs the same queries, and a run of it still under way
    // would be counted here.
    await page.goto(`${base}/views`);
    await settle();
    runs.length = 0;
    await openView();
    await settle();
    expect(runs.map((r) => `${r.actionId} ${r.status}`).sort(), JSON.stringify(runs)).toEqual([
      'lookup-orders 200',
      'orders-per-day 200',
      'revenue-by-status 200',
    ]);
    expect(runsOf('lookup-orders').map((r) => r.body.arguments)).toEqual([{ q: '', limit: 20, offset: 0 }]);
    expect(await noSidewaysScroll()).toBe(true);
  }, 120_000);

  it('runs exactly one search per pause in typing, edits a row in the modal and exports CSV', async () => {
    runs.length = 0;
    await page.getByLabel('Search orders').pressSequentially('299', { delay: 50 });
    await expect.poll(() => runsOf('lookup-orders').length, poll).toBe(1);
    await settle();
    expect(runs.map((r) => r.actionId)).toEqual(['lookup-orders']);
    expect(runs[0]!.body.arguments).toEqual({ q: '299', limit: 20, offset: 0 });
    // An order number no customer's name contains: one row.
    await expect.poll(() => bodyRows().count(), poll).toBe(1);
    expect((await bodyRows().first().locator('td').first().innerText()).trim()).toBe('299');

    runs.length = 0;
    await bodyRows().first().locator('td').nth(1).click();
    const modal = page.getByRole('dialog', { name: 'Order 299' });
    await modal.waitFor();
    await modal.getByLabel('Status').fill('shipped');
    await modal.getByLabel('Total (¥)').fill('4242');
    await modal.getByRole('button', { name: 'Save' }).click();
    const confirm = page.getByRole('dialog', { name: /^Run update-order in Development/ });
    await expect.poll(() => confirm.innerText(), poll).toContain('Save order 299 as shipped?');
    expect(runsOf('update-order')).toEqual([]);
    await confirm.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.locator('.toasts').innerText(), poll).toContain('Saved order 299: shipped');
    await expect.poll(() => page.getByRole('dialog').count(), poll).toBe(0);
    await expect.poll(() => bodyRows().first().innerText(), poll).toMatch(/shipped\s+4,242/);
    await settle();
    expect(runs.map((r) => `${r.actionId} ${r.status}`)).toEqual(['update-order 200', 'lookup-orders 200']);
    expect(runsOf('update-order')[0]!.body).toEqual({
      arguments: { order_id: 299, status: 'shipped', total_yen: 4242 },
      source: { viewId },
      confirm: true,
    });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('orders_table.csv');
    const lines = (await readFile((await download.path())!, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('Order,Customer,Status,Total (¥),Ordered at');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^299,Customer \d+,shipped,4242,2026-/);
  }, 180_000);

  it('fits 390 px without sideways scrolling, the modal too', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    runs.length = 0;
    await openView();
    await settle();
    expect(runs.map((r) => r.actionId).sort()).toEqual([
      'lookup-orders',
      'orders-per-day',
      'revenue-by-status',
    ]);
    expect(await noSidewaysScroll()).toBe(true);
    await bodyRows().first().locator('td').nth(1).click();
    await page.getByRole('dialog').waitFor();
    expect(await noSidewaysScroll()).toBe(true);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 1000 });
  }, 120_000);
});

describe('the version history of the built dashboard', () => {
  it('rolls back to the first version after a second one, shows the first again, and publishes it', async () => {
    await page.goto(`${base}/views/${viewId}/edit`);
    await select('orders_table');
    await props().getByLabel('Title (template)').fill('Orders (second version)');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    await openView();
    await expect
      .poll(() => page.locator('[data-component="orders_table"]').innerText(), poll)
      .toContain('Orders (second version)');

    await page.getByRole('link', { name: 'Versions' }).click();
    const versions = page.getByRole('table', { name: 'Saved versions' });
    await versions.getByRole('button', { name: 'Roll back to v1' }).click();
    await page
      .getByRole('dialog', { name: 'Roll back to version 1?' })
      .getByRole('button', { name: 'Roll back' })
      .click();
    await page.getByText('Version 1 saved again as version 3.').waitFor();
    const after = await savedView();
    expect(after.version).toBe(3);
    const title = (after.definition as { layout: { children: { title?: string }[] } }).layout.children[3]!
      .title;
    expect(title).toBe('Orders');

    await openView();
    await expect
      .poll(() => page.locator('[data-component="orders_table"]').innerText(), poll)
      .not.toContain('second version');
    expect(await page.locator('[data-component="orders_table"]').innerText()).toContain('Orders');

    // Publishing the rolled-back draft from the builder pins Development to it.
    await page.goto(`${base}/views/${viewId}/edit`);
    await page.getByRole('button', { name: 'Save and publish to Development' }).click();
    await page.getByText('Version 4 is published to Development.').waitFor();
    const publication = await fetch(
      `${console_.url}/api/v1/projects/demo/environments/development/views/${viewId}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(publication.status).toBe(200);
    expect(await publication.json()).toMatchObject({ version: 4, latestVersion: 4, published: true });
    await openView();
    expect(await page.locator('[data-component="orders_table"]').innerText()).not.toContain('second version');
  }, 180_000);
});
