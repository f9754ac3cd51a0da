/**
 * The token and revocation endpoints. Access tokens are Dogu's own user tokens (the same signing
 * key and checks as the console's), with claims that bind them to one MCP endpoint and one grant
 * (decision 0231); refresh tokens are random values, stored hashed and rotated on each use.
 */
import { generationClaim } from '../../accounts/user-access.ts';
import {
  hashOf,
  lifetimes,
  nowSeconds,
  type OAuthDeps,
  pkcePattern,
  randomValue,
  verifierMatches,
} from './deps.ts';
import { OAuthError } from './errors.ts';
import type { GrantRecord } from './store.ts';

/** Claims of an MCP access token: the resource it is for, the grant and the client behind it. */
export const mcpTokenClaims = { resource: 'mcp_res', grant: 'mcp_grant', client: 'mcp_client' } as const;

export type TokenParameters = Record<string, string | undefined>;

export async function exchangeToken(deps: OAuthDeps, params: TokenParameters) {
  switch (params.grant_type) {
    case 'authorization_code':
      return exchangeCode(deps, params);
    case 'refresh_token':
      return refresh(deps, params);
    case undefined:
      throw new OAuthError('invalid_request', "'grant_type' is required.");
    default:
      throw new OAuthError(
        'unsupported_grant_type',
        `'grant_type' must be 'authorization_code' or 'refresh_token' (got '${params.grant_type}').`,
      );
  }
}

async function exchangeCode(deps: OAuthDeps, params: TokenParameters) {
  const now = nowSeconds(deps);
  const client = await clientOf(deps, params);
  for (const name of ['code', 'redirect_uri', 'code_verifier'] as const) {
    if (!params[name]) throw new OAuthError('invalid_request', `'${name}' is required.`);
  }
  if (!pkcePattern.test(params.code_verifier!)) {
    throw new OAuthError(
      'invalid_request',
      "'code_verifier' must be 43 to 128 characters of A–Z a–z 0–9 - . _ ~.",
    );
  }
  const grantId = `mgr_${randomValue()}`;
  const redeemed = await deps.oauth.redeemCode(hashOf(params.code!), grantId, now);
  if (!redeemed)
    throw new OAuthError(
      'invalid_grant',
      'The authorization code is unknown or expired (codes live 60 seconds).',
    );
  const { code, first } = redeemed;
  if (!first) {
    // A code used twice may have been stolen: what the first use gave stops working (RFC 6749 4.1.2).
    if (code.grantId) await deps.oauth.deleteGrant(code.grantId);
    throw new OAuthError(
      'invalid_grant',
      'The authorization code was already used; the tokens it gave are revoked.',
    );
  }
  if (code.clientId !== client.clientId) {
    throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
  }
  if (code.redirectUri !== params.redirect_uri) {
    throw new OAuthError('invalid_grant', "'redirect_uri' is not the one the authorization request named.");
  }
  if (!verifierMatches(params.code_verifier!, code.codeChallenge)) {
    throw new OAuthError('invalid_grant', "'code_verifier' does not match the code challenge (PKCE S256).");
  }
  if (params.resource !== undefined && params.resource !== code.resource.url) {
    throw new OAuthError(
      'invalid_target',
      `'resource' must be the one the person allowed, ${code.resource.url}.`,
    );
  }
  const account = await deps.accounts.store.getAccount(code.principal.id);
  const grant: GrantRecord = {
    grantId,
    clientId: client.clientId,
    clientName: client.clientName,
    principal: code.principal,
    resource: code.resource,
    ...(code.scope ? { scope: code.scope } : {}),
    userGeneration: account?.tokenGeneration ?? 0,
    createdAt: deps.clock.now().toISOString(),
    expiresAt: now + lifetimes.grant,
  };
  await deps.oauth.putGrant(grant);
  return tokensFor(deps, grant);
}

async function refresh(deps: OAuthDeps, params: TokenParameters) {
  const now = nowSeconds(deps);
  const client = await clientOf(deps, params);
  if (!params.refresh_token) throw new OAuthError('invalid_request', "'refresh_token' is required.");
  const used = await deps.oauth.spendRefreshToken(hashOf(params.refresh_token), now);
  if (!used || used.token.clientId !== client.clientId) {
    throw new OAuthError('invalid_grant', 'The refresh token is unknown, expired or revoked.');
  }
  if (!used.first) {
    // Rotation: an old refresh token presented again means two holders; neither keeps access.
    await deps.oauth.deleteGrant(used.token.grantId);
    throw new OAuthError('invalid_grant', 'The refresh token was already used; the grant is revoked.');
  }
  const grant = await deps.oauth.getGrant(used.token.grantId, now);
  if (!grant) throw new OAuthError('invalid_grant', 'The authorization was revoked; sign in again.');
  if (params.resource !== undefined && params.resource !== grant.resource.url) {
    throw new OAuthError(
      'invalid_target',
      `'resource' must be ${grant.resource.url}, the one the person allowed.`,
    );
  }
  const refusal = await grantRefusal(deps, grant);
  if (refusal) {
    await deps.oauth.deleteGrant(grant.grantId);
    throw new OAuthError('invalid_grant', refusal);
  }
  return tokensFor(deps, grant);
}

