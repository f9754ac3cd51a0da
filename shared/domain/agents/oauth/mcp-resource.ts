/**
 * The protected resources of Dogu's authorization server: one per MCP endpoint
 * (`/mcp/projects/{p}/environments/{e}`), named by its URL (RFC 8707), and their metadata (RFC 9728).
 */
import type { DefinitionReader } from '../../ports.ts';
import { OAuthError } from './errors.ts';
import type { McpResource } from './store.ts';

const segment = '[A-Za-z0-9][A-Za-z0-9_-]{0,62}';
const mcpPath = new RegExp(`^/mcp/projects/(${segment})/environments/(${segment})$`);

export const mcpEndpointPath = (projectId: string, environmentId: string) =>
  `/mcp/projects/${projectId}/environments/${environmentId}`;

export const protectedResourceMetadataPath = (projectId: string, environmentId: string) =>
  `/.well-known/oauth-protected-resource${mcpEndpointPath(projectId, environmentId)}`;

/**
 * The resource indicator a client sent, if it names an MCP endpoint of this deployment (its
 * origin) whose project and environment exist; otherwise `invalid_target`.
 */
export async function mcpResourceOf(
  indicator: string | undefined,
  origin: string,
  definitions: Pick<DefinitionReader, 'getEnvironment'>,
): Promise<McpResource> {
  if (!indicator) {
    throw new OAuthError(
      'invalid_target',
      "'resource' is required: the URL of the MCP endpoint, such as " +
        `${origin}${mcpEndpointPath('demo', 'development')} (RFC 8707).`,
    );
  }
  let url: URL;
  try {
    url = new URL(indicator);
  } catch {
    throw new OAuthError('invalid_target', `'resource' is not a URL: ${indicator}`);
  }
  const match = mcpPath.exec(url.pathname);
  if (url.origin !== origin || !match || url.search || url.hash) {
    throw new OAuthError(
      'invalid_target',
      `'resource' must be an MCP endpoint of this Dogu, ${origin}/mcp/projects/{projectId}/environments/{environmentId}; got ${indicator}.`,
    );
  }
  const [, projectId, environmentId] = match as unknown as [string, string, string];
  if (!(await definitions.getEnvironment(projectId, environmentId))) {
    throw new OAuthError(
      'invalid_target',
      `'resource' names project '${projectId}' and environment '${environmentId}', which do not exist.`,
    );
  }
  return { url: `${origin}${mcpEndpointPath(projectId, environmentId)}`, projectId, environmentId };
}

/** RFC 9728 metadata of one MCP endpoint: Dogu itself is its authorization server. */
export function protectedResourceMetadata(origin: string, projectId: string, environmentId: string) {
  return {
    resource: `${origin}${mcpEndpointPath(projectId, environmentId)}`,
    authorization_servers: [origin],
    bearer_methods_supported: ['header'],
    resource_name: `Dogu MCP server (${projectId} / ${environmentId})`,
  };
}

/** RFC 8414 metadata of the authorization server, whose issuer is the deployment's origin. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
}
