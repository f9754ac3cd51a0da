/**
 * Connecting a Google Sheets data source in the console (real Chromium, embedded runtime, a local
 * stand-in for Google's OAuth endpoints): Connect goes to the consent page, comes back through
 * /api/v1/oauth/callback to the data source showing "Connected as …"; Disconnect revokes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGoogle, startFakeGoogle } from '../connectors/google-sheets/fake-google.ts';
import { apiClient } from '../support/api.ts';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let google: FakeGoogle;
let page: Page;

beforeAll(async () => {
  [console_, google] = await Promise.all([startConsole(), startFakeGoogle()]);
  const api = apiClient(console_.runtime, await loginToken(console_.runtime));
  const saved = await api.put('/api/v1/projects/demo/data-sources/team-sheet', {
    id: 'team-sheet',
    name: 'Team sheet',
    kind: 'google-sheets',
    environments: {
      development: {
        clientId: google.client.id,
        clientSecret: google.client.secret,
        endpointsBaseUrl: google.url,
      },
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  page = await console_.newPage();
  await login(page);
}, 150_000);

afterAll(async () => {
  await console_?.close();
  await google?.close();
});

describe('Google Sheets connection in the console (Chromium)', () => {
  it('connects through the consent page, shows whom it acts as, and disconnects', async () => {
    await page.goto('/p/demo/e/development/data-sources');
    await page
      .getByRole('row', { name: /Team sheet/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const state = page.getByTestId('oauth-state');
    await expect.poll(() => state.textContent()).toContain('Not connected');

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/data-sources') && url.search === '');
    await expect.poll(() => state.textContent()).toContain(`Connected as ${google.account}`);
    expect(await state.textContent()).toContain('https://www.googleapis.com/auth/spreadsheets');
    const exchange = new URLSearchParams(google.requestsTo('/token').at(-1)!.body.toString());
    expect(exchange.get('grant_type')).toBe('authorization_code');
    expect(exchange.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'google-sheets-connected');

    // The user removed Dogu's access at Google: a connection test says so, and the panel asks to reconnect.
    google.revokeAllGrants();
    // Every environment has its own test; the sheet is connected in development.
    await page
      .getByRole('group', { name: 'Connection in Development' })
      .getByRole('button', { name: 'Test connection' })
      .click();
    await expect.poll(() => state.textContent()).toContain('Reconnect needed');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/data-sources') && url.search === '');
    await expect.poll(() => state.textContent()).toContain(`Connected as ${google.account}`);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => state.textContent()).toContain('Not connected');
    expect(google.requestsTo('/revoke')).toHaveLength(1);
    expect(new URLSearchParams(google.requestsTo('/revoke')[0]!.body.toString()).get('token')).toMatch(
      /^1\/\/refresh-/,
    );
  });
});
