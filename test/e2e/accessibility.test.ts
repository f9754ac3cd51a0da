/**
 * Every screen of the console in English and Japanese through axe-core (WCAG 2.0/2.1 A and AA):
 * no critical, serious or moderate violation. One runtime and one browser; the data the detail
 * screens show (a review request, an action group, a batch, a job, a view) is made through the API
 * first. Also: page titles per screen and the narrowest width (320 px) without sideways scrolling.
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devIdpAccounts } from '../../local/dev-idp.ts';
import { apiClient } from '../support/api.ts';
import { loginToken } from '../support/runtime.ts';
import { type AxeFinding, axeFindings } from './support/axe.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
const stranger = { email: 'newcomer@dogu.local', name: 'New Person' };

let console_: ConsoleUnderTest;
let api: ReturnType<typeof apiClient>;
/** Screens by the path to open; filled in beforeAll once the ids exist. */
const screens: string[] = [];
let invitationPath = '';

beforeAll(async () => {
  if (!devIdpAccounts.some((account) => account.email === stranger.email)) devIdpAccounts.push(stranger);
  console_ = await startConsole();
  api = apiClient(console_.runtime, await loginToken(console_.runtime));
  const ok = (response: { status: number; body: unknown }, ...statuses: number[]) => {
    expect(statuses, JSON.stringify(response.body)).toContain(response.status);
    // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here and checked by the screens
    return response.body as any;
  };
  // A review-gated action requested once: the reviews list and a review's own page.
  ok(
    await api.put('/api/v1/projects/demo/actions/refund-check', {
      id: 'refund-check',
      name: 'Refund check',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      parameters: [
        { name: 'order_id', kind: 'number', label: 'Order number', integer: true, required: true },
      ],
      statements: [{ title: 'Refund', sql: 'SELECT {{ order_id }} AS id' }],
      review: { required: true },
    }),
    200,
    201,
  );
  const review = ok(await api.execute('refund-check', { order_id: 1 }), 202);
  ok(
    await api.put('/api/v1/projects/demo/action-groups/daily', {
      id: 'daily',
      name: 'Daily checks',
      actionIds: ['list-orders', 'find-orders'],
    }),
    200,
    201,
  );
  const batch = ok(
    await api.post('/api/v1/projects/demo/environments/development/actions/list-orders/batches', {
      rows: [{ status: 'paid', limit: 2 }],
    }),
    202,
  );
  const job = ok(
    await api.post('/public/v1/projects/demo/environments/development/actions/list-orders/executions', {
      arguments: { status: 'paid', limit: 3 },
      async: true,
    }),
    202,
  );
  const cron = ok(await api.get('/api/v1/projects/demo/environments/development/cron-jobs'), 200);
  const invited = ok(await api.post('/api/v1/users', { email: 'invited@dogu.local', name: 'Invited' }), 201);
  invitationPath = invited.invitation.path;
  const { services } = console_.runtime;
  await services.store.createUser({
    id: services.ids.next('usr'),
    email: stranger.email,
    name: stranger.name,
    createdAt: new Date().toISOString(),
  });
  const jobId = encodeURIComponent(cron.data[0].id);
  screens.push(
    ...[
      '/actions',
      '/actions/find-orders',
      '/actions/refund-check',
      '/actions/find-orders/versions',
      '/actions/list-orders/batch',
      '/views',
      '/views/orders',
      '/views/orders/edit',
      '/views/sales-dashboard',
      '/views/operations-dashboard',
      '/action-groups/operations',
      '/reviews',
      `/reviews/${encodeURIComponent(review.reviewRequest.id)}`,
      '/action-groups',
      '/action-groups/daily',
      '/cron-jobs',
      '/cron-jobs/new',
      `/cron-jobs/${jobId}`,
      `/cron-jobs/${jobId}/edit`,
      '/reservations',
      '/batches',
      `/batches/${encodeURIComponent(batch.id ?? batch.batch?.id)}`,
      `/executions/${encodeURIComponent(job.execution.id)}`,
      '/editor/actions',
      '/editor/actions/new',
      '/editor/actions/find-orders',
      '/data-sources',
      '/data-sources?dataSource=demo-postgres',
      '/variables',
      '/settings/upload-tokens',
      '/settings/bridges',
      '/settings/allowed-hosts',
      '/settings/environments',
      '/settings/agents',
      '/members',
      '/service-accounts',
      '/notifications',
      '/audit-log',
    ].map((path) => base + path),
    '/account',
    '/admin/users',
  );
}, 120_000);

afterAll(async () => {
  await console_?.close();
});

/** Waits until the screen has drawn what it loads: its heading, and nothing marked busy. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  // Polled from here: the console's CSP refuses the string evaluation waitForFunction would use.
  await expect
    .poll(() => page.locator('[aria-busy="true"], .screen-loading').count(), { timeout: 15_000 })
    .toBe(0);
}

/**
 * Opens `path` the way the console's own links do (history API, no reload): the bundle is not
 * parsed again and axe-core stays loaded, which was a third of the sweep's time with a full load per
 * screen. The way goes through a path no screen has, so the next screen mounts afresh (a screen of
 * the same pattern, such as another action, would otherwise keep its state) and starts from its
 * loading state, which `settled` then waits out, as after a full load.
 */
