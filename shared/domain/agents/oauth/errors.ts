/**
 * An OAuth refusal as RFC 6749 writes it (`{"error", "error_description"}`), not Problem Details:
 * MCP clients read the `error` code (the SDK's client turns `invalid_grant` into a new sign-in).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get body() {
    return { error: this.error, error_description: this.description };
  }
}

/** A refusal of `/oauth/authorize` the client learns at its redirect URI (RFC 6749 4.1.2.1). */
export class RedirectableOAuthError extends OAuthError {
  constructor(
    error: OAuthErrorCode,
    description: string,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(error, description);
  }
}
