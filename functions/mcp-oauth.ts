/**
 * Dogu as the OAuth 2.1 authorization server of MCP clients (docs/agents.md, decision 0230):
 * metadata (RFC 9728, RFC 8414), dynamic registration (RFC 7591), the authorization endpoint that
 * hands the person to the console's consent screen, the token endpoint (code + PKCE S256, refresh
 * with rotation) and revocation (RFC 7009). Token, registration and revocation refusals are RFC 6749
 * error JSON; the consent screen's API answers Problem Details as the rest of the console's.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import {
  decideAuthorization,
  describeAuthorization,
  startAuthorization,
} from '../shared/domain/agents/oauth/authorization.ts';
import { registerClient } from '../shared/domain/agents/oauth/clients.ts';
import type { OAuthDeps } from '../shared/domain/agents/oauth/deps.ts';
import { OAuthError, RedirectableOAuthError } from '../shared/domain/agents/oauth/errors.ts';
import {
  authorizationServerMetadata,
  protectedResourceMetadata,
} from '../shared/domain/agents/oauth/mcp-resource.ts';
import { exchangeToken, revokeToken } from '../shared/domain/agents/oauth/tokens.ts';
import { DoguError, notFound } from '../shared/domain/errors.ts';
import { tooManyRequests } from '../shared/domain/rate-limit.ts';
import { originOf } from '../shared/http/audit-recording.ts';
import { defineRoutes, type HttpRequest, type HttpResult } from '../shared/http/handler.ts';
import { oauthOrigin } from '../shared/http/mcp/oauth-challenge.ts';
import { viewerIpOf } from '../shared/http/viewer-ip.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';

type OAuthServices = CoreServices;

const depsOf = (services: OAuthServices): OAuthDeps => ({ ...services, oauth: services.mcpOAuth });

/** Browser-based MCP clients (the MCP Inspector) call these cross-origin; no cookie is involved. */
const openToAnyOrigin = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, mcp-protocol-version',
};
const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

const oauthJson = (status: number, body: unknown): HttpResult => ({
  status,
  body,
  headers: { ...openToAnyOrigin, ...noStore },
});

/** Runs an OAuth endpoint: its refusals become RFC 6749 error JSON, a preflight gets the CORS headers. */
async function oauthEndpoint(request: HttpRequest, run: () => Promise<HttpResult>): Promise<HttpResult> {
  const method = request.event.requestContext.http.method;
  if (method === 'OPTIONS')
    return { status: 204, headers: { ...openToAnyOrigin, 'access-control-max-age': '600' } };
  if (method !== 'POST') {
    throw new DoguError('method_not_allowed', `${request.event.rawPath} answers POST only.`, {
      headers: { allow: 'POST, OPTIONS' },
    });
  }
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) {
      const result = oauthJson(error.status, error.body);
      // RFC 6749 5.2: a 401 for the client names the scheme it could authenticate with.
      if (error.status === 401) result.headers = { ...result.headers, 'www-authenticate': 'Bearer' };
      return result;
    }
    throw error;
  }
}

/** An `application/x-www-form-urlencoded` body (RFC 6749 3.2); a parameter given twice is refused. */
function formOf(event: APIGatewayProxyEventV2): Record<string, string> {
  const contentType = (event.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  }
  const text = event.isBase64Encoded
    ? Buffer.from(event.body ?? '', 'base64').toString('utf8')
    : (event.body ?? '');
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(form, name))
      throw new OAuthError('invalid_request', `'${name}' is given more than once.`);
    form[name] = value;
  }
  return form;
}

/** Unauthenticated writes (registration, authorization requests) count per viewer address. */
async function limitPerAddress(services: OAuthServices, event: APIGatewayProxyEventV2) {
  if (!services.rateLimiter) return;
  const decision = await services.rateLimiter.take(
    `oauth:${viewerIpOf(event)}`,
    services.clock.now().getTime(),
  );
  if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
}

const decisionSchema = z.object({ decision: z.enum(['allow', 'deny']) }).strict();