async function tokensFor(deps: OAuthDeps, grant: GrantRecord) {
  const now = nowSeconds(deps);
  const { token } = await deps.tokens.issue(grant.principal, lifetimes.accessToken, {
    [generationClaim]: grant.userGeneration,
    [mcpTokenClaims.resource]: grant.resource.url,
    [mcpTokenClaims.grant]: grant.grantId,
    [mcpTokenClaims.client]: grant.clientId,
    // Two tokens of one grant issued within a second differ: each can be told apart (and revoked).
    jti: randomValue().slice(0, 22),
  });
  const refreshToken = randomValue();
  await deps.oauth.putRefreshToken({
    tokenHash: hashOf(refreshToken),
    grantId: grant.grantId,
    clientId: grant.clientId,
    expiresAt: grant.expiresAt,
  });
  return {
    access_token: token,
    token_type: 'Bearer',
    expires_in: Math.min(lifetimes.accessToken, grant.expiresAt - now),
    refresh_token: refreshToken,
  };
}

async function clientOf(deps: OAuthDeps, params: TokenParameters) {
  if (!params.client_id)
    throw new OAuthError('invalid_client', "'client_id' is required (public clients send it in the body).");
  const client = await deps.oauth.getClient(params.client_id, nowSeconds(deps));
  if (!client) throw new OAuthError('invalid_client', `Client '${params.client_id}' is not registered here.`);
  return client;
}

/** Why a grant no longer holds: the account disabled or signed out everywhere, or no longer a member. */
async function grantRefusal(deps: OAuthDeps, grant: GrantRecord): Promise<string | undefined> {
  const account = await deps.accounts.store.getAccount(grant.principal.id);
  if (account?.disabled) return 'The account is disabled.';
  if ((account?.tokenGeneration ?? 0) !== grant.userGeneration)
    return 'The person signed out everywhere; sign in again.';
  if (!(await deps.definitions.getMembership(grant.resource.projectId, grant.principal.id))) {
    return `${grant.principal.email} is no longer a member of project '${grant.resource.projectId}'.`;
  }
  return undefined;
}

/**
 * RFC 7009: a refresh token or an access token ends its grant, so every token of it stops working.
 * Unknown, expired or foreign tokens are answered the same (nothing to revoke).
 */
export async function revokeToken(deps: OAuthDeps, params: TokenParameters): Promise<void> {
  const now = nowSeconds(deps);
  // Holding the token is proof enough to end it; a client that names itself must be the token's.
  const clientId = params.client_id === undefined ? undefined : (await clientOf(deps, params)).clientId;
  const issuedTo = (tokenClient: unknown) => clientId === undefined || tokenClient === clientId;
  if (!params.token) throw new OAuthError('invalid_request', "'token' is required.");
  const refreshRecord = await deps.oauth.getRefreshToken(hashOf(params.token), now);
  if (refreshRecord) {
    if (issuedTo(refreshRecord.clientId)) await deps.oauth.deleteGrant(refreshRecord.grantId);
    return;
  }
  try {
    const { claims } = await deps.tokens.verifyWithClaims(params.token);
    const grantId = claims[mcpTokenClaims.grant];
    if (typeof grantId === 'string' && issuedTo(claims[mcpTokenClaims.client])) {
      await deps.oauth.deleteGrant(grantId);
    }
  } catch {
    // Not a token of ours, or expired: nothing to revoke.
  }
}

/**
 * The grant behind an MCP access token, checked on every request to the MCP endpoint: revoked,
 * or the person no longer a member, is `undefined` with the reason (the grant is then ended).
 */
export async function liveGrant(
  deps: OAuthDeps,
  claims: Record<string, unknown>,
  request: { projectId: string; environmentId: string },
): Promise<{ grant: GrantRecord } | { refusal: string }> {
  const grantId = claims[mcpTokenClaims.grant];
  const grant =
    typeof grantId === 'string' ? await deps.oauth.getGrant(grantId, nowSeconds(deps)) : undefined;
  if (!grant) return { refusal: 'The authorization of this client was revoked; connect again.' };
  if (
    grant.resource.projectId !== request.projectId ||
    grant.resource.environmentId !== request.environmentId
  ) {
    return { refusal: `This token is for ${grant.resource.url}, not this MCP endpoint.` };
  }
  const membership = await deps.definitions.getMembership(grant.resource.projectId, grant.principal.id);
  if (!membership) {
    await deps.oauth.deleteGrant(grant.grantId);
    return {
      refusal: `${grant.principal.email} is no longer a member of project '${grant.resource.projectId}'.`,
    };
  }
  return { grant };
}

export const isMcpToken = (claims: Record<string, unknown>) =>
  typeof claims[mcpTokenClaims.resource] === 'string';
