/**
 * Drag and drop in the visual builder (issue 29), in real Chromium against a real embedded runtime:
 * a view built by dragging with the mouse (palette → layout, palette → into a grid and a modal, one
 * component moved before another), then the same with the keyboard only (Space, arrow keys, Space,
 * guided by the screen-reader announcements), Ctrl+Z undoing a move, and the saved order read back
 * after a reload and from the API. dnd-kit is in the builder's chunk only: a view's page loads no
 * script holding it, and nothing breaks the console's CSP.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { axeFindings } from './support/axe.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;
const scripts = new Set<string>();
const cspViolations: string[] = [];

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  page = await console_.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

const palette = (type: string) =>
  page.getByRole('complementary', { name: 'Components' }).getByRole('button', { name: `+ ${type}` });
const zone = (name: string) => page.getByRole('list', { name, exact: true });
const item = (id: string) => page.locator(`.canvas-tree [data-component-id="${id}"]`);
/** The strip after a box's last child (dropping there: at the end). */
const endOf = (name: string) => zone(name).locator(':scope > li.canvas-end');
const head = (id: string) => item(id).locator(':scope > .canvas-head');
/** The ids of a zone's own children, in order. */
const order = (name: string) =>
  zone(name)
    .locator(':scope > li[data-component-id]')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-component-id')));
/**
 * Space, then wait until dnd-kit's keyboard sensor listens: it adds its key listener in a 0 ms timer
 * after the pick-up, and under load Chromium handles the next keys before that timer (they would
 * scroll the page instead). A 0 ms timer set now runs after it.
 */
async function pickUp() {
  await page.keyboard.press('Space');
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
}

/** What dnd-kit's live region says now (it keeps the last announcement). */
const announced = () => page.locator('[id^="DndLiveRegion"]').innerText();

async function centreOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not shown');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}

/**
 * A real mouse drag: press, move past the 6 px that start a drag, travel in steps (dnd-kit measures
 * on pointer moves), rest on the target, release.
 */
