/**
 * The MCP server (docs/agents.md) with the SDK's own client against a real embedded runtime, over both
 * transports an assistant uses — Streamable HTTP and stdio through `npx dogu mcp`: tools per caller, a
 * read run, a data change becoming a review request that another person approves, the outcome
 * resource, and the refusals an agent must understand. HTTP-only: settings, resources and prompts.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { apiClient } from '../support/api.ts';
import { type McpConnectOptions, mcpClient, mcpTransports, serviceAccountToken } from '../support/mcp.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let adminToken: string;
let admin: ReturnType<typeof apiClient>;
let memberToken: string;
let serviceToken: string;
let serviceAccountId: string;
const p = '/api/v1/projects/demo';
const open: Client[] = [];

/** The demo database itself, read directly: what a run changed is checked where it lives. */
async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client(database.connection);
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function connect(token: string, options: McpConnectOptions = {}) {
  const client = await mcpClient(runtime, token, options);
  open.push(client);
  return client;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

const readAction = (id: string, permission?: Record<string, unknown>) => ({
  id,
  name: id,
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  statements: [{ title: 'one', sql: 'SELECT 1 AS one' }],
  ...(permission ? { permission } : {}),
});

beforeAll(async () => {
  process.env.DOGU_SERVICE_ACCOUNT_CACHE_MS = '0';
  dir = await tempDir('mcp');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  adminToken = await loginToken(runtime);
  admin = apiClient(runtime, adminToken);

  const member: Principal = {
    kind: 'user',
    id: 'usr_mcpmember',
    email: 'member@example.com',
    name: 'Member',
  };
  await runtime.services.store.createUser({ ...member, createdAt: new Date().toISOString() });
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: member.id, role: 'member' });
  memberToken = (await runtime.services.tokens.issue(member, 3600)).token;

  ({ id: serviceAccountId, token: serviceToken } = await serviceAccountToken(runtime, admin, 'mcp-bot'));

  for (const action of [
    readAction('mcp-admins-only', { mode: 'restricted', roles: ['admin'] }),
    readAction('mcp-bot-only', { mode: 'restricted', users: [serviceAccountId] }),
  ]) {
    expect((await admin.put(`${p}/actions/${action.id}`, action)).status).toBeLessThan(300);
  }
}, 120_000);