async function openInApp(page: Page, path: string): Promise<void> {
  const go = (to: string) =>
    page.evaluate(`new Promise((resolve) => {
      history.pushState(null, '', ${JSON.stringify(to)});
      dispatchEvent(new PopStateEvent('popstate'));
      setTimeout(resolve, 0);
    })`);
  const workspace = /^\/p\/[^/]+\/e\/[^/]+/.exec(path)?.[0] ?? '';
  await go(`${workspace}/no-screen-here`);
  await page.getByRole('heading', { level: 1, name: /^(Page not found|ページが見つかりません)$/ }).waitFor();
  await go(path);
}

function report(findings: Record<string, AxeFinding[]>): string {
  return Object.entries(findings)
    .flatMap(([where, list]) =>
      list.map((f) => `${where}: ${f.impact} ${f.rule} (${f.help}) at ${f.targets.slice(0, 3).join(', ')}`),
    )
    .join('\n');
}

describe('accessibility (axe-core, WCAG 2.1 AA, Chromium)', () => {
  for (const [language, locale] of [
    ['en', 'en-US'],
    ['ja', 'ja-JP'],
  ] as const) {
    it(`finds no violation on any screen in ${language}`, async () => {
      const page = await console_.newPage({ locale });
      await page.goto('/');
      await page.locator('h1').first().waitFor();
      const found: Record<string, AxeFinding[]> = {};
      found['sign-in'] = await axeFindings(page);
      await login(page);
      const titles = new Set<string>();
      for (const path of screens) {
        await openInApp(page, path);
        await settled(page);
        titles.add(await page.title());
        const findings = await axeFindings(page);
        if (findings.length) found[path] = findings;
      }
      // Someone in no project yet: the page that offers to create one.
      const newcomer = await console_.newPage({ locale });
      await newcomer.goto('/');
      await newcomer
        .getByRole('button', { name: /^(Sign in with single sign-on|シングルサインオンでログイン)$/ })
        .click();
      await newcomer.locator('input[name="login"]').fill(stranger.email);
      await newcomer.locator('input[name="password"]').fill('dev');
      await newcomer.locator('button[type="submit"]').click();
      await newcomer.locator('form.create-project').waitFor();
      await settled(newcomer);
      found['no project'] = await axeFindings(newcomer);
      const invited = await console_.newPage({ locale });
      await invited.goto(invitationPath);
      await settled(invited);
      found.invitation = await axeFindings(invited);

      if (process.env.DOGU_AXE_REPORT)
        await writeFile(`${process.env.DOGU_AXE_REPORT}.${language}`, report(found));
      expect(report(found)).toBe('');
      // Each screen is named in the window title (not "Dogu" everywhere).
      expect(titles.size).toBeGreaterThan(screens.length - 4);
    }, 600_000);
  }
});

describe('keyboard flows and small screens (Chromium)', () => {
  let page: Page;
  /** What has focus: its tag, its text and its classes. */
  const focused = () =>
    page.evaluate(`(() => {
      const e = document.activeElement;
      return { tag: e.tagName.toLowerCase(), text: (e.textContent || '').trim(), className: String(e.className || '') };
    })()`) as Promise<{ tag: string; text: string; className: string }>;

  beforeAll(async () => {
    page = await console_.newPage();
    await login(page);
  }, 60_000);

  it('a page change by keyboard moves focus to the new heading and names the window after it', async () => {
    await page.goto(`${base}/actions`);
    await settled(page);
    await page.getByRole('link', { name: 'Cron jobs', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toMatchObject({ tag: 'h1', text: 'Cron jobs' });
    expect(await page.title()).toBe('Cron jobs — Dogu');
  });

  it('after Run, focus is on the outcome and the live region says only the status and the row count', async () => {
    await page.goto(`${base}/actions/list-orders`);
    await settled(page);
    await page.getByLabel(/^Status/).fill('paid');
    await page.getByLabel(/^Limit/).fill('3');
    await page.getByRole('button', { name: 'Run', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused()).className).toContain('run-outcome');
    await expect(page.getByRole('status').filter({ hasText: 'Succeeded' }).textContent()).resolves.toBe(
      'Succeeded, 3 rows',
    );
    // The region is named by that status; the table is not inside any live region.
    expect(await page.locator('[aria-live] table, [role="status"] table').count()).toBe(0);
  });

  it('the user menu opens with Enter and closes with Escape, focus back on its button', async () => {
    const button = page.locator('.user-menu summary');
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.user-menu').getAttribute('open')).toBe('');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.user-menu').getAttribute('open')).toBe(null);
    await expect
      .poll(focused)
      .toMatchObject({ tag: 'summary', text: expect.stringContaining('Local Administrator') });
  });

  it("a view's row menu takes the arrow keys and Escape", async () => {
    await page.goto(`${base}/views/orders`);
    await settled(page);
    const menu = page.locator('.view-row-menu').first();
    await menu.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toMatchObject({ text: 'Shipment status' });
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toMatchObject({ text: 'Shipment status' });
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.getAttribute('open')).toBe(null);
    await expect.poll(focused).toMatchObject({ tag: 'summary' });
  });

  it('at 320 px wide no screen scrolls sideways (WCAG 1.4.10)', async () => {
    const narrow = await console_.newPage({ viewport: { width: 320, height: 640 } });
    await login(narrow);
    const wide: string[] = [];
    for (const path of [
      '/actions',
      '/actions/list-orders',
      '/cron-jobs/new',
      '/data-sources',
      '/views/orders',
      '/views/operations-dashboard',
    ]) {
      await narrow.goto(base + path);
      await settled(narrow);
      const width = (await narrow.evaluate('document.documentElement.scrollWidth')) as number;
      if (width > 320) wide.push(`${path}: ${width} px`);
    }
    expect(wide).toEqual([]);
  });
});
