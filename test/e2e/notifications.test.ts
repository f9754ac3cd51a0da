/**
 * The notifications screen in real Chromium against a real embedded runtime: allow private targets,
 * add a webhook target with a secret generated in the browser, send a test to a real receiver that
 * verifies the signature with that secret, and see the delivery in the log; Japanese labels.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/domain/notifications/signature.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let page: Page;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  console_ = await startConsole();
  page = await console_.newPage();
  page.setDefaultTimeout(10_000);
  await login(page);
}, 90_000);

afterAll(async () => {
  await console_?.close();
  await receiver?.close();
});

describe('notifications screen (Chromium, embedded runtime)', () => {
  it('adds a signed webhook target, sends a test and shows it in the log', async () => {
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('heading', { name: 'Notifications', exact: true }).waitFor();

    const form = page.getByRole('form', { name: 'New target' });
    await form.getByLabel('Name').fill('local receiver');
    await form.getByLabel('URL').fill(`${receiver.url}/e2e`);
    await form.getByRole('button', { name: 'Generate' }).click();
    const secret = await form.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);

    // Refused while private networks are not allowed: the reason is shown at the URL field.
    await form.getByRole('button', { name: 'Add target' }).click();
    await form
      .getByText(/loopback or private network/)
      .first()
      .waitFor();

    await page.getByLabel('Allow targets on loopback and private networks').check();
    await expect
      .poll(() => page.getByLabel('Allow targets on loopback and private networks').isChecked())
      .toBe(true);
    await form.getByRole('button', { name: 'Add target' }).click();
    await page.getByText('Added "local receiver".').waitFor();

    await page.getByRole('table', { name: 'Targets' }).getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test notification to "local receiver" delivered.').waitFor();
    const [request] = await receiver.waitFor('/e2e', 1);
    const signature = String(request!.headers['dogu-signature']);
    expect(verifySignature(secret, request!.body, signature, Math.floor(Date.now() / 1000))).toBe(true);

    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByText('Delivered').waitFor();
    await expect.poll(() => log.textContent()).toContain('HTTP 200');
    await screenshot(page, 'notifications', { fullPage: true });
  });

  it('speaks Japanese', async () => {
    const japanese = await console_.newPage({ locale: 'ja-JP' });
    japanese.setDefaultTimeout(10_000);
    await login(japanese, 'admin@dogu.local', '/p/demo/e/development/notifications');
    await japanese.getByRole('heading', { name: '通知', exact: true }).waitFor();
    await japanese.getByRole('table', { name: '配信ログ' }).getByText('配信済み').waitFor();
  });
});