afterAll(async () => {
  for (const client of open) await client.close().catch(() => {});
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

describe.each(mcpTransports)('over %s', (transport) => {
  const as = (token: string, options: McpConnectOptions = {}) => connect(token, { transport, ...options });
  const client = `claude-${transport}`;

  it('lists what each caller may run: an administrator, a member and a service account differ', async () => {
    const asAdmin = await toolNames(await as(adminToken));
    const asMember = await toolNames(await as(memberToken));
    const asBot = await toolNames(await as(serviceToken));
    expect(asAdmin).toContain('mcp-admins-only');
    expect(asAdmin).not.toContain('mcp-bot-only');
    expect(asMember).not.toContain('mcp-admins-only');
    expect(asMember).not.toContain('mcp-bot-only');
    expect(asBot).toContain('mcp-bot-only');
    expect(asBot).not.toContain('mcp-admins-only');
    for (const names of [asAdmin, asMember, asBot]) expect(names).toContain('list-orders');
  }, 60_000);

  it('a read action runs at once: rows with column types, recorded via mcp with the client and principal', async () => {
    const agent = await as(memberToken, { name: client });
    const result = await agent.callTool({ name: 'list-orders', arguments: { status: 'shipped', limit: 2 } });
    expect(result.isError).toBeFalsy();
    const execution = (result.structuredContent as { execution: Record<string, unknown> }).execution;
    expect(execution).toMatchObject({ status: 'succeeded', via: 'mcp', agent: { client } });
    const statement = (
      execution.results as { columns: { name: string; type: string }[]; rows: unknown[] }[]
    )[0]!;
    expect(statement.rows.length).toBe(2);
    expect(statement.columns.find((c) => c.name === 'status')).toEqual({ name: 'status', type: 'string' });
    expect(await runtime.services.executions.getExecution(execution.id as string)).toMatchObject({
      via: 'mcp',
      agent: { client },
      principal: { kind: 'user', id: 'usr_mcpmember' },
    });
    // The public API answers the same, as the console's execution screen reads it.
    const read = await admin.get(
      `/public/v1/projects/demo/environments/development/executions/${execution.id as string}`,
    );
    expect(read.body).toMatchObject({ via: 'mcp', agent: { client }, executedBy: { id: 'usr_mcpmember' } });
    const { entries } = await runtime.services.audit.list({
      projectId: 'demo',
      event: 'execution.run',
      limit: 1,
    });
    expect(entries[0]).toMatchObject({
      actor: { id: 'usr_mcpmember' },
      target: { id: 'list-orders' },
      details: { via: 'mcp', client, executionId: execution.id },
    });
  }, 60_000);

  it('a data-changing action becomes a review request; approved by another person, the resource shows the run', async () => {
    const before = await sql("SELECT id FROM orders WHERE status = 'paid' ORDER BY id LIMIT 1");
    const orderId = Number(before.rows[0]!.id);
    const agent = await as(serviceToken, { name: client });
    const result = await agent.callTool({ name: 'mark-shipped', arguments: { order_id: orderId } });
    const answer = result.structuredContent as {
      status: string;
      reviewRequest: { id: string; preview?: { statements: { rowsAffected: number }[] } };
      links: { console: string; resource: string };
    };
    expect(answer.status).toBe('awaiting_review');
    // The preview (rolled back) says what approval would change.
    expect(answer.reviewRequest.preview?.statements[0]).toMatchObject({ rowsAffected: 1 });
    expect(answer.links.console).toBe(
      `${runtime.url}/p/demo/e/development/reviews/${answer.reviewRequest.id}`,
    );
    expect((result.content as { text?: string }[])[0]!.text).toMatch(/^Awaiting review/);
    expect((await sql('SELECT status FROM orders WHERE id = $1', [orderId])).rows[0]!.status).toBe('paid');

    // The request names the agent's client and the service account it acts as; so does the audit entry.
    const request = await admin.get(`${p}/review-requests/${answer.reviewRequest.id}`);
    expect(request.body).toMatchObject({
      agent: { client },
      requestedBy: { kind: 'service_account', id: serviceAccountId },
    });
    const { entries } = await runtime.services.audit.list({
      projectId: 'demo',
      event: 'execution.run',
      limit: 1,
    });
    expect(entries[0]).toMatchObject({
      actor: { kind: 'service_account', id: serviceAccountId },
      details: { via: 'mcp', client, reviewRequestId: answer.reviewRequest.id },
    });

    const pending = await agent.readResource({ uri: answer.links.resource });
    expect(JSON.parse((pending.contents[0] as { text: string }).text)).toMatchObject({
      reviewRequest: { status: 'pending', actionId: 'mark-shipped' },
      execution: null,
    });

    const approved = await admin.post(`${p}/review-requests/${answer.reviewRequest.id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const outcome = JSON.parse(
      ((await agent.readResource({ uri: answer.links.resource })).contents[0] as { text: string }).text,
    );
    expect(outcome.reviewRequest).toMatchObject({
      status: 'executed',
      decidedBy: { email: 'admin@dogu.local' },
    });
    expect(outcome.execution).toMatchObject({
      status: 'succeeded',
      via: 'review',
      agent: { client },
      executedBy: { kind: 'service_account', id: serviceAccountId },
    });
    expect(outcome.execution.results[0].rowCount).toBe(1);
    // The approval's audit entry names the approver, the run and the agent's client.
    const approvals = await runtime.services.audit.list({
      projectId: 'demo',
      event: 'review.approve',
      limit: 1,
    });
    expect(approvals.entries[0]).toMatchObject({
      actor: { email: 'admin@dogu.local' },
      target: { id: answer.reviewRequest.id },
      details: { executionId: outcome.execution.id, via: 'review', client },
    });
    expect((await sql('SELECT status FROM orders WHERE id = $1', [orderId])).rows[0]!.status).toBe('shipped');
  }, 60_000);

  it('arguments that fail the schema: InvalidParams naming the argument, nothing run', async () => {
    const agent = await as(memberToken);
    const error = await agent
      .callTool({ name: 'list-orders', arguments: { limit: 'many' } })
      .catch((e: unknown) => e as McpError);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    const data = (error as McpError).data as { code: string; errors: { pointer: string }[] };
    expect(data.code).toBe('argument_invalid');
    expect(data.errors.map((e) => e.pointer).sort()).toEqual(['#/arguments/limit', '#/arguments/status']);
  }, 60_000);

  it('a tool for an action just unpublished in a protected environment: gone from the list, refused by name', async () => {
    const versions = await admin.get(`${p}/actions/list-orders/versions`);
    const published = (versions.body.publications as { environmentId: string; version: number }[]).find(
      (publication) => publication.environmentId === 'production',
    )!.version;
    const agent = await as(adminToken, { environment: 'production' });
    expect(await toolNames(agent)).toContain('list-orders');
    expect((await admin.delete(`${p}/actions/list-orders/publications/production`)).status).toBe(204);
    try {
      expect(await toolNames(agent)).not.toContain('list-orders');
      const error = await agent
        .callTool({ name: 'list-orders', arguments: { status: 'paid' } })
        .catch((e: unknown) => e as McpError);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).data).toMatchObject({ reason: 'not_published', code: 'state_conflict' });
      expect((error as McpError).message).toContain("has no version published to environment 'production'");
    } finally {
      await admin.put(`${p}/actions/list-orders/publications/production`, { version: published });
    }
  }, 60_000);

  it('a revoked token: the next request is turned away with 401 saying so', async () => {
    const account = await serviceAccountToken(runtime, admin, `revoked-${transport}`);
    const agent = await as(account.token);
    expect(await toolNames(agent)).toContain('list-orders');
    const revoked = await admin.post(`${p}/service-accounts/${account.id}/revoke-tokens`, {});
    expect(revoked.status).toBeLessThan(300);
    const error = await agent.listTools().catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/401[\s\S]*The access token has been revoked/);
  }, 60_000);
});

describe('over HTTP only', () => {
  it('describes each tool with an input schema from its parameters and whether it changes data', async () => {
    const { tools } = await (await connect(memberToken)).listTools();
    const list = tools.find((t) => t.name === 'list-orders')!;
    expect(list.inputSchema).toMatchObject({ type: 'object', required: ['status'] });
    expect(list.inputSchema.properties?.status).toMatchObject({ type: 'string' });
    expect(list.inputSchema.properties?.limit).toMatchObject({ default: 20 });
    expect(list.annotations).toMatchObject({ readOnlyHint: true });
    const ship = tools.find((t) => t.name === 'mark-shipped')!;
    expect(ship.inputSchema.properties?.order_id).toEqual({
      type: 'integer',
      minimum: 1,
      description: 'Order number',
    });
    expect(ship.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(ship.description).toContain('a person reviews the call');
  });

  it('with changesWithoutReview on, the project lets a data-changing call run at once', async () => {
    const settings = await admin.put(`${p}/settings`, { agents: { changesWithoutReview: true } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    try {
      const client = await connect(memberToken);
      const result = await client.callTool({ name: 'mark-shipped', arguments: { order_id: 999999 } });
      expect((result.structuredContent as { execution: { status: string } }).execution.status).toBe(
        'succeeded',
      );
    } finally {
      await admin.put(`${p}/settings`, { agents: { changesWithoutReview: false } });
    }
  });

  it('refuses agent settings that are not settings, naming the field; only manage_project may change them', async () => {
    const wrong = await admin.put(`${p}/settings`, {
      agents: { visible: 'some', changesWithoutReview: 'yes' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/agents/changesWithoutReview',
      '#/agents/visible',
    ]);
    const asMember = await apiClient(runtime, memberToken).put(`${p}/settings`, {
      agents: { changesWithoutReview: true },
    });
    expect(asMember.status).toBe(403);
    expect((await runtime.services.store.getProject('demo'))?.agents?.changesWithoutReview).toBe(false);
  });

  it('an allow-list narrows what agents see, by action and by action group', async () => {
    await admin.put(`${p}/settings`, { agents: { visible: 'listed', actionIds: ['list-orders'] } });
    try {
      const client = await connect(adminToken);
      expect(await toolNames(client)).toEqual(['list-orders']);
      await expect(client.callTool({ name: 'find-orders', arguments: {} })).rejects.toThrow(
        /Tool 'find-orders' does not exist|not found/i,
      );
      const group = await admin.put(`${p}/action-groups/agent-reads`, {
        id: 'agent-reads',
        name: 'Agent reads',
        actionIds: ['find-orders', 'mcp-admins-only'],
      });
      expect(group.status, JSON.stringify(group.body)).toBeLessThan(300);
      await admin.put(`${p}/settings`, {
        agents: { visible: 'listed', actionIds: ['list-orders'], actionGroupIds: ['agent-reads'] },
      });
      expect(await toolNames(client)).toEqual(['find-orders', 'list-orders', 'mcp-admins-only']);
      // Still only what the caller may run: the group names an action a member may not.
      expect(await toolNames(await connect(memberToken))).toEqual(['find-orders', 'list-orders']);
    } finally {
      await admin.put(`${p}/settings`, { agents: { visible: 'all' } });
    }
  });

  it('no token at all: 401 before anything MCP is read', async () => {
    await expect(connect('not-a-token')).rejects.toThrow(/401/);
  });
});

describe('resources and prompts', () => {
  it('the action catalogue, the last runs of a visible action, and a prompt explaining a Problem Details error', async () => {
    const client = await connect(memberToken);
    const catalogue = JSON.parse(
      ((await client.readResource({ uri: 'dogu://actions' })).contents[0] as { text: string }).text,
    );
    expect(catalogue.actions.find((a: { id: string }) => a.id === 'mark-shipped')).toMatchObject({
      effect: 'changes',
    });
    const runs = JSON.parse(
      (
        (await client.readResource({ uri: 'dogu://actions/list-orders/executions' })).contents[0] as {
          text: string;
        }
      ).text,
    );
    expect(runs.executions.length).toBeGreaterThan(0);
    expect(runs.executions[0]).toMatchObject({
      actionId: 'list-orders',
      environmentId: 'development',
      via: 'mcp',
    });
    expect(runs.executions[0].arguments).toBeUndefined();
    await expect(client.readResource({ uri: 'dogu://actions/mcp-admins-only/executions' })).rejects.toThrow(
      /restricted/,
    );
    const prompt = await client.getPrompt({
      name: 'explain-problem',
      arguments: { problem: '{"status":422,"code":"argument_invalid"}' },
    });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('"code":"argument_invalid"');
  });
});
