/**
 * Access tokens of OAuth-connected data sources (decision 0041), for runtimes: refreshed from the
 * stored refresh token when missing or about to expire, kept per process by a hash of the refresh
 * token (a reconnect has a new one, so the cache never serves a revoked grant's token for long).
 */
import { createHash } from 'node:crypto';
import { oauthHttpClient } from '../../adapters/oauth/oauth-http-client.ts';
import { DoguError } from '../../domain/errors.ts';
import type { OAuthClient, OAuthProvider } from '../../domain/ports.ts';

/** What openConnection puts in `connection.oauth` of a connected environment. */
export interface OpenedOAuthConnection {
  refreshToken: string;
  account?: string;
  scopes?: string[];
}

const earlyMs = 60_000;
const maxKept = 1_000;

export class AccessTokens {
  private readonly tokens = new Map<string, Promise<{ accessToken: string; expiresAt: number }>>();

  constructor(private readonly client: OAuthClient = oauthHttpClient) {}

  /** A valid access token; `renew` drops the kept one first (the API answered 401). */
  async get(provider: OAuthProvider, connection: Record<string, unknown>, renew = false): Promise<string> {
    const oauth = connection.oauth as OpenedOAuthConnection | undefined;
    if (!oauth?.refreshToken) {
      throw new DoguError(
        'data_source_error',
        'This data source environment is not connected: press Connect in its settings.',
      );
    }
    const key = createHash('sha256').update(`${provider.tokenUrl}|${oauth.refreshToken}`).digest('base64url');
    const kept = renew ? undefined : this.tokens.get(key);
    if (kept) {
      const token = await kept.catch(() => undefined);
      if (token && token.expiresAt - earlyMs > Date.now()) return token.accessToken;
    }
    const fresh = this.client.refresh(provider, oauth.refreshToken);
    if (this.tokens.size >= maxKept) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(key, fresh);
    fresh.catch(() => this.tokens.delete(key));
    return (await fresh).accessToken;
  }
}
