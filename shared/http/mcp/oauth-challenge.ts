/**
 * How the MCP endpoint asks for OAuth (MCP authorization spec; RFC 9728 5.1, RFC 6750 3): its 401
 * names the endpoint's protected resource metadata, where clients find Dogu's authorization server.
 * And how MCP access tokens stay where they belong: only at the endpoint they were issued for.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mcpEndpointPath, protectedResourceMetadataPath } from '../../domain/agents/oauth/mcp-resource.ts';
import { isMcpToken, mcpTokenClaims } from '../../domain/agents/oauth/tokens.ts';
import { DoguError, unauthorized } from '../../domain/errors.ts';
import type { Route } from '../routes.ts';
import { requestOrigin } from '../session-cookie.ts';
import { viewerOriginOf } from '../viewer-ip.ts';

/**
 * The origin MCP clients see, the issuer's and every resource's: on AWS the host they asked
 * CloudFront for (decision 0233), in the embedded runtime the request's own.
 */
export const oauthOrigin = (event: APIGatewayProxyEventV2) => viewerOriginOf(event) ?? requestOrigin(event);

/** A 401 of the MCP route with `WWW-Authenticate: Bearer resource_metadata="…"`; other errors as they are. */
export function withOAuthChallenge(route: Route, event: APIGatewayProxyEventV2, error: unknown): unknown {
  if (route.name !== 'mcp' || !(error instanceof DoguError) || error.status !== 401) return error;
  const { projectId, environmentId } = (event.pathParameters ?? {}) as Record<string, string>;
  const metadata = `${oauthOrigin(event)}${protectedResourceMetadataPath(projectId!, environmentId!)}`;
  const sentToken = /^Bearer\s+\S/i.test(event.headers.authorization ?? '');
  // RFC 6750 3.1: no error code when no token was sent; `invalid_token` for one refused.
  const challenge = `Bearer resource_metadata="${metadata}"${sentToken ? `, error="invalid_token", error_description="${error.message.replace(/["\\]/g, "'")}"` : ''}`;
  return new DoguError(error.code, error.message, {
    ...(error.errors ? { errors: error.errors } : {}),
    headers: { ...error.headers, 'www-authenticate': challenge },
  });
}

/**
 * An MCP access token (decision 0231) is accepted by the MCP endpoint it names and nowhere else:
 * not by the rest of the API, not by another project's or environment's endpoint.
 */
export function refuseForeignAudience(
  route: Route,
  event: APIGatewayProxyEventV2,
  claims: Record<string, unknown>,
): void {
  if (!isMcpToken(claims)) return;
  const resource = claims[mcpTokenClaims.resource] as string;
  const { projectId, environmentId } = (event.pathParameters ?? {}) as Record<string, string>;
  const here = route.name === 'mcp' ? mcpEndpointPath(projectId!, environmentId!) : undefined;
  if (here !== undefined && URL.canParse(resource) && new URL(resource).pathname === here) return;
  throw unauthorized(
    `This access token was issued to an MCP client for ${resource} and is accepted only there.`,
  );
}
