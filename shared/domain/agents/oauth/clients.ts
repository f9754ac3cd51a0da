/**
 * Dynamic client registration (RFC 7591) for MCP clients: public clients only (no secret, PKCE),
 * redirect URIs on https or on this machine's loopback over http (RFC 8252 7.3), matched exactly.
 */
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { lifetimes, nowSeconds, type OAuthDeps, randomValue } from './deps.ts';
import { OAuthError } from './errors.ts';
import type { OAuthClientRecord } from './store.ts';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
const maxRedirectUris = 10;
const maxNameLength = 100;

/** Why a redirect URI is not accepted, or undefined when it is. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `'${uri}' is not a URL`;
  }
  if (url.hash) return `'${uri}' has a fragment (RFC 6749 3.1.2)`;
  if (url.username || url.password) return `'${uri}' carries a user name or password`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && loopbackHosts.has(url.hostname)) return undefined;
  return `'${uri}' must use https, or http on 127.0.0.1, [::1] or localhost`;
}

export async function registerClient(deps: OAuthDeps, body: unknown) {
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    const error = issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    throw new OAuthError(error, `'${field}': ${issue.message}`);
  }
  const metadata = parsed.data;
  if (metadata.redirect_uris.length === 0 || metadata.redirect_uris.length > maxRedirectUris) {
    throw new OAuthError('invalid_redirect_uri', `'redirect_uris' must list 1 to ${maxRedirectUris} URIs.`);
  }
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `'redirect_uris': ${problem}.`);
  }
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw new OAuthError(
      'invalid_client_metadata',
      `'token_endpoint_auth_method' must be 'none': Dogu registers public clients, which prove themselves with PKCE (got '${method}').`,
    );
  }
  const grantTypes = metadata.grant_types ?? ['authorization_code', 'refresh_token'];
  const unsupportedGrant = grantTypes.find((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unsupportedGrant || !grantTypes.includes('authorization_code')) {
    throw new OAuthError(
      'invalid_client_metadata',
      `'grant_types' may hold only 'authorization_code' and 'refresh_token'${unsupportedGrant ? ` (got '${unsupportedGrant}')` : ''}.`,
    );
  }
  const responseTypes = metadata.response_types ?? ['code'];
  if (responseTypes.some((t) => t !== 'code')) {
    throw new OAuthError('invalid_client_metadata', "'response_types' may hold only 'code'.");
  }
  const clientName = (metadata.client_name ?? '').trim();
  if (!clientName || clientName.length > maxNameLength) {
    throw new OAuthError(
      'invalid_client_metadata',
      `'client_name' is required (1 to ${maxNameLength} characters): the consent screen shows it to the person.`,
    );
  }
  const issuedAt = nowSeconds(deps);
  const client: OAuthClientRecord = {
    clientId: `mcp_${randomValue()}`,
    clientName,
    redirectUris: metadata.redirect_uris,
    issuedAt,
    expiresAt: issuedAt + lifetimes.client,
  };
  await deps.oauth.putClient(client);
  return {
    client_id: client.clientId,
    client_id_issued_at: issuedAt,
    client_name: clientName,
    redirect_uris: client.redirectUris,
    grant_types: grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
