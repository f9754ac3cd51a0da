/**
 * Times mean what the person typed (issue 24, item 3; decision 0085), in real Chromium with the
 * browser itself in UTC and in America/Los_Angeles (one browser, a context per zone): a reservation
 * for 06:41 Asia/Tokyo runs at 06:41 in Tokyo whatever the browser's zone, the list shows it with its
 * zone, and the cron run history shows its times in the job's zone, named, beside "Next run".
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let token: string;
const base = '/p/demo/e/development';
const apiBase = '/api/v1/projects/demo/environments/development';
const year = new Date().getUTCFullYear() + 1;

async function api<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

let jobId = '';
beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  await api('PUT', '/api/v1/projects/demo/actions/tz-echo', {
    id: 'tz-echo',
    name: 'Time zone echo',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [],
    statements: [{ title: 'one', sql: 'SELECT 1 AS n' }],
  });
  const job = await api<{ id: string }>('POST', `${apiBase}/cron-jobs`, {
    name: 'Tokyo morning',
    schedule: {
      kind: 'form',
      days: { by: 'weekday', weekdays: ['MON'] },
      times: { kind: 'fixed', times: ['09:00'] },
    },
    actionId: 'tz-echo',
    arguments: {},
    timeZone: 'Asia/Tokyo',
  });
  jobId = job.id;
  await api('POST', `${apiBase}/cron-jobs/${jobId}/run-now`, {});
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

describe.each(['UTC', 'America/Los_Angeles'])('a browser in %s', (browserZone) => {
  let page: Page;

  beforeAll(async () => {
    page = await console_.newPage({ timezoneId: browserZone });
    page.setDefaultTimeout(10_000);
    await login(page);
  }, 60_000);

  it('reserves 06:41 in Asia/Tokyo as 06:41 in Tokyo and lists it with its zone', async () => {
    // A different minute per browser, so each row is its own.
    const minute = browserZone === 'UTC' ? '41' : '42';
    await page.goto(`${base}/reservations`);
    await page.getByRole('heading', { name: 'Reservations' }).waitFor();
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(browserZone);
    await page.getByLabel(/^Action/).selectOption('tz-echo');
    await page.getByLabel(/^Time zone/).selectOption('Asia/Tokyo');
    await page.getByLabel(/^Run at \(Asia\/Tokyo\)/).fill(`${year}-01-10T06:${minute}`);
    await page.getByRole('button', { name: 'Reserve', exact: true }).click();
    await page.getByText('Reserved.').waitFor();

    const { data } = await api<{ data: { runAt: string; timeZone: string }[] }>(
      'GET',
      `${apiBase}/reservations`,
    );
    expect(data).toContainEqual(
      expect.objectContaining({ runAt: `${year}-01-09T21:${minute}:00.000Z`, timeZone: 'Asia/Tokyo' }),
    );
    const row = page.getByRole('row').filter({ hasText: `06:${minute}` });
    await expect
      .poll(() => row.first().textContent())
      .toMatch(new RegExp(`10/01/${year}.*06:${minute} \\(Asia/Tokyo\\)`));
  });

  it('refuses a time the clocks skip in the chosen zone, in words', async () => {
    const march = new Date(Date.UTC(year, 2, 1)).getUTCDay();
    const secondSunday = String(1 + ((7 - march) % 7) + 7).padStart(2, '0');
    await page.getByLabel(/^Time zone/).selectOption('America/Los_Angeles');
    await page.getByLabel(/^Run at \(America\/Los_Angeles\)/).fill(`${year}-03-${secondSunday}T02:30`);
    await page.getByRole('button', { name: 'Reserve', exact: true }).click();
    await page
      .getByText(/does not exist in America\/Los_Angeles/)
      .first()
      .waitFor();
  });

  it("shows the cron run history in the job's zone, named, beside the next run", async () => {
    await page.goto(`${base}/cron-jobs/${encodeURIComponent(jobId)}`);
    await page.getByRole('heading', { name: 'Tokyo morning' }).waitFor();
    const history = page.locator('.run-history');
    const first = history.getByRole('row').nth(1);
    await expect.poll(() => first.textContent()).toMatch(/\(Asia\/Tokyo\)/);
    const runs = await api<{ data: { scheduledAt: string }[] }>('GET', `${apiBase}/cron-jobs/${jobId}/runs`);
    const tokyo = new Date(runs.data[0]!.scheduledAt).toLocaleString('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(await first.textContent()).toContain(`${tokyo} (Asia/Tokyo)`);
    await history.getByText('Scheduled from (Asia/Tokyo)').waitFor();
  });
});
