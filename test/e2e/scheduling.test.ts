/**
 * Scheduling screens in real Chromium against a real embedded runtime: create a cron job through
 * the form (live preview), see its next two runs on the detail screen as the API computes them,
 * upload a batch CSV and watch the progress bar reach the end, download the results; Japanese.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken, tempDir } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let page: Page;
let token: string;
const base = '/p/demo/e/development';
const apiBase = '/api/v1/projects/demo/environments/development';

async function apiGet<T>(path: string): Promise<T> {
  const response = await fetch(`${console_.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** What the console shows for an ISO time in a zone (the same Intl call the screen makes, in the page). */
const inZone = (target: Page, iso: string, zone: string, language: string) =>
  target.evaluate(
    ([time, timeZone, lang]) =>
      `${new Date(time!).toLocaleString(lang === 'ja' ? 'ja-JP' : 'en-GB', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        weekday: 'short',
      })} (${timeZone})`,
    [iso, zone, language],
  );

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  page = await console_.newPage();
  // A missing element fails its own step quickly instead of the whole test timing out.
  page.setDefaultTimeout(10_000);
  await login(page);
}, 90_000);

afterAll(async () => {
  await console_?.close();
});

describe('scheduling screens (Chromium, embedded runtime)', () => {
  let jobId = '';

  it('creates a cron job through the form with a live preview', async () => {
    await page.getByRole('link', { name: 'Cron jobs' }).click();
    await page.getByRole('heading', { name: 'Cron jobs' }).waitFor();
    await page.getByRole('link', { name: 'New cron job' }).click();
    await page.getByLabel(/^Name/).fill('Morning sales report');
    await page.getByLabel(/^Action/).selectOption('sales-report');
    await page.getByLabel(/Top customers/).fill('3');
    await page.getByLabel('Sat').check();
    await page.getByRole('button', { name: 'Add a time' }).click();
    await page.getByLabel('Time 2', { exact: true }).fill('17:45');
    const preview = page.locator('.schedule-preview');
    await preview.getByText('0 9 ? * MON-SAT *').waitFor();
    await preview.getByText('45 17 ? * MON-SAT *').waitFor();
    await expect.poll(() => page.getByTestId('next-run').textContent()).toMatch(/\(Asia\/Tokyo\)$/);
    await screenshot(page, 'cron-job-form', { fullPage: true });

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Morning sales report' }).waitFor();
    jobId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    expect(jobId).not.toBe('new');
  });

  it('shows the next and second-next runs the API computes, the arguments and the executor', async () => {
    const job = await apiGet<{
      nextRuns: string[];
      arguments: Record<string, unknown>;
      schedule: unknown;
      executor: { email: string };
    }>(`${apiBase}/cron-jobs/${encodeURIComponent(jobId)}`);
    expect(job.arguments).toEqual({ top: 3 });
    expect(job.schedule).toEqual({
      kind: 'form',
      days: { by: 'weekday', weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
      times: { kind: 'fixed', times: ['09:00', '17:45'] },
    });
    expect(job.nextRuns).toHaveLength(2);
    await expect(page.getByTestId('next-run').textContent()).resolves.toBe(
      await inZone(page, job.nextRuns[0]!, 'Asia/Tokyo', 'en'),
    );
    await expect(page.getByTestId('second-run').textContent()).resolves.toBe(
      await inZone(page, job.nextRuns[1]!, 'Asia/Tokyo', 'en'),
    );
    await expect(page.locator('.detail-list').textContent()).resolves.toContain(job.executor.email);
    expect(job.executor.email).toBe('admin@dogu.local');
    await expect(page.locator('.detail-list').textContent()).resolves.toContain('top = 3');
    await screenshot(page, 'cron-job-detail', { fullPage: true });
  });

  it('stops and resumes the job, and lists it with its state', async () => {
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.state-badge', { hasText: 'Stopped' }).waitFor();
    await expect(page.getByTestId('next-run').textContent()).resolves.toMatch(/None/);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('.state-badge', { hasText: 'Running' }).waitFor();
    await page.getByRole('link', { name: 'Cron jobs' }).first().click();
    const row = page.getByRole('row', { name: /Morning sales report/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(
      /sales-report.*Mon, Tue, Wed, Thu, Fri, Sat · at 09:00, 17:45/,
    );
    await screenshot(page, 'cron-job-list');
  });

  it('uploads a batch CSV, watches the progress bar reach the end and downloads the results', async () => {
    const template = await (
      await fetch(`${console_.url}${apiBase}/actions/sales-report/batch-template`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).text();
    const header = template.replace(/^\uFEFF/, '').split(/\r?\n/)[0]!;
    expect(header).toBe('top');
    const dir = await tempDir('e2e-batch');
    const file = join(dir.path, 'rows.csv');
    await writeFile(file, `${header}\r\n1\r\n2\r\n3\r\n4\r\n`);
    try {
      await page.goto(`${base}/batches`);
      await page.getByLabel(/^Action/).selectOption('sales-report');
      await page.getByRole('button', { name: 'Start a batch' }).click();
      await page.getByRole('heading', { name: 'Batch: Sales report' }).waitFor();
      await page.getByRole('tab', { name: 'CSV file' }).click();
      await page.getByRole('tabpanel').getByLabel('CSV file').setInputFiles(file);
      await page.getByRole('button', { name: 'Start batch' }).click();
      await page.waitForURL(/\/batches\/[^/]+$/);
      const bar = page.getByRole('progressbar', { name: 'Progress' });
      await expect.poll(() => bar.getAttribute('aria-valuemax'), { timeout: 10_000 }).toBe('4');
      await expect
        .poll(() => page.getByTestId('batch-status').textContent(), { timeout: 20_000 })
        .toBe('Finished');
      await expect(bar.getAttribute('aria-valuenow')).resolves.toBe('4');
      await expect(page.getByTestId('batch-counts').textContent()).resolves.toBe(
        '100% · 4 succeeded · 0 failed · 0 running · 0 waiting · 4 rows',
      );
      await screenshot(page, 'batch-progress', { fullPage: true });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download results (CSV)' }).click(),
      ]);
      const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
      const lines = csv.trim().split(/\r?\n/);
      expect(lines).toHaveLength(5);
      expect(lines.slice(1).every((line) => line.includes('success'))).toBe(true);
    } finally {
      await dir.remove();
    }
  });

  it('shows the cron job in Japanese', async () => {
    const ja = await console_.newPage({ locale: 'ja-JP' });
    ja.setDefaultTimeout(10_000);
    await login(ja);
    await ja.goto(`${base}/cron-jobs/${encodeURIComponent(jobId)}`);
    await ja.getByRole('heading', { name: 'Morning sales report' }).waitFor();
    await ja.getByText('実行履歴').waitFor();
    await expect(ja.getByRole('button', { name: '停止' }).isVisible()).resolves.toBe(true);
    await screenshot(ja, 'cron-job-detail-ja', { fullPage: true });
  });
});
