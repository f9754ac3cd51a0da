/**
 * Issue 25 item 6 in real Chromium: a view whose expressions once froze the tab for 10 s and
 * crashed it (`'x'.padStart(10000).split('').map(a => 'x'.padStart(10000)).join('')`, and the
 * same map handed to a table) shows the budget error in place, the other components render, and
 * the page still answers clicks afterwards.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let page: Page;
let adminToken: string;

const freezing = "'x'.padStart(10000).split('').map(a => 'x'.padStart(10000)).join('')";

beforeAll(async () => {
  console_ = await startConsole();
  adminToken = await loginToken(console_.runtime);
  const saved = await fetch(`${console_.url}/api/v1/projects/demo/views/heavy-expressions`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'heavy-expressions',
      name: 'Heavy expressions',
      definition: {
        kind: 'visual',
        parameters: [],
        queries: [],
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [
            { id: 'joined', type: 'text', content: `{{ ${freezing} }}` },
            {
              id: 'mapped',
              type: 'table',
              value: "{{ 'x'.padStart(10000).split('').map(a => ({ text: 'x'.padStart(10000) })) }}",
            },
            { id: 'fine', type: 'text', content: "Still here: {{ 'ab'.padStart(4, '-') }}" },
            {
              id: 'tabs',
              type: 'tabs',
              tabs: [
                { label: 'First', children: [{ id: 'first', type: 'text', content: 'First tab' }] },
                { label: 'Second', children: [{ id: 'second', type: 'text', content: 'Second tab' }] },
              ],
            },
          ],
        },
      },
    }),
  });
  expect(saved.status, await saved.text()).toBe(201);
  page = await console_.newPage();
  page.setDefaultTimeout(15_000);
  await login(page, 'admin@dogu.local', '/p/demo/e/development/views');
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

describe('expressions cannot hurt the viewer', () => {
  it('shows the budget error in place of the freezing expressions, and the page keeps answering', async () => {
    const crashes: string[] = [];
    page.on('crash', () => crashes.push('crash'));
    await page.goto('/p/demo/e/development/views/heavy-expressions');

    const joined = page.locator('[data-component="joined"]');
    await expect.poll(() => joined.innerText()).toContain('Expression error');
    expect(await joined.innerText()).toContain(
      'the expression does too much work: its built-ins would make or go through more than 10,000,000 characters and items in one evaluation (stopped at padStart)',
    );
    const mapped = page.locator('[data-component="mapped"]');
    await expect.poll(() => mapped.innerText()).toContain('more than 10,000,000 characters and items');
    await expect
      .poll(() => page.locator('[data-component="fine"]').innerText())
      .toContain('Still here: --ab');

    // The page answers: a click on the second tab shows it.
    await page.getByRole('tab', { name: 'Second' }).click();
    await expect.poll(() => page.locator('[data-component="second"]').innerText()).toContain('Second tab');
    // And its main thread runs a script at once (a frozen tab would time out here).
    expect(await page.evaluate<number>('1 + 1')).toBe(2);
    expect(crashes).toEqual([]);
  });
});
