/**
 * `dogu mcp`: Dogu's MCP server on stdio for local assistants (docs/agents.md). It relays each message
 * to the Streamable HTTP endpoint of one environment as the logged-in user, so the assistant gets
 * exactly what that person's agent gets over HTTP — same tools, reviews, audit — and holds no token.
 * Unlike the stateless endpoint it can tell the assistant when the tool list changed (mcp-tool-watch.ts).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { defaultPollSeconds, ToolListWatch } from './mcp-tool-watch.ts';
import { accessToken } from './print-access-token.ts';

export interface McpOptions {
  baseUrl: string;
  project: string;
  environment: string;
  /** A token to use as it is (DOGU_TOKEN: a service account's); else the stored login, renewed when due. */
  token?: string;
  /** How often to look for a changed tool list (seconds; 0: never). */
  pollSeconds?: number;
  stderr: (text: string) => void;
}

export async function mcpStdio(options: McpOptions): Promise<number> {
  const endpoint = new URL(
    `/mcp/projects/${encodeURIComponent(options.project)}/environments/${encodeURIComponent(options.environment)}`,
    options.baseUrl,
  );
  const bearer = async () => options.token ?? (await accessToken()).token;
  const upstream = new StreamableHTTPClientTransport(endpoint, {
    // The token is read per request: a long assistant session outlives one token.
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${await bearer()}`);
      return fetch(url, { ...init, headers });
    },
  });
  const local = new StdioServerTransport();
  const done = new Promise<number>((resolve) => {
    local.onclose = () => resolve(0);
  });
  // The assistant quitting closes our stdin: stop then, rather than poll for nobody
  // (the SDK's stdio transport does not notice the end of its input by itself).
  process.stdin.once('end', () => void local.close());
  const watch = new ToolListWatch(
    {
      upstream: (message) => upstream.send(message),
      local: (message) => local.send(message),
      warn: options.stderr,
    },
    options.pollSeconds ?? defaultPollSeconds,
  );
  upstream.onmessage = (message) => {
    const forward = watch.fromEndpoint(message);
    if (forward) void local.send(forward);
  };
  upstream.onerror = (error) => options.stderr(`dogu mcp: ${error.message}\n`);
  local.onmessage = (message: JSONRPCMessage) => {
    watch.fromAssistant(message);
    upstream.send(message).catch((error: Error) => {
      options.stderr(`dogu mcp: ${error.message}\n`);
      // The assistant waits for an answer to its request: give it the refusal (a 401 says log in again).
      if (isJSONRPCRequest(message)) {
        void local.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: ErrorCode.InternalError, message: error.message },
        });
      }
    });
  };
  await upstream.start();
  await local.start();
  options.stderr(`dogu mcp: relaying stdio to ${endpoint.href}\n`);
  const code = await done;
  watch.stop();
  await upstream.close();
  return code;
}
