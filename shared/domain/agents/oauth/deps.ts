/** What Dogu's authorization server for MCP clients needs (decision 0230). */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountStore } from '../../accounts/model.ts';
import type { AccessTokenIssuer, AccessTokenVerifier } from '../../identity/access-tokens.ts';
import type { Clock, DefinitionReader } from '../../ports.ts';
import type { OAuthStore } from './store.ts';

export interface OAuthDeps {
  oauth: OAuthStore;
  tokens: AccessTokenIssuer & AccessTokenVerifier;
  definitions: Pick<DefinitionReader, 'getProject' | 'getEnvironment' | 'getMembership'>;
  accounts: { store: Pick<AccountStore, 'getAccount'> };
  clock: Clock;
}

/** Lifetimes, in seconds (docs/agents.md, "Connect with OAuth"). */
export const lifetimes = {
  /** The consent screen has this long before the request is forgotten. */
  pendingRequest: 10 * 60,
  code: 60,
  accessToken: 60 * 60,
  /** A grant and its refresh tokens live this long from the consent; refreshing does not extend it. */
  grant: 30 * 24 * 3600,
  /** A registered client unused… is still kept this long from registration. */
  client: 365 * 24 * 3600,
} as const;

export const nowSeconds = (deps: Pick<OAuthDeps, 'clock'>) => Math.floor(deps.clock.now().getTime() / 1000);

/** 256 random bits, URL-safe: codes, refresh tokens, request and client ids. */
export const randomValue = () => randomBytes(32).toString('base64url');

/** Codes and refresh tokens are stored under their hash: a read of the table gives no usable value. */
export const hashOf = (value: string) => createHash('sha256').update(value).digest('base64url');

/** PKCE S256 (RFC 7636 4.6): BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** RFC 7636 4.1: 43–128 characters of the unreserved set; a S256 challenge is 43. */
export const pkcePattern = /^[A-Za-z0-9._~-]{43,128}$/;
