/**
 * The MCP SDK's own client against a test runtime, over either transport an assistant uses: Streamable
 * HTTP to the environment's endpoint, or stdio through `dogu mcp` (a real child process of the CLI).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ListChangedHandlers } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { bindingClaims } from '../../shared/domain/identity/access-tokens.ts';
import type { apiClient } from './api.ts';
import { repoRoot } from './process.ts';

export type McpTransportKind = 'http' | 'stdio';
export const mcpTransports: McpTransportKind[] = ['http', 'stdio'];

export interface McpConnectOptions {
  transport?: McpTransportKind;
  environment?: string;
  /** The client's name (`clientInfo.name`), recorded with each run. */
  name?: string;
  /** stdio only: how often `dogu mcp` looks for a changed tool list. */
  pollSeconds?: number;
  listChanged?: ListChangedHandlers;
}

export async function mcpClient(
  runtime: LocalRuntime,
  token: string,
  {
    transport = 'http',
    environment = 'development',
    name = 'test-agent',
    pollSeconds,
    listChanged,
  }: McpConnectOptions = {},
): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, listChanged ? { listChanged } : {});
  if (transport === 'http') {
    await client.connect(
      new StreamableHTTPClientTransport(
        new URL(`${runtime.url}/mcp/projects/demo/environments/${environment}`),
        { requestInit: { headers: { authorization: `Bearer ${token}` } } },
      ),
    );
  } else {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['cli/bin.js', 'mcp', '--project', 'demo', '--env', environment],
        cwd: repoRoot,
        env: {
          ...(process.env as Record<string, string>),
          DOGU_URL: runtime.url,
          DOGU_TOKEN: token,
          ...(pollSeconds === undefined ? {} : { DOGU_MCP_POLL_SECONDS: String(pollSeconds) }),
        },
        stderr: 'pipe',
      }),
    );
  }
  return client;
}

/** A new service account of the demo project and the access token the exchange would issue it. */
export async function serviceAccountToken(
  runtime: LocalRuntime,
  admin: ReturnType<typeof apiClient>,
  name: string,
): Promise<{ id: string; token: string }> {
  const p = '/api/v1/projects/demo';
  // Trust policy ids are unique per project: the account's name serves as its policy's id.
  const account = await admin.post(`${p}/service-accounts`, { name, role: 'member' });
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  const policy = await admin.put(`${p}/service-accounts/${account.body.id}/trust-policies/${name}`, {
    issuer: 'https://token.actions.githubusercontent.com',
    audience: 'dogu',
    boundClaims: [{ key: 'sub', pattern: 'repo:acme/app:ref:refs/heads/main' }],
  });
  expect(policy.status, JSON.stringify(policy.body)).toBe(201);
  // What the token exchange issues for this account and policy (token-exchange.test.ts does the exchange).
  const { token } = await runtime.services.tokens.issue(
    { kind: 'service_account', id: account.body.id, email: account.body.email, name },
    3600,
    bindingClaims({
      projectId: 'demo',
      serviceAccountId: account.body.id,
      trustPolicyId: name,
      tokenGeneration: account.body.tokenGeneration,
      policyGeneration: policy.body.generation ?? 1,
    }),
  );
  return { id: account.body.id, token };
}
