/**
 * OpenAPI entries of Dogu's authorization server for MCP clients (docs/agents.md). Registration,
 * token and revocation (routes of method ANY, for CORS preflights) are OAuth's own: RFC 7591,
 * RFC 6749 and RFC 7009 describe them, as MCP describes the MCP endpoint.
 */
import * as z from 'zod';
import type { OperationSpec } from './openapi-spec.ts';
import type { RouteName } from './routes.ts';

const metadata = z.record(z.string(), z.unknown());
const pendingAuthorization = z
  .object({
    requestId: z.string(),
    client: z.object({ id: z.string(), name: z.string() }),
    redirectUri: z.string(),
    redirectHost: z.string(),
    projectId: z.string(),
    projectName: z.string(),
    environmentId: z.string(),
    resource: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'McpAuthorizationRequest' });

export const mcpOAuthOperations: Partial<Record<RouteName, OperationSpec>> = {
  mcpProtectedResourceMetadata: {
    summary: "OAuth protected resource metadata (RFC 9728) of an environment's MCP endpoint",
    ok: { status: '200', schema: metadata.meta({ description: 'resource, authorization_servers, …' }) },
  },
  mcpAuthorizationServerMetadata: {
    summary: 'OAuth authorization server metadata (RFC 8414) for MCP clients',
    ok: { status: '200', schema: metadata.meta({ description: 'issuer, endpoints, PKCE S256, …' }) },
  },
  authorizeMcpClient: {
    summary:
      "Authorization endpoint for MCP clients (code + PKCE S256, resource required): to the console's consent screen",
    ok: { status: '302' },
  },
  getMcpAuthorization: {
    summary: 'An MCP client authorization request, as the consent screen shows it',
    ok: { status: '200', schema: pendingAuthorization },
    errors: { '403': 'The caller is not a member of the project the client asks for' },
  },
  decideMcpAuthorization: {
    summary: 'Allow or deny an MCP client: answers where the browser goes next (code or access_denied)',
    body: z.object({ decision: z.enum(['allow', 'deny']) }),
    ok: { status: '200', schema: z.object({ redirectTo: z.string() }) },
    errors: { '403': 'The caller is not a member of the project the client asks for' },
  },
};
