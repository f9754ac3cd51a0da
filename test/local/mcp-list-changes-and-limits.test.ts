/**
 * What an MCP client learns without asking, and how much it may ask: `npx dogu mcp` tells the
 * assistant when its tool list changed (decision 0235), and tool calls are limited per client,
 * principal and project (decision 0236) — both with the SDK's own client against a real runtime.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { apiClient } from '../support/api.ts';
import { type McpConnectOptions, mcpClient, mcpTransports } from '../support/mcp.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { repoRoot } from '../support/process.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const toolCallsPerMinute = 3;
let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let adminToken: string;
let admin: ReturnType<typeof apiClient>;
let memberToken: string;
const p = '/api/v1/projects/demo';
const open: Client[] = [];

async function connect(token: string, options: McpConnectOptions) {
  const client = await mcpClient(runtime, token, options);
  open.push(client);
  return client;
}

/** Tool lists as the client receives them after each list-changed notification, awaited one by one. */
function changes() {
  const arrived: Tool[][] = [];
  const waiting: ((tools: Tool[]) => void)[] = [];
  return {
    handlers: {
      tools: {
        debounceMs: 0,
        onChanged: (error: Error | null, tools: Tool[] | null) => {
          if (error || !tools) throw error ?? new Error('no tools after list_changed');
          const next = waiting.shift();
          if (next) next(tools);
          else arrived.push(tools);
        },
      },
    },
    next: () =>
      new Promise<string[]>((resolve) => {
        const take = (tools: Tool[]) => resolve(tools.map((tool) => tool.name));
        const early = arrived.shift();
        if (early) take(early);
        else waiting.push(take);
      }),
  };
}

const watchedAction = (permission: Record<string, unknown>) => ({
  id: 'mcp-watched',
  name: 'Watched',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  statements: [{ title: 'one', sql: 'SELECT 1 AS one' }],
  permission,
});

beforeAll(async () => {
  dir = await tempDir('mcp-changes');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, {
    demoDatabaseUrl: database.url,
    mcpToolCallsPerMinute: toolCallsPerMinute,
  });
  adminToken = await loginToken(runtime);
  admin = apiClient(runtime, adminToken);
  const member: Principal = { kind: 'user', id: 'usr_mcpwatch', email: 'watch@example.com', name: 'Watch' };
  await runtime.services.store.createUser({ ...member, createdAt: new Date().toISOString() });
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: member.id, role: 'member' });
  memberToken = (await runtime.services.tokens.issue(member, 3600)).token;
}, 120_000);

