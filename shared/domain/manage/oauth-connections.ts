/**
 * OAuth connections of data sources (decision 0041): a manager presses Connect, the provider asks
 * the user's consent, the callback keeps the refresh token encrypted on the data source
 * environment; Disconnect revokes it. Any kind whose connector has an `oauth` hook uses this;
 * the domain knows no provider. The state parameter is the flow itself (PKCE verifier, target,
 * who started it, expiry) encrypted, so it needs no store and only the one who started it can finish.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AuditLog, RequestOrigin } from '../audit.ts';
import { DoguError, notFound } from '../errors.ts';
import type { Principal } from '../model.ts';
import type { IdGenerator, OAuthClient } from '../ports.ts';
import { authorize } from './access.ts';
import { type ManageDeps, openConnection } from './data-sources.ts';
import {
  type OAuthTarget,
  oauthField,
  refreshTokenContext,
  type StoredOAuthConnection,
} from './oauth-stored.ts';

export type { OAuthTarget } from './oauth-stored.ts';

export interface OAuthDeps extends ManageDeps {
  oauth: OAuthClient;
  /** The callback's path names no project: it records its own entry. */
  audit: AuditLog;
  ids: IdGenerator;
}

/** Where the provider sends the browser back; one address for every data source (register it once). */
export const oauthCallbackPath = '/api/v1/oauth/callback';
const flowLifetimeMs = 10 * 60_000;
const stateContext = { purpose: 'oauth-state' };

interface Flow extends OAuthTarget {
  verifier: string;
  principalId: string;
  expiresAt: number;
  redirectUri: string;
}

async function providerOf(deps: ManageDeps, principal: Principal, target: OAuthTarget) {
  await authorize(deps.store, principal, target.projectId, 'manage_data_sources');
  const dataSource = await deps.store.getDataSource(target.projectId, target.dataSourceId);
  if (!dataSource) throw notFound('Data source', target.dataSourceId);
  if (!dataSource.environments[target.environmentId]) {
    throw new DoguError(
      'not_found',
      `Data source '${target.dataSourceId}' has no connection settings for environment '${target.environmentId}'.`,
    );
  }
  const connection = await openConnection(deps, dataSource, target.environmentId);
  const provider = deps.engines.oauthProvider(dataSource.kind, connection);
  if (!provider)
    throw new DoguError('bad_request', `A ${dataSource.kind} data source does not connect with OAuth.`);
  return { dataSource, provider, connection };
}

