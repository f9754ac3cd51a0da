import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { takeToolCall } from '../../domain/agents/tool-call-limit.ts';
import { badRequest } from '../../domain/errors.ts';
import type { CoreServices } from '../../runtime/core-services.ts';
import type { Services } from '../../runtime/services.ts';
import { originOf } from '../audit-recording.ts';
import type { HttpRequest, HttpResult } from '../handler.ts';
import { requestOrigin } from '../session-cookie.ts';
import { clientOfSessionId, initializeClientName, sessionIdFor, unknownClient } from './client-session.ts';
import { doguMcpServer } from './mcp-server.ts';
import { oauthClientOf } from './oauth-grant.ts';

/** What serving MCP needs: the services of a function that runs actions (execute-action's). */
type McpServices = CoreServices & Pick<Services, 'engines' | 'secrets'>;

/**
 * `/mcp/projects/{projectId}/environments/{environmentId}`: the MCP server (Streamable HTTP) for AI
 * agents, authenticated as every route is; the environment in the path (decision 0197). Stateless,
 * answering JSON (decision 0196): the same on Lambda, where no two requests share an instance, and locally.
 * Served by the execute-action function, which composes everything a run needs.
 */
export const serveMcp = async (request: HttpRequest, services: McpServices): Promise<HttpResult> => {
  const { projectId, environmentId } = request.pathParameters as Record<string, string>;
  const event = request.event;
  const bodyText = bodyOf(event);
  let parsedBody: unknown;
  if (bodyText) {
    try {
      parsedBody = JSON.parse(bodyText);
    } catch {
      throw badRequest('The body is not valid JSON-RPC: send one JSON-RPC message or a batch as JSON.');
    }
  }
  const initializing = initializeClientName(parsedBody);
  // An OAuth client is named by its registration, the rest by what they declare (decision 0232).
  const registeredClient = await oauthClientOf(request, services);
  const client =
    registeredClient ?? initializing ?? clientOfSessionId(event.headers['mcp-session-id']) ?? unknownClient;
  const principal = request.caller();
  const server = doguMcpServer(
    { ...services, maxExecutionMs: services.settings.maxExecutionMs },
    {
      principal,
      scope: { projectId: projectId!, environmentId: environmentId! },
      client,
      consoleOrigin: requestOrigin(event),
      auditLog: services.audit,
      takeToolCall: () =>
        takeToolCall(
          services.mcpToolCallLimit,
          { projectId: projectId!, principalId: principal.id, client },
          services.clock.now().getTime(),
        ),
      audit: async ({ actionId, outcome, details }) => {
        await services.audit.append({
          id: services.ids.next('aud'),
          projectId: projectId!,
          at: services.clock.now().toISOString(),
          actor: { kind: principal.kind, id: principal.id, email: principal.email },
          origin: originOf(event),
          event: 'execution.run',
          target: { type: 'action', id: actionId },
          environmentId: environmentId!,
          outcome,
          details,
        });
      },
    },
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(webRequestOf(event, bodyText), {
      ...(parsedBody !== undefined ? { parsedBody } : {}),
    });
    const headers = Object.fromEntries(response.headers.entries());
    // The client's name rides in the session id it sends back on each later request (client-session.ts).
    if (initializing && response.status === 200) headers['mcp-session-id'] = sessionIdFor(initializing);
    return { status: response.status, text: await response.text(), headers };
  } finally {
    await server.close();
  }
};

function bodyOf(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

function webRequestOf(event: APIGatewayProxyEventV2, body: string): Request {
  const method = event.requestContext.http.method;
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const url = `${requestOrigin(event)}${event.rawPath}${query}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers))
    if (value !== undefined) headers.set(name, value);
  return new Request(url, {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' || method === 'DELETE' ? {} : { body }),
  });
}