afterAll(async () => {
  for (const client of open) await client.close().catch(() => {});
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

describe('list-changed notifications', () => {
  it('npx dogu mcp announces list changes; the stateless HTTP endpoint does not claim to', async () => {
    const overHttp = await connect(memberToken, { transport: 'http' });
    expect(overHttp.getServerCapabilities()?.tools?.listChanged).toBeUndefined();
    const overStdio = await connect(memberToken, { transport: 'stdio', pollSeconds: 1 });
    expect(overStdio.getServerCapabilities()?.tools?.listChanged).toBe(true);
  }, 60_000);

  it('a permission taken away: the member is told, and the new list lacks the action', async () => {
    const put = await admin.put(
      `${p}/actions/mcp-watched`,
      watchedAction({ mode: 'restricted', users: ['usr_mcpwatch'] }),
    );
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    const watch = changes();
    const agent = await connect(memberToken, {
      transport: 'stdio',
      pollSeconds: 1,
      listChanged: watch.handlers,
    });
    const before = (await agent.listTools()).tools.map((tool) => tool.name);
    expect(before).toContain('mcp-watched');

    const narrowed = await admin.put(
      `${p}/actions/mcp-watched`,
      watchedAction({ mode: 'restricted', roles: ['admin'] }),
    );
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBeLessThan(300);
    const after = await watch.next();
    expect(after).not.toContain('mcp-watched');
    expect(after).toEqual(before.filter((name) => name !== 'mcp-watched'));
  }, 60_000);

  it('an action unpublished and published again in a protected environment: told each time', async () => {
    const versions = await admin.get(`${p}/actions/list-orders/versions`);
    const published = (versions.body.publications as { environmentId: string; version: number }[]).find(
      (publication) => publication.environmentId === 'production',
    )!.version;
    const watch = changes();
    const agent = await connect(adminToken, {
      transport: 'stdio',
      environment: 'production',
      pollSeconds: 1,
      listChanged: watch.handlers,
    });
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toContain('list-orders');

    expect((await admin.delete(`${p}/actions/list-orders/publications/production`)).status).toBe(204);
    expect(await watch.next()).not.toContain('list-orders');
    const republished = await admin.put(`${p}/actions/list-orders/publications/production`, {
      version: published,
    });
    expect(republished.status, JSON.stringify(republished.body)).toBe(200);
    expect(await watch.next()).toContain('list-orders');
  }, 60_000);
});

describe('npx dogu mcp ends with its assistant', () => {
  it('exits by itself when its input ends, though it was polling', async () => {
    const relay = spawn(process.execPath, ['cli/bin.js', 'mcp', '--project', 'demo', '--poll-seconds', '1'], {
      cwd: repoRoot,
      env: { ...process.env, DOGU_URL: runtime.url, DOGU_TOKEN: memberToken },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const exited = once(relay, 'exit');
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'quitter', version: '1' },
      },
    };
    relay.stdin.write(`${JSON.stringify(initialize)}\n`);
    const [answer] = (await once(relay.stdout, 'data')) as [Buffer];
    expect(JSON.parse(answer.toString().split('\n')[0]!)).toMatchObject({
      id: 1,
      result: { capabilities: { tools: { listChanged: true } } },
    });
    relay.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    // Let a poll or two happen, then quit as an assistant does: by closing the relay's input.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    relay.stdin.end();
    const [code, signal] = await exited;
    expect(signal).toBeNull();
    expect(code).toBe(0);
  }, 60_000);
});

describe.each(mcpTransports)('tool calls per client over %s', (transport) => {
  it(`at most ${toolCallsPerMinute} a minute per client, principal and project; then a JSON-RPC error saying when to retry`, async () => {
    // The window is a fixed minute: start early in one, so the calls below fall in the same.
    const second = new Date().getSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const name = `loop-agent-${transport}`;
    const agent = await connect(memberToken, { transport, name });
    const call = () => agent.callTool({ name: 'list-orders', arguments: { status: 'paid', limit: 1 } });
    for (let i = 0; i < toolCallsPerMinute; i++) expect((await call()).isError).toBeFalsy();
    const refused = await call().catch((e: unknown) => e as McpError);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidRequest);
    expect((refused as McpError).message).toContain(`Too many tool calls from MCP client '${name}'`);
    const data = (refused as McpError).data as Record<string, unknown>;
    expect(data).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      client: name,
      limitPerMinute: toolCallsPerMinute,
    });
    expect(data.retryAfterSeconds).toBeGreaterThan(0);
    expect(data.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Listing is not a tool call; another client of the same person and the same client name of
    // another person each have their own budget.
    expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
    const otherClient = await connect(memberToken, { transport, name: `${name}-2` });
    expect(
      (await otherClient.callTool({ name: 'list-orders', arguments: { status: 'paid' } })).isError,
    ).toBeFalsy();
    const otherPerson = await connect(adminToken, { transport, name });
    expect(
      (await otherPerson.callTool({ name: 'list-orders', arguments: { status: 'paid' } })).isError,
    ).toBeFalsy();
    // The refused call ran nothing and left no audit entry: a loop does not flood the log.
    const { entries } = await runtime.services.audit.list({
      projectId: 'demo',
      event: 'execution.run',
      limit: 100,
    });
    expect(
      entries.filter((entry) => entry.details?.client === name && entry.actor.id === 'usr_mcpwatch'),
    ).toHaveLength(toolCallsPerMinute);
  }, 120_000);
});