/** Starts the authorization code flow with PKCE: the URL to send the browser to. */
export async function startOAuthConnection(
  deps: OAuthDeps,
  principal: Principal,
  target: OAuthTarget,
  origin: string,
): Promise<{ authorizationUrl: string }> {
  const { provider } = await providerOf(deps, principal, target);
  if (!provider.clientId || !provider.clientSecret) {
    const missing = provider.clientId ? provider.clientFields.clientSecret : provider.clientFields.clientId;
    throw new DoguError(
      'invalid_definition',
      `Set the OAuth client ID and secret (${provider.clientFields.clientId}, ${provider.clientFields.clientSecret}) of environment '${target.environmentId}' before connecting.`,
      {
        errors: [
          { pointer: `#/environments/${target.environmentId}/${missing}`, detail: 'is required to connect' },
        ],
      },
    );
  }
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${origin}${oauthCallbackPath}`;
  const flow: Flow = {
    ...target,
    verifier,
    principalId: principal.id,
    expiresAt: deps.clock.now().getTime() + flowLifetimeMs,
    redirectUri,
  };
  const state = Buffer.from(await deps.secrets.encrypt(JSON.stringify(flow), stateContext)).toString(
    'base64url',
  );
  const url = new URL(provider.authorizeUrl);
  const query = {
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    scope: provider.scopes.join(' '),
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...provider.authorizeParameters,
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return { authorizationUrl: url.href };
}

async function flowOf(deps: OAuthDeps, principal: Principal, state: string | undefined): Promise<Flow> {
  const refused = new DoguError(
    'bad_request',
    'The OAuth state parameter is missing or was not issued to this session; press Connect again.',
  );
  if (!state) throw refused;
  let flow: Flow;
  try {
    flow = JSON.parse(await deps.secrets.decrypt(Buffer.from(state, 'base64url').toString(), stateContext));
  } catch {
    throw refused;
  }
  if (flow.principalId !== principal.id) throw refused;
  if (flow.expiresAt < deps.clock.now().getTime()) {
    throw new DoguError('bad_request', 'The OAuth consent took longer than 10 minutes; press Connect again.');
  }
  return flow;
}

/** Where the callback came back for (the console's page); refuses a state not issued to this caller. */
export async function oauthTargetOf(
  deps: OAuthDeps,
  principal: Principal,
  state: string | undefined,
): Promise<OAuthTarget> {
  const { projectId, dataSourceId, environmentId } = await flowOf(deps, principal, state);
  return { projectId, dataSourceId, environmentId };
}

/** The provider's redirect: checks the state, swaps the code (with the PKCE verifier), keeps the refresh token. */
export async function completeOAuthConnection(
  deps: OAuthDeps,
  principal: Principal,
  query: { code?: string; state?: string; error?: string },
  origin: RequestOrigin,
): Promise<OAuthTarget> {
  const flow = await flowOf(deps, principal, query.state);
  if (query.error) {
    throw new DoguError(
      'bad_request',
      query.error === 'access_denied'
        ? 'Consent was denied at the provider; nothing was connected.'
        : `The provider refused the authorization (${query.error.slice(0, 100)}).`,
    );
  }
  if (!query.code) throw new DoguError('bad_request', 'The provider sent no authorization code.');
  const target = {
    projectId: flow.projectId,
    dataSourceId: flow.dataSourceId,
    environmentId: flow.environmentId,
  };
  const { provider } = await providerOf(deps, principal, target);
  const tokens = await deps.oauth.exchangeCode(provider, {
    code: query.code,
    codeVerifier: flow.verifier,
    redirectUri: flow.redirectUri,
  });
  if (!tokens.refreshToken) {
    throw new DoguError(
      'data_source_error',
      'The provider issued no refresh token (offline access); remove Dogu from the account’s connected apps and connect again.',
    );
  }
  const account = await deps.oauth.accountOf(provider, tokens.accessToken);
  const stored: StoredOAuthConnection = {
    refreshTokenCiphertext: await deps.secrets.encrypt(tokens.refreshToken, refreshTokenContext(target)),
    ...(account ? { account } : {}),
    connectedBy: { id: principal.id, email: principal.email },
    connectedAt: deps.clock.now().toISOString(),
    scopes: tokens.scopes.length > 0 ? tokens.scopes : [...provider.scopes],
  };
  await updateConnection(deps, target, stored);
  await deps.audit
    .append({
      id: deps.ids.next('aud'),
      projectId: target.projectId,
      at: deps.clock.now().toISOString(),
      actor: { kind: principal.kind, id: principal.id, email: principal.email },
      origin,
      event: 'data_source.oauth_connect',
      target: { type: 'data_source', id: target.dataSourceId },
      environmentId: target.environmentId,
      outcome: 'succeeded',
      details: { account: stored.account ?? null, scopes: stored.scopes },
    })
    .catch(() => {});
  return target;
}

/** Revokes the refresh token at the provider and forgets it. */
export async function disconnectOAuth(
  deps: OAuthDeps,
  principal: Principal,
  target: OAuthTarget,
): Promise<void> {
  const { dataSource, provider, connection } = await providerOf(deps, principal, target);
  const refreshToken = (connection[oauthField] as { refreshToken?: string } | undefined)?.refreshToken;
  if (!refreshToken) {
    throw new DoguError(
      'state_conflict',
      `Environment '${target.environmentId}' of '${dataSource.id}' is not connected.`,
    );
  }
  await deps.oauth.revoke(provider, refreshToken);
  await updateConnection(deps, target, undefined);
}

async function updateConnection(
  deps: ManageDeps,
  target: OAuthTarget,
  stored: StoredOAuthConnection | undefined,
) {
  // Read again: the data source may have been saved while the user gave consent.
  const dataSource = await deps.store.getDataSource(target.projectId, target.dataSourceId);
  if (!dataSource?.environments[target.environmentId]) throw notFound('Data source', target.dataSourceId);
  const environment = { ...dataSource.environments[target.environmentId] };
  if (stored) environment[oauthField] = stored;
  else delete environment[oauthField];
  await deps.store.putDataSource({
    ...dataSource,
    environments: { ...dataSource.environments, [target.environmentId]: environment },
  });
}
