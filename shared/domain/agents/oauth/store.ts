/**
 * Port: what Dogu's authorization server for MCP clients keeps (decision 0230). Its own port, not
 * part of `Store`: registered clients, pending authorization requests, codes, grants and refresh
 * tokens. Every record has an expiry (`expiresAt`, epoch seconds); an adapter never answers a
 * record past it, whether or not the database has deleted it yet (DynamoDB's TTL takes up to days).
 */
import type { Principal } from '../../model.ts';

/** A client that registered itself (RFC 7591): public, no secret, PKCE only. */
export interface OAuthClientRecord {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  issuedAt: number;
  expiresAt: number;
}

/** The MCP endpoint a grant is for (RFC 8707 resource indicator). */
export interface McpResource {
  /** The resource indicator as the client sent it: `<origin>/mcp/projects/{p}/environments/{e}`. */
  url: string;
  projectId: string;
  environmentId: string;
}

/** What `/oauth/authorize` was asked, waiting for the person's Allow or Deny in the console. */
export interface PendingAuthorization {
  requestId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  scope?: string;
  resource: McpResource;
  expiresAt: number;
}

/** An authorization code (stored under the hash of its value): single use, 60 seconds. */
export interface AuthorizationCodeRecord {
  codeHash: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: McpResource;
  principal: Principal;
  scope?: string;
  expiresAt: number;
  /** Set when the code was exchanged: a second exchange revokes this grant (RFC 6749 4.1.2). */
  grantId?: string;
}

/** A person's consent to one client for one MCP endpoint: what its tokens stand on. */
export interface GrantRecord {
  grantId: string;
  clientId: string;
  clientName: string;
  principal: Principal;
  resource: McpResource;
  scope?: string;
  /** The account's token generation at consent: "sign out everywhere" ends the grant too. */
  userGeneration: number;
  createdAt: string;
  expiresAt: number;
}

/** A refresh token (stored under its hash); rotated on every use. */
export interface RefreshTokenRecord {
  tokenHash: string;
  grantId: string;
  clientId: string;
  expiresAt: number;
  /** Set once used: presenting it again revokes the grant (a stolen token replayed). */
  usedAt?: number;
}

export interface OAuthStore {
  putClient(client: OAuthClientRecord): Promise<void>;
  getClient(clientId: string, now: number): Promise<OAuthClientRecord | undefined>;
  putPendingAuthorization(request: PendingAuthorization): Promise<void>;
  getPendingAuthorization(requestId: string, now: number): Promise<PendingAuthorization | undefined>;
  /** Removes and answers it, once: a second decision on the same request finds nothing. */
  takePendingAuthorization(requestId: string, now: number): Promise<PendingAuthorization | undefined>;
  putCode(code: AuthorizationCodeRecord): Promise<void>;
  /**
   * Marks the code exchanged for `grantId`. `first`: this call was the exchange; otherwise the
   * code was already used (with the grant it gave) or is unknown or expired (undefined).
   */
  redeemCode(
    codeHash: string,
    grantId: string,
    now: number,
  ): Promise<{ code: AuthorizationCodeRecord; first: boolean } | undefined>;
  putGrant(grant: GrantRecord): Promise<void>;
  getGrant(grantId: string, now: number): Promise<GrantRecord | undefined>;
  deleteGrant(grantId: string): Promise<void>;
  putRefreshToken(token: RefreshTokenRecord): Promise<void>;
  /** Marks it used; `first` as for codes. */
  spendRefreshToken(
    tokenHash: string,
    now: number,
  ): Promise<{ token: RefreshTokenRecord; first: boolean } | undefined>;
  getRefreshToken(tokenHash: string, now: number): Promise<RefreshTokenRecord | undefined>;
}
