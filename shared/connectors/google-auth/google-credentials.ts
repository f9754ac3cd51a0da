/**
 * Access tokens (and, for Cloud Storage, signatures) for every Google kind, over plain HTTPS (no
 * Google client library); the scope says which API the token is for:
 * - key mode: a JWT signed with the service account's key → the key's token URI (JWT bearer grant);
 *   URLs are signed with the same key;
 * - workload identity: Dogu's ID token (aud `https://iam.googleapis.com/<provider>`) → Google STS
 *   token exchange → IAM Credentials generateAccessToken for the service account; URLs are
 *   signed by IAM Credentials signBlob, called by the service account itself with a token of its
 *   own for the IAM scope (decision 0121), as Google's client libraries do. Each step that fails
 *   is named.
 * Tokens are kept until five minutes before they expire.
 */
import { createHash, createSign } from 'node:crypto';
import { DoguError } from '../../domain/errors.ts';
import type { HttpClient, IdentityTokenSource } from '../../domain/ports.ts';
import { type GoogleAuthConnection, googleAuthEndpoints } from './federation.ts';
import { parseServiceAccountKey, type ServiceAccountKey } from './service-account-key.ts';

export const storageScope = 'https://www.googleapis.com/auth/devstorage.read_write';
const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';
/** What signBlob needs of its caller's token (IAM Credentials accepts this or cloud-platform). */
const iamScope = 'https://www.googleapis.com/auth/iam';
const renewBeforeMs = 5 * 60_000;
const tokenSeconds = 3600;

export interface GoogleAccess {
  token: string;
  expiresAt: Date;
  /** The service account URLs are signed as. */
  email: string;
  /** Signs a V4 string-to-sign with the service account's key (RSA-SHA256). */
  sign(text: string, signal: AbortSignal): Promise<Uint8Array>;
  /** Signed URLs cannot outlive this (workload identity); undefined: only the spec's 24 hours. */
  limitsSignedUrls: boolean;
}

export interface AccessRequest {
  connection: GoogleAuthConnection;
  cacheKey: string;
  identityToken?: IdentityTokenSource;
  signal: AbortSignal;
}

export class GoogleCredentials {
  private readonly cache = new Map<string, Promise<GoogleAccess>>();

  /** `scope`: the API the tokens are for (Cloud Storage by default; BigQuery and Firestore name theirs). */
  constructor(
    private readonly http: HttpClient,
    private readonly scope: string = storageScope,
    private readonly now: () => number = Date.now,
  ) {}

