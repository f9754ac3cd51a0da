/**
 * The authorization endpoint and the person's consent. `/oauth/authorize` checks the request and
 * keeps it; the console's consent screen (signed in as the console always is: password or SSO)
 * shows it and answers Allow or Deny, which gives the client a code at its redirect URI.
 */
import { DoguError, forbidden } from '../../errors.ts';
import type { Principal } from '../../model.ts';
import { hashOf, lifetimes, nowSeconds, type OAuthDeps, pkcePattern, randomValue } from './deps.ts';
import { OAuthError, RedirectableOAuthError } from './errors.ts';
import { mcpResourceOf } from './mcp-resource.ts';
import type { PendingAuthorization } from './store.ts';

export type AuthorizeParameters = Record<string, string | undefined>;

/** Checks an authorization request and keeps it for the consent screen; answers its id. */
export async function startAuthorization(
  deps: OAuthDeps,
  params: AuthorizeParameters,
  origin: string,
): Promise<string> {
  const now = nowSeconds(deps);
  // Until the client and its redirect URI are known good, nothing is sent to that URI (RFC 6749 4.1.2.1).
  if (!params.client_id) throw new OAuthError('invalid_request', "'client_id' is required.");
  const client = await deps.oauth.getClient(params.client_id, now);
  if (!client) {
    throw new OAuthError(
      'invalid_client',
      `Client '${params.client_id}' is not registered here (or its registration expired); register at ${origin}/oauth/register.`,
      400,
    );
  }
  const redirectUri = params.redirect_uri;
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    throw new OAuthError(
      'invalid_request',
      `'redirect_uri' must be one the client registered: ${client.redirectUris.join(', ')}.`,
    );
  }
  const refuse = (error: ConstructorParameters<typeof OAuthError>[0], description: string) =>
    new RedirectableOAuthError(error, description, redirectUri, params.state);
  if (params.response_type !== 'code') {
    throw refuse('unsupported_response_type', "'response_type' must be 'code'.");
  }
  if (params.code_challenge_method !== 'S256') {
    throw refuse('invalid_request', "'code_challenge_method' must be 'S256' (PKCE is required).");
  }
  if (!params.code_challenge || !pkcePattern.test(params.code_challenge)) {
    throw refuse('invalid_request', "'code_challenge' is required: BASE64URL(SHA256(code_verifier)).");
  }
  let resource: PendingAuthorization['resource'];
  try {
    resource = await mcpResourceOf(params.resource, origin, deps.definitions);
  } catch (error) {
    if (error instanceof OAuthError) throw refuse(error.error, error.description);
    throw error;
  }
  const request: PendingAuthorization = {
    requestId: randomValue(),
    clientId: client.clientId,
    redirectUri,
    codeChallenge: params.code_challenge,
    ...(params.state !== undefined ? { state: params.state } : {}),
    ...(params.scope ? { scope: params.scope } : {}),
    resource,
    expiresAt: now + lifetimes.pendingRequest,
  };
  await deps.oauth.putPendingAuthorization(request);
  return request.requestId;
}

/** What the consent screen shows: who asks, where the answer goes, for which endpoint. */
export async function describeAuthorization(deps: OAuthDeps, requestId: string, person: Principal) {
  const { request, client } = await pendingFor(deps, requestId, person);
  const project = await deps.definitions.getProject(request.resource.projectId);
  return {
    requestId,
    client: { id: client.clientId, name: client.clientName },
    redirectUri: request.redirectUri,
    redirectHost: new URL(request.redirectUri).host,
    projectId: request.resource.projectId,
    projectName: project?.name ?? request.resource.projectId,
    environmentId: request.resource.environmentId,
    resource: request.resource.url,
    expiresAt: new Date(request.expiresAt * 1000).toISOString(),
  };
}

/** The person's answer: the URL the browser goes to next, with a code or `access_denied`. */
export async function decideAuthorization(
  deps: OAuthDeps,
  requestId: string,
  person: Principal,
  allow: boolean,
  issuer: string,
): Promise<{ redirectTo: string }> {
  await pendingFor(deps, requestId, person);
  const now = nowSeconds(deps);
  const request = await deps.oauth.takePendingAuthorization(requestId, now);
  if (!request) throw gone();
  const target = new URL(request.redirectUri);
  if (allow) {
    const code = randomValue();
    await deps.oauth.putCode({
      codeHash: hashOf(code),
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      principal: person,
      ...(request.scope ? { scope: request.scope } : {}),
      expiresAt: now + lifetimes.code,
    });
    target.searchParams.set('code', code);
  } else {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', `${person.email} did not allow the client.`);
  }
  if (request.state !== undefined) target.searchParams.set('state', request.state);
  target.searchParams.set('iss', issuer);
  return { redirectTo: target.href };
}

const gone = () =>
  new DoguError(
    'not_found',
    'This sign-in request is unknown, expired or already answered: start connecting again from the MCP client.',
  );

/** Only people who are members of the endpoint's project may let a client act as them there. */
async function pendingFor(deps: OAuthDeps, requestId: string, person: Principal) {
  const now = nowSeconds(deps);
  const request = await deps.oauth.getPendingAuthorization(requestId, now);
  if (!request) throw gone();
  const client = await deps.oauth.getClient(request.clientId, now);
  if (!client) throw gone();
  if (person.kind !== 'user') throw forbidden('Only a person can allow an MCP client to act as them.');
  if (!(await deps.definitions.getMembership(request.resource.projectId, person.id))) {
    throw forbidden(
      `You are not a member of project '${request.resource.projectId}': the client could not act as you there.`,
    );
  }
  return { request, client };
}