export const handler = defineRoutes({
  /** GET /.well-known/oauth-protected-resource/mcp/projects/{p}/environments/{e} (RFC 9728). */
  mcpProtectedResourceMetadata: async (request, services) => {
    const { projectId, environmentId } = request.pathParameters as Record<string, string>;
    if (!(await services.definitions.getEnvironment(projectId!, environmentId!))) {
      throw notFound('Environment', `${projectId}/${environmentId}`);
    }
    return {
      status: 200,
      body: protectedResourceMetadata(oauthOrigin(request.event), projectId!, environmentId!),
      headers: openToAnyOrigin,
    };
  },
  /** GET /.well-known/oauth-authorization-server (RFC 8414). */
  mcpAuthorizationServerMetadata: async (request) => ({
    status: 200,
    body: authorizationServerMetadata(oauthOrigin(request.event)),
    headers: openToAnyOrigin,
  }),
  /** POST /oauth/register (RFC 7591): public clients with https or loopback redirect URIs. */
  registerMcpClient: (request, services) =>
    oauthEndpoint(request, async () => {
      await limitPerAddress(services, request.event);
      let body: unknown;
      try {
        body = request.jsonBody();
      } catch (error) {
        throw new OAuthError('invalid_client_metadata', (error as Error).message);
      }
      return oauthJson(201, await registerClient(depsOf(services), body));
    }),
  /** GET /oauth/authorize: checks the request, then the console's consent screen (sign-in first if needed). */
  authorizeMcpClient: async (request, services) => {
    await limitPerAddress(services, request.event);
    const origin = oauthOrigin(request.event);
    const params = Object.fromEntries(new URLSearchParams(request.event.rawQueryString ?? ''));
    try {
      const requestId = await startAuthorization(depsOf(services), params, origin);
      return { status: 302, headers: { location: `/connect/${requestId}`, ...noStore } };
    } catch (error) {
      if (error instanceof RedirectableOAuthError) {
        const target = new URL(error.redirectUri);
        target.searchParams.set('error', error.error);
        target.searchParams.set('error_description', error.description);
        if (error.state !== undefined) target.searchParams.set('state', error.state);
        target.searchParams.set('iss', origin);
        return { status: 302, headers: { location: target.href, ...noStore } };
      }
      if (error instanceof OAuthError) return { status: error.status, body: error.body, headers: noStore };
      throw error;
    }
  },
  /** GET /oauth/requests/{requestId}: what the consent screen shows (the signed-in person). */
  getMcpAuthorization: async (request, services) => ({
    status: 200,
    body: await describeAuthorization(depsOf(services), request.pathParameters.requestId!, request.caller()),
    headers: noStore,
  }),
  /** POST /oauth/requests/{requestId} `{"decision": "allow" | "deny"}`: where the browser goes next. */
  decideMcpAuthorization: async (request, services) => {
    const { decision } = request.parseBody(decisionSchema);
    const deps = depsOf(services);
    const person = request.caller();
    const requestId = request.pathParameters.requestId!;
    const shown = await describeAuthorization(deps, requestId, person);
    const answer = await decideAuthorization(
      deps,
      requestId,
      person,
      decision === 'allow',
      oauthOrigin(request.event),
    );
    await services.audit.append({
      id: services.ids.next('aud'),
      projectId: shown.projectId,
      at: services.clock.now().toISOString(),
      actor: { kind: person.kind, id: person.id, email: person.email },
      origin: originOf(request.event),
      event: decision === 'allow' ? 'mcp_client.authorize' : 'mcp_client.deny',
      target: { type: 'mcp_client', id: shown.client.id },
      environmentId: shown.environmentId,
      outcome: 'succeeded',
      details: { clientName: shown.client.name, redirectHost: shown.redirectHost },
    });
    return { status: 200, body: answer, headers: noStore };
  },
  /** POST /oauth/token: authorization_code (with code_verifier) or refresh_token. */
  mcpToken: (request, services) =>
    oauthEndpoint(request, async () =>
      oauthJson(200, await exchangeToken(depsOf(services), formOf(request.event))),
    ),
  /** POST /oauth/revoke (RFC 7009): ends the grant of the token; 200 whatever the token was. */
  revokeMcpToken: (request, services) =>
    oauthEndpoint(request, async () => {
      await revokeToken(depsOf(services), formOf(request.event));
      return oauthJson(200, {});
    }),
});
