/**
 * The console's AI agents screen (docs/agents.md, decision 0237) in real Chromium: reached from the
 * side navigation; narrowing what agents see (and an MCP client then seeing just that); turning on
 * data changes without review only after a confirmation, by keyboard; read-only without
 * `manage_project`; Japanese; 390 px. And the execution and review screens naming the MCP client and
 * the principal of a run an agent made.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient } from '../support/mcp.ts';
import { loginToken } from '../support/runtime.ts';
import { axeFindings } from './support/axe.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
const step = 20_000;
let console_: ConsoleUnderTest;
let page: Page;
let token: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const agentSettings = async () => (await call('GET', '/api/v1/projects/demo')).body.agents;

beforeAll(async () => {
  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  page = await console_.newPage();
  page.setDefaultTimeout(step);
  await login(page, 'admin@dogu.local', `${base}/actions`);
}, 180_000);

afterAll(async () => {
  await console_?.close();
});

const reviewBox = () => page.getByLabel('Let agents run data-changing actions without review');

describe('the AI agents settings screen', () => {
  it('is reached from the navigation and starts at the defaults: all actions, review required', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'AI agents' }).click();
    await page.getByRole('heading', { name: 'AI agents (MCP)' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${base}/settings/agents`);
    await expect.poll(() => page.getByLabel('Every action the principal may run').isChecked()).toBe(true);
    expect(await reviewBox().isChecked()).toBe(false);
    await page.getByText('becomes a review request').waitFor();
    expect(await axeFindings(page)).toEqual([]);
  });

  it('narrows what agents see to chosen actions; an MCP client then lists just those', async () => {
    await page.getByLabel('Only the actions and action groups chosen below').check();
    await page.getByRole('checkbox', { name: /List orders/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Agent settings saved.').waitFor();
    expect(await agentSettings()).toMatchObject({ visible: 'listed', actionIds: ['list-orders'] });
    const agent = await mcpClient(console_.runtime, token, { name: 'settings-check' });
    try {
      expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual(['list-orders']);
    } finally {
      await agent.close();
    }
    expect(await axeFindings(page)).toEqual([]);
  });

  it('asks before letting agents change data without review: Escape keeps review; confirming by keyboard and saving turns it off', async () => {
    await reviewBox().focus();
    await page.keyboard.press('Space');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Let agents change data without review?' }).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await reviewBox().isChecked()).toBe(false);

    await reviewBox().focus();
    await page.keyboard.press('Space');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Allow without review' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await reviewBox().isChecked()).toBe(true);
    // Confirmed but not saved yet: the server still requires review.
    expect((await agentSettings()).changesWithoutReview).toBe(false);
    await page.getByRole('button', { name: 'Save' }).press('Enter');
    await expect.poll(async () => (await agentSettings()).changesWithoutReview).toBe(true);

    // Turning review back on needs no confirmation.
    await reviewBox().uncheck();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByLabel('Every action the principal may run').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => agentSettings())
      .toMatchObject({ visible: 'all', changesWithoutReview: false });
  });

  it('fits 390 px without scrolling sideways', async () => {
    const narrow = await console_.newPage({ viewport: { width: 390, height: 844 } });
    narrow.setDefaultTimeout(step);
    await login(narrow, 'admin@dogu.local', `${base}/settings/agents`);
    await narrow.getByLabel('Only the actions and action groups chosen below').check();
    await narrow.getByRole('checkbox', { name: /List orders/ }).waitFor();
    const width = await narrow.evaluate<{ scroll: number; inner: number }>(
      '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
    );
    expect(width.scroll).toBeLessThanOrEqual(width.inner);
    await narrow.context().close();
  });

  it('in Japanese', async () => {
    const ja = await console_.newPage({ locale: 'ja-JP' });
    ja.setDefaultTimeout(step);
    await login(ja, 'admin@dogu.local', `${base}/settings/agents`);
    await ja.getByRole('heading', { name: 'AI エージェント (MCP)' }).waitFor();
    await ja.getByLabel('データを変更するアクションをレビューなしでエージェントに実行させる').click();
    await ja
      .getByRole('dialog')
      .getByRole('heading', { name: 'エージェントにレビューなしでのデータ変更を許可しますか?' })
      .waitFor();
    await ja.keyboard.press('Escape');
    await ja.context().close();
  });

  it('someone without manage_project sees the settings read-only, with the reason', async () => {
    const reviewer = await console_.newPage();
    reviewer.setDefaultTimeout(step);
    await login(reviewer, 'reviewer@dogu.local', `${base}/settings/agents`);
    await reviewer.getByText("lack the right 'manage_project'").waitFor();
    expect(await reviewer.getByLabel('Every action the principal may run').isDisabled()).toBe(true);
    expect(await reviewer.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await reviewer.context().close();
  });
});

describe('runs by agents in the console', () => {
  it('the execution screen names the principal, MCP and the client', async () => {
    const agent = await mcpClient(console_.runtime, token, { name: 'console-check' });
    const result = await agent.callTool({ name: 'list-orders', arguments: { status: 'paid', limit: 1 } });
    await agent.close();
    const id = (result.structuredContent as { execution: { id: string } }).execution.id;
    await page.goto(`${base}/executions/${id}`);
    await expect
      .poll(() => page.getByTestId('run-via').innerText())
      .toBe('AI agent (MCP) · MCP client console-check');
    expect(await page.getByTestId('run-principal').innerText()).toContain('admin@dogu.local');
  });

  it('the review screen says the request came from an agent, and which client', async () => {
    const agent = await mcpClient(console_.runtime, token, { name: 'console-check' });
    const result = await agent.callTool({ name: 'mark-shipped', arguments: { order_id: 1 } });
    await agent.close();
    const review = (result.structuredContent as { reviewRequest: { id: string } }).reviewRequest.id;
    await page.goto(`${base}/reviews/${review}`);
    await expect
      .poll(() => page.getByTestId('run-via').innerText())
      .toBe('AI agent (MCP) · MCP client console-check');
    expect(await page.getByTestId('run-principal').innerText()).toContain('admin@dogu.local');
  });
});
