/**
 * The consent screen of an MCP client signing in with OAuth, in real Chromium: the SDK's client
 * starts the flow, the person (not signed in yet) opens the authorization URL, signs in with
 * single sign-on, sees who asks for what, and allows with the keyboard; the browser lands on the
 * client's redirect URI with a code the SDK exchanges, and the client lists tools as that person.
 * In Japanese at 390 px wide, Deny sends `access_denied`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryOAuthProvider } from '../support/mcp-oauth-client.ts';
import { axeFindings } from './support/axe.ts';
import { type ConsoleUnderTest, screenshot, startConsole } from './support/browser.ts';

let console_: ConsoleUnderTest;
let callback: Server;
let redirectUrl: string;
const step = { timeout: 30_000 };

const endpoint = () => new URL(`${console_.url}/mcp/projects/demo/environments/development`);

/** From the authorization URL through the console's sign-in (development IdP) to the consent screen. */
async function openConsent(page: Page, authorizationUrl: URL, heading: RegExp) {
  await page.goto(authorizationUrl.href);
  await page
    .getByRole('button', { name: /^(Sign in with single sign-on|シングルサインオンでログイン)$/ })
    .click(step);
  await page.locator('input[name="login"]').fill('admin@dogu.local', step);
  await page.locator('input[name="password"]').fill('dev', step);
  await page.locator('button[type="submit"]').click(step);
  await page.getByRole('heading', { name: heading }).waitFor(step);
  expect(new URL(page.url()).pathname).toMatch(/^\/connect\//);
}

/** Tabs until the named button has the focus (at most 30 steps), then presses Enter. */
async function pressWithKeyboard(page: Page, name: RegExp) {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""');
    if (name.test(focused)) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`No button ${name} reached with Tab.`);
}

beforeAll(async () => {
  console_ = await startConsole();
  callback = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`received ${request.url}`);
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
}, 240_000);

afterAll(async () => {
  await new Promise((resolve) => callback?.close(resolve));
  await console_?.close();
});

describe('consent screen', () => {
  it('signs in, shows the client, host, project and environment, and Allow (keyboard) gives the client its tools', async () => {
    const provider = new MemoryOAuthProvider(redirectUrl, 'Desk Assistant');
    expect(await auth(provider, { serverUrl: endpoint() })).toBe('REDIRECT');
    const page = await console_.newPage();
    await openConsent(page, provider.authorizationUrl!, /^Connect an AI assistant$/);
    const card = page.locator('.consent-card');
    await expect.poll(() => card.textContent(), step).toContain('Desk Assistant');
    const text = (await card.textContent()) ?? '';
    expect(text).toContain(new URL(redirectUrl).host);
    expect(text).toContain('demo');
    expect(text).toContain('development');
    expect(text).toContain('admin@dogu.local');
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'mcp-consent');

    await pressWithKeyboard(page, /^Allow$/);
    await page.waitForURL((url) => url.href.startsWith(redirectUrl), step);
    const landed = new URL(page.url());
    const code = landed.searchParams.get('code');
    expect(code).toBeTruthy();

    expect(await auth(provider, { serverUrl: endpoint(), authorizationCode: code! })).toBe('AUTHORIZED');
    const client = new Client({ name: 'desk', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(endpoint(), { authProvider: provider }));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('list-orders');
    } finally {
      await client.close();
    }
  });

  it('in Japanese at 390 px, Deny sends access_denied to the client', async () => {
    const provider = new MemoryOAuthProvider(redirectUrl, 'Narrow Client');
    expect(await auth(provider, { serverUrl: endpoint() })).toBe('REDIRECT');
    const page = await console_.newPage({ locale: 'ja-JP', viewport: { width: 390, height: 800 } });
    await openConsent(page, provider.authorizationUrl!, /^AI アシスタントを接続$/);
    await expect.poll(() => page.locator('.consent-card').textContent(), step).toContain('Narrow Client');
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await pressWithKeyboard(page, /^拒否$/);
    await page.waitForURL((url) => url.href.startsWith(redirectUrl), step);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('code')).toBeNull();
  });
});