async function drag(from: Locator, to: Locator) {
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

/**
 * The keyboard way: Space picks up the focused item, `first` (once, if given) then `key` move it
 * until the announcement names the wanted place, Space drops it. At most 12 presses.
 */
async function keyboardMove(focus: Locator, keys: { first?: Arrow; key: Arrow }, wanted: RegExp) {
  await focus.focus();
  await pickUp();
  // Picked up: said first, then where it would go (a component starts over its own place).
  await expect.poll(announced).toMatch(/^Picked up|would go to/);
  const heard: string[] = [];
  const press = async (key: Arrow) => {
    const before = await announced();
    await page.keyboard.press(key);
    // Wait for the announcement of this step before the next key, so a slow render never makes the
    // loop overshoot; a step that lands on a place worded like the last one changes nothing.
    await expect
      .poll(announced, { timeout: 2_000 })
      .not.toBe(before)
      .catch(() => undefined);
    heard.push(`${key}: ${await announced()}`);
  };
  if (keys.first) await press(keys.first);
  for (let i = 0; i < 12 && !wanted.test(await announced()); i++) await press(keys.key);
  expect(await announced(), heard.join('\n')).toMatch(wanted);
  await page.keyboard.press('Space');
}

async function savedLayout() {
  const response = await fetch(`${console_.url}/api/v1/projects/demo/views/dnd-layout`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { definition: { layout: Record<string, unknown> } }).definition.layout;
}

describe('drag and drop in the visual builder', () => {
  it('builds a view with the mouse: from the palette into the layout, a grid and a modal, and reorders by dragging', async () => {
    await page.goto(`${base}/views-new/visual`);
    const builder = page.locator('.view-builder');
    await builder.getByLabel('View id').fill('dnd-layout');
    await builder.getByLabel('Name', { exact: true }).fill('Drag and drop');

    // Mouse: a grid into the empty layout, a text into that grid, a button after the grid.
    await drag(palette('Grid'), zone('grid root'));
    await expect.poll(() => order('grid root')).toEqual(['grid1']);
    await drag(palette('Text'), zone('grid grid1'));
    await expect.poll(() => order('grid grid1')).toEqual(['text1']);
    await drag(palette('Button'), endOf('grid root'));
    await expect.poll(() => order('grid root')).toEqual(['grid1', 'button1']);
    // A modal (a container of its own) at the end, and a Markdown text into it.
    await drag(palette('Modal or drawer'), endOf('grid root'));
    await expect.poll(() => order('grid root')).toEqual(['grid1', 'button1', 'modal1']);
    await drag(palette('Markdown'), zone('modal modal1'));
    await expect.poll(() => order('modal modal1')).toEqual(['markdown1']);
    // The new component is selected (its properties show) and the preview renders it.
    await page.locator('.builder-preview [data-component="grid1"]').waitFor({ state: 'attached' });

    // Reorder by dragging: the button onto the grid goes before it; the text out of the grid to the end.
    await drag(head('button1'), head('grid1'));
    await expect.poll(() => order('grid root')).toEqual(['button1', 'grid1', 'modal1']);
    await drag(head('text1'), endOf('grid root'));
    await expect.poll(() => order('grid root')).toEqual(['button1', 'grid1', 'modal1', 'text1']);
    await expect.poll(() => order('grid grid1')).toEqual([]);
  }, 120_000);

  it('does the same with the keyboard only, guided by the announcements; Escape cancels', async () => {
    // Keyboard only: a new tabs component from the palette to the end of the layout.
    await keyboardMove(
      palette('Tabs'),
      { first: 'ArrowRight', key: 'ArrowDown' },
      /would go to position 5 of 5 in grid root/,
    );
    await expect.poll(() => order('grid root')).toEqual(['button1', 'grid1', 'modal1', 'text1', 'tabs1']);
    expect(await announced()).toMatch(/^A new Tabs dropped at position 5 of 5 in grid root/i);
    // Focus stays on the palette item, so Enter still adds one (to the selected container) as before.
    // The text, by keyboard, into the first tab of the tabs.
    await keyboardMove(
      head('text1'),
      { key: 'ArrowDown' },
      /would go to position 1 of 1 in tab "Tab 1" of tabs1/,
    );
    await expect.poll(() => order('tab "Tab 1" of tabs1')).toEqual(['text1']);
    await expect.poll(() => order('grid root')).toEqual(['button1', 'grid1', 'modal1', 'tabs1']);
    // And the button after the grid: a reorder within the layout.
    await keyboardMove(head('button1'), { key: 'ArrowDown' }, /would go to position 2 of 4 in grid root/);
    await expect.poll(() => order('grid root')).toEqual(['grid1', 'button1', 'modal1', 'tabs1']);

    // Escape cancels a pick-up: nothing moves.
    await head('modal1').focus();
    await pickUp();
    await expect.poll(announced).toMatch(/^Modal or drawer modal1 would go to position 3 of 4 in grid root/);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Escape');
    await expect.poll(announced).toMatch(/cancelled: nothing changed/);
    expect(await order('grid root')).toEqual(['grid1', 'button1', 'modal1', 'tabs1']);
  }, 120_000);

  it('undoes a move with Ctrl+Z, keeps the up/down buttons, saves, and shows the saved order after a reload', async () => {
    // Ctrl+Z undoes the last move (the button goes back before the grid), and only that.
    await page.keyboard.press('Control+z');
    await expect.poll(() => order('grid root')).toEqual(['button1', 'grid1', 'modal1', 'tabs1']);
    expect(await order('tab "Tab 1" of tabs1')).toEqual(['text1']);

    // The up/down buttons still move the selected component.
    await head('modal1').click();
    await page.getByRole('button', { name: '↑ Up' }).click();
    await expect.poll(() => order('grid root')).toEqual(['button1', 'modal1', 'grid1', 'tabs1']);

    await page.getByRole('button', { name: 'Save draft' }).click();
    const outcome = page.getByText('Saved as version 1.').or(page.getByRole('alert'));
    await outcome.first().waitFor();
    expect(await outcome.first().innerText()).toBe('Saved as version 1.');
    const layout = await savedLayout();
    const ids = (list: unknown) => (list as { id: string }[]).map((c) => c.id);
    expect(ids(layout.children)).toEqual(['button1', 'modal1', 'grid1', 'tabs1']);
    const children = layout.children as Record<string, unknown>[];
    expect(ids(children[1]!.children)).toEqual(['markdown1']);
    expect(ids((children[3]!.tabs as { children: unknown }[])[0]!.children)).toEqual(['text1']);

    await page.reload();
    await expect.poll(() => order('grid root')).toEqual(['button1', 'modal1', 'grid1', 'tabs1']);
    await expect.poll(() => order('tab "Tab 1" of tabs1')).toEqual(['text1']);
    expect(cspViolations).toEqual([]);
  }, 120_000);

  it('has no axe-core findings on the builder with its layout canvas (WCAG 2.1 AA)', async () => {
    await page.goto(`${base}/views/dnd-layout/edit`);
    await expect.poll(() => order('grid root')).toEqual(['button1', 'modal1', 'grid1', 'tabs1']);
    expect(await axeFindings(page)).toEqual([]);
  }, 60_000);

  it('fits the builder and its layout canvas into 390 px without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/views/dnd-layout/edit`);
    await expect.poll(() => order('grid root')).toEqual(['button1', 'modal1', 'grid1', 'tabs1']);
    const widths = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
      '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
    );
    expect(widths.scrollWidth).toBeLessThanOrEqual(widths.innerWidth);
    const canvas = await page.locator('.canvas-tree').boundingBox();
    expect(canvas!.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 1000 });
  }, 60_000);

  it('loads dnd-kit with the builder only, never with a view', async () => {
    const holdsDndKit = async (path: string) =>
      (await (await fetch(`${console_.url}${path}`)).text()).includes('DndLiveRegion');
    const builderScripts = [...scripts];
    expect(
      (await Promise.all(builderScripts.map(holdsDndKit))).some(Boolean),
      'a builder script holds dnd-kit',
    ).toBe(true);

    scripts.clear();
    await page.goto(`${base}/views/dnd-layout`);
    await page.getByRole('heading', { name: 'Drag and drop', level: 1 }).waitFor();
    await page.locator('[data-component="button1"]').waitFor();
    const viewScripts = [...scripts];
    expect(viewScripts.length).toBeGreaterThan(0);
    expect(await Promise.all(viewScripts.map(holdsDndKit))).not.toContain(true);
    expect(cspViolations).toEqual([]);
  });
});
