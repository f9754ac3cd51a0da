/**
 * The OAuthClient port over fetch: token (code + PKCE verifier, refresh), revocation (RFC 7009)
 * and userinfo endpoints of any OAuth 2.0 provider. Errors name what the provider said
 * (`invalid_grant`, …), never a token or the client secret.
 */
import { DoguError } from '../../domain/errors.ts';
import type { OAuthClient, OAuthProvider, OAuthTokens } from '../../domain/ports.ts';

const timeoutMs = 15_000;

/** The provider refused the grant (RFC 6749 5.2): `invalid_grant` means the user must connect again. */
export class OAuthGrantError extends DoguError {
  constructor(
    readonly oauthError: string,
    message: string,
  ) {
    super('data_source_error', message, { extra: { oauthError } });
  }
}

export const reconnectNeeded = (oauthError: string) =>
  new OAuthGrantError(
    oauthError,
    'The OAuth connection was revoked or has expired: reconnect needed (data source settings, Connect).',
  );

async function post(url: string, form: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new DoguError('data_source_error', `The OAuth server at ${new URL(url).host} did not answer.`, {
      cause: error,
    });
  }
}

function requireClient(provider: OAuthProvider): { clientId: string; clientSecret: string } {
  if (!provider.clientId || !provider.clientSecret) {
    const { clientId, clientSecret } = provider.clientFields;
    throw new DoguError(
      'invalid_definition',
      `Set the OAuth client (${clientId} and ${clientSecret}) on the data source before connecting.`,
      {
        errors: [
          { pointer: `#/${provider.clientId ? clientSecret : clientId}`, detail: 'is required to connect' },
        ],
      },
    );
  }
  return { clientId: provider.clientId, clientSecret: provider.clientSecret };
}

async function tokenRequest(provider: OAuthProvider, form: Record<string, string>): Promise<OAuthTokens> {
  const client = requireClient(provider);
  const response = await post(provider.tokenUrl, {
    ...form,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.access_token !== 'string') {
    const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
    if (code === 'invalid_grant') throw reconnectNeeded(code);
    if (code === 'invalid_client' || code === 'unauthorized_client') {
      throw new OAuthGrantError(code, 'The OAuth server refused the client ID or secret of the data source.');
    }
    throw new OAuthGrantError(code, `The OAuth server refused the token request (${code}).`);
  }
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600;
  return {
    accessToken: body.access_token,
    ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
    expiresAt: Date.now() + expiresIn * 1000,
    scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : [],
  };
}

export const oauthHttpClient: OAuthClient = {
  exchangeCode: (provider, grant) =>
    tokenRequest(provider, {
      grant_type: 'authorization_code',
      code: grant.code,
      code_verifier: grant.codeVerifier,
      redirect_uri: grant.redirectUri,
    }),
  refresh: (provider, refreshToken) =>
    tokenRequest(provider, { grant_type: 'refresh_token', refresh_token: refreshToken }),
  async revoke(provider, token) {
    if (!provider.revokeUrl) return;
    const response = await post(provider.revokeUrl, { token });
    // A token the server no longer knows is as revoked as it gets.
    if (!response.ok && response.status !== 400) {
      throw new DoguError(
        'data_source_error',
        `The OAuth server did not revoke the token (HTTP ${response.status}); try again.`,
      );
    }
  },
  async accountOf(provider, accessToken) {
    if (!provider.userinfoUrl) return undefined;
    try {
      const response = await fetch(provider.userinfoUrl, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) return undefined;
      const body = (await response.json()) as Record<string, unknown>;
      return typeof body.email === 'string' ? body.email : undefined;
    } catch {
      return undefined;
    }
  },
};