  async access(request: AccessRequest): Promise<GoogleAccess> {
    const c = request.connection;
    // A hash of the authentication fields only, so the map holds no second copy of the key.
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          // A key's token is the key's wherever it is used; a federated one names the project environment.
          c.authentication === 'workload-identity' ? request.cacheKey : '',
          c.authentication,
          c.serviceAccountKey,
          c.provider,
          c.serviceAccount,
          c.stsEndpoint,
          c.iamCredentialsEndpoint,
        ]),
      )
      .digest('hex');
    const cached = this.cache.get(key);
    if (cached) {
      const access = await cached.catch(() => undefined);
      if (access && access.expiresAt.getTime() - renewBeforeMs > this.now()) return access;
      if (this.cache.get(key) === cached) this.cache.delete(key);
    }
    const fresh = this.fresh(request);
    this.cache.set(key, fresh);
    fresh.catch(() => {
      if (this.cache.get(key) === fresh) this.cache.delete(key);
    });
    return fresh;
  }

  /** Never cached: "check the trust" in the console. */
  fresh(request: AccessRequest): Promise<GoogleAccess> {
    return request.connection.authentication === 'workload-identity'
      ? this.federated(request)
      : this.withKey(request);
  }

  private async withKey({ connection, signal }: AccessRequest): Promise<GoogleAccess> {
    const key = connection.serviceAccountKey
      ? parseServiceAccountKey(connection.serviceAccountKey)
      : undefined;
    if (!key)
      throw new DoguError(
        'data_source_error',
        'Key authentication needs the service account JSON key; set it in the data source.',
      );
    const tokenUri = key.token_uri ?? googleAuthEndpoints.oauthToken;
    const issuedAt = Math.floor(this.now() / 1000);
    const assertion = signJwt(key, {
      iss: key.client_email,
      scope: this.scope,
      aud: tokenUri,
      iat: issuedAt,
      exp: issuedAt + tokenSeconds,
    });
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion,
    }).toString();
    const answer = await this.post(
      tokenUri,
      body,
      'application/x-www-form-urlencoded',
      undefined,
      signal,
      'OAuth token (service account key)',
    );
    const token = stringMember(answer, 'access_token', 'OAuth token (service account key)');
    return {
      token,
      expiresAt: new Date(this.now() + Number(answer.expires_in ?? tokenSeconds) * 1000),
      email: key.client_email,
      sign: async (text) => rsaSign(key, text),
      limitsSignedUrls: false,
    };
  }

  private async federated({ connection, identityToken, signal }: AccessRequest): Promise<GoogleAccess> {
    const { provider, serviceAccount } = connection;
    if (!provider || !serviceAccount)
      throw new DoguError(
        'data_source_error',
        'Workload identity federation needs the provider and the service account; set both in the data source.',
      );
    if (!identityToken)
      throw new DoguError(
        'data_source_error',
        "Step 1 (Dogu's ID token): this runtime has no identity provider configured.",
      );
    let subjectToken: string;
    try {
      subjectToken = (await identityToken(`https://iam.googleapis.com/${provider}`)).token;
    } catch (error) {
      throw new DoguError(
        'data_source_error',
        `Step 1 (Dogu's ID token): the token could not be issued (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    const stsStep = 'Step 2 (Google STS token exchange)';
    const exchanged = await this.post(
      `${connection.stsEndpoint ?? googleAuthEndpoints.sts}/v1/token`,
      JSON.stringify({
        grantType: 'urn:ietf:params:oauth:grant-type:token-exchange',
        audience: `//iam.googleapis.com/${provider}`,
        scope: cloudPlatformScope,
        requestedTokenType: 'urn:ietf:params:oauth:token-type:access_token',
        subjectToken,
        subjectTokenType: 'urn:ietf:params:oauth:token-type:jwt',
      }),
      'application/json',
      undefined,
      signal,
      stsStep,
    );
    const federatedToken = stringMember(exchanged, 'access_token', stsStep);
    const iam = `${connection.iamCredentialsEndpoint ?? googleAuthEndpoints.iamCredentials}/v1/projects/-/serviceAccounts/${encodeURIComponent(serviceAccount)}`;
    const impersonationStep =
      'Step 3 (IAM Credentials generateAccessToken, impersonating the service account)';
    const generated = await this.post(
      `${iam}:generateAccessToken`,
      JSON.stringify({ scope: [this.scope], lifetime: `${tokenSeconds}s` }),
      'application/json',
      federatedToken,
      signal,
      impersonationStep,
    );
    const token = stringMember(generated, 'accessToken', impersonationStep);
    const expireTime = Date.parse(String(generated.expireTime ?? ''));
    // The account signs as itself: a token of its own for the IAM scope calls signBlob on it, so the
    // account needs signBlob on itself (Token Creator on itself), never the federated principal.
    // Asked for on the first signature only: most runs sign nothing.
    let signingToken: Promise<string> | undefined;
    const signingTokenOf = (signal: AbortSignal) => {
      const step = 'IAM Credentials generateAccessToken (the service account’s own token for signing URLs)';
      signingToken ??= this.post(
        `${iam}:generateAccessToken`,
        JSON.stringify({ scope: [iamScope], lifetime: `${tokenSeconds}s` }),
        'application/json',
        federatedToken,
        signal,
        step,
      ).then((answer) => stringMember(answer, 'accessToken', step));
      signingToken.catch(() => {
        signingToken = undefined;
      });
      return signingToken;
    };
    return {
      token,
      expiresAt: new Date(Number.isFinite(expireTime) ? expireTime : this.now() + tokenSeconds * 1000),
      email: serviceAccount,
      sign: async (text, signal) => {
        const step = `IAM Credentials signBlob (the service account signs as itself: ${serviceAccount} needs roles/iam.serviceAccountTokenCreator on itself)`;
        const signed = await this.post(
          `${iam}:signBlob`,
          JSON.stringify({ payload: Buffer.from(text).toString('base64') }),
          'application/json',
          await signingTokenOf(signal),
          signal,
          step,
        );
        return new Uint8Array(Buffer.from(stringMember(signed, 'signedBlob', step), 'base64'));
      },
      limitsSignedUrls: true,
    };
  }

  private async post(
    url: string,
    body: string,
    contentType: string,
    bearer: string | undefined,
    signal: AbortSignal,
    step: string,
  ): Promise<Record<string, unknown>> {
    let answer: Awaited<ReturnType<HttpClient['send']>>;
    try {
      answer = await this.http.send(
        {
          method: 'POST',
          url,
          headers: [
            ['content-type', contentType],
            ['accept', 'application/json'],
            ...(bearer ? ([['authorization', `Bearer ${bearer}`]] as [string, string][]) : []),
          ],
          body,
        },
        { signal, timeoutMs: 15_000, maxBodyBytes: 1024 * 1024 },
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new DoguError('data_source_error', `${step}: could not be reached (${message}).`);
    }
    const text = new TextDecoder().decode(answer.body);
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {}
    if (answer.status < 200 || answer.status > 299)
      throw new DoguError(
        'data_source_error',
        `${step}: Google answered HTTP ${answer.status}: ${googleErrorText(json, text)}`,
      );
    return json;
  }
}

/** Google's error bodies: `{error: {message, status}}` (APIs) or `{error, error_description}` (OAuth, STS). */
export function googleErrorText(json: Record<string, unknown>, text: string): string {
  const error = json.error;
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; status?: unknown };
    return [e.status, e.message].filter((part) => typeof part === 'string').join(': ') || text.slice(0, 200);
  }
  if (typeof error === 'string')
    return typeof json.error_description === 'string' ? `${error}: ${json.error_description}` : error;
  return text.replace(/\s+/g, ' ').trim().slice(0, 200) || '(empty body)';
}

function stringMember(json: Record<string, unknown>, name: string, step: string): string {
  const value = json[name];
  if (typeof value !== 'string' || value === '')
    throw new DoguError('data_source_error', `${step}: Google answered without ${name}.`);
  return value;
}

const base64url = (data: string | Uint8Array) => Buffer.from(data).toString('base64url');

function signJwt(key: ServiceAccountKey, claims: Record<string, unknown>): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${base64url(rsaSign(key, unsigned))}`;
}

function rsaSign(key: ServiceAccountKey, text: string): Uint8Array {
  try {
    return new Uint8Array(createSign('RSA-SHA256').update(text).sign(key.private_key));
  } catch {
    throw new DoguError(
      'data_source_error',
      'The private key of the service account JSON key cannot sign: check the key.',
    );
  }
}
