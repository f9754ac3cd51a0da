/**
 * Google credentials for every Google kind, from google-auth-library (decision 0125):
 * - key mode: a JWT client (the JWT bearer grant at Google's token endpoint, or the key's
 *   token_uri when it names another one, e.g. a private endpoint or a test's fake);
 * - workload identity: an IdentityPoolClient whose subject-token supplier hands over Dogu's own ID
 *   token (aud `https://iam.googleapis.com/<provider>`), exchanged at Google STS, then the service
 *   account impersonated through IAM Credentials. No files, no metadata server.
 * Clients keep their tokens until shortly before expiry (the library's eager refresh); one client
 * per key, or per project environment under workload identity. Every request goes through the
 * checked agents (google-transport.ts). A failure names the step that failed.
 */
import { createHash } from 'node:crypto';
import {
  type AuthClient,
  IdentityPoolClient,
  type IdentityPoolClientOptions,
  JWT,
} from 'google-auth-library';
import { StsCredentials } from 'google-auth-library/build/src/auth/stscredentials.js';
import type { CheckedAgents } from '../../adapters/http/checked-agents.ts';
import { DoguError } from '../../domain/errors.ts';
import type { IdentityTokenSource } from '../../domain/ports.ts';
import { type GoogleAuthConnection, googleAuthEndpoints } from './federation.ts';
import { gaxiosAgent, googleAgents } from './google-transport.ts';
import { parseServiceAccountKey } from './service-account-key.ts';

export const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';
const tokenSeconds = 3600;

export interface CredentialsRequest {
  connection: GoogleAuthConnection;
  /** The run's project environment: whom a federated token is for. */
  cacheKey: string;
  identityToken?: IdentityTokenSource;
}

export const steps = {
  key: 'OAuth token (service account key)',
  idToken: "Step 1 (Dogu's ID token)",
  sts: 'Step 2 (Google STS token exchange)',
  impersonation: 'Step 3 (IAM Credentials generateAccessToken, impersonating the service account)',
};

/** The ID-token source of the latest run, read by a cached client's supplier. */
interface SubjectSource {
  current?: IdentityTokenSource | undefined;
}

export class GoogleCredentials {
  private readonly clients = new Map<string, { client: AuthClient; subject: SubjectSource }>();

  /**
   * `scopes`: the APIs the tokens are for; `federatedScopes`: those of the impersonated service
   * account when they differ (Cloud Storage's also signs its own URLs: the IAM scope).
   */
  constructor(
    private readonly scopes: string[],
    private readonly options: { federatedScopes?: string[]; agents?: CheckedAgents } = {},
  ) {}

  private get agents(): CheckedAgents {
    return this.options.agents ?? googleAgents();
  }

  /** The client for a connection, kept for the process with its tokens. */
  client(request: CredentialsRequest): AuthClient {
    const c = request.connection;
    // A hash of the authentication fields only, so the map holds no second copy of the key.
    const key = createHash('sha256')
      .update(
        JSON.stringify([
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
    const kept = this.clients.get(key);
    if (kept) {
      kept.subject.current = request.identityToken;
      return kept.client;
    }
    const subject: SubjectSource = { current: request.identityToken };
    const client = this.create(request.connection, subject);
    this.clients.set(key, { client, subject });
    return client;
  }

  /** Never kept: "check the trust" in the console exchanges again. */
  fresh(request: CredentialsRequest): AuthClient {
    return this.create(request.connection, { current: request.identityToken });
  }

  /** An access token (for REST calls made without a Google client); failures name their step. */
  async accessToken(client: AuthClient): Promise<string> {
    try {
      const { token } = await client.getAccessToken();
      if (!token) throw new DoguError('data_source_error', 'Google answered without an access token.');
      return token;
    } catch (error) {
      throw googleAuthFailure(error);
    }
  }

  private create(connection: GoogleAuthConnection, subject: SubjectSource): AuthClient {
    return connection.authentication === 'workload-identity'
      ? this.federated(connection, subject)
      : this.withKey(connection);
  }

  private withKey(connection: GoogleAuthConnection): AuthClient {
    const key = connection.serviceAccountKey
      ? parseServiceAccountKey(connection.serviceAccountKey)
      : undefined;
    if (!key)
      throw new DoguError(
        'data_source_error',
        'Key authentication needs the service account JSON key; set it in the data source.',
      );
    const client = new JWT({
      email: key.client_email,
      key: key.private_key,
      ...(key.private_key_id ? { keyId: key.private_key_id } : {}),
      scopes: this.scopes,
      transporterOptions: gaxiosAgent(this.agents),
    });
    // The library posts the grant to Google's token endpoint; a key naming another one is obeyed.
    const tokenUri = key.token_uri;
    if (tokenUri && tokenUri !== googleAuthEndpoints.oauthToken)
      client.transporter.interceptors.request.add({
        resolved: async (config) => {
          if (String(config.url) === googleAuthEndpoints.oauthToken) config.url = new URL(tokenUri);
          return config;
        },
      });
    return client;
  }

  private federated(connection: GoogleAuthConnection, subject: SubjectSource): AuthClient {
    const { provider, serviceAccount } = connection;
    if (!provider || !serviceAccount)
      throw new DoguError(
        'data_source_error',
        'Workload identity federation needs the provider and the service account; set both in the data source.',
      );
    const tokenUrl = `${connection.stsEndpoint ?? googleAuthEndpoints.sts}/v1/token`;
    const iam = connection.iamCredentialsEndpoint ?? googleAuthEndpoints.iamCredentials;
    const options: IdentityPoolClientOptions = {
      type: 'external_account',
      audience: `//iam.googleapis.com/${provider}`,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: tokenUrl,
      // The e-mail as it is (the schema allows no character a path would need escaped): the library
      // reads it back from this URL as the account that signs.
      service_account_impersonation_url: `${iam}/v1/projects/-/serviceAccounts/${serviceAccount}:generateAccessToken`,
      service_account_impersonation: { token_lifetime_seconds: tokenSeconds },
      scopes: this.options.federatedScopes ?? this.scopes,
      subject_token_supplier: {
        getSubjectToken: async () => {
          const source = subject.current;
          if (!source)
            throw new DoguError(
              'data_source_error',
              `${steps.idToken}: this runtime has no identity provider configured.`,
            );
          try {
            return (await source(`https://iam.googleapis.com/${provider}`)).token;
          } catch (error) {
            throw new DoguError(
              'data_source_error',
              `${steps.idToken}: the token could not be issued (${error instanceof Error ? error.message : String(error)}).`,
            );
          }
        },
      },
      transporterOptions: gaxiosAgent(this.agents),
    };
    return new DoguIdentityPoolClient(options, tokenUrl);
  }
}

/** The library's STS exchange uses a transport of its own; ours goes through the checked agents. */
class DoguIdentityPoolClient extends IdentityPoolClient {
  constructor(options: IdentityPoolClientOptions, tokenUrl: string) {
    super(options);
    this.stsCredential = new StsCredentials({
      tokenExchangeEndpoint: tokenUrl,
      transporter: this.transporter,
    });
  }
}

interface LibraryError {
  message?: string;
  config?: { url?: unknown };
  response?: { status?: number; data?: unknown };
}

/** A failure of the token steps, as the step that failed and what Google said. */
export function googleAuthFailure(error: unknown): DoguError {
  const found = findDoguError(error);
  if (found) return found;
  const e = (error ?? {}) as LibraryError;
  const url = String(e.config?.url ?? '');
  const step = url.endsWith(':generateAccessToken')
    ? steps.impersonation
    : url.endsWith('/v1/token')
      ? steps.sts
      : steps.key;
  if (!e.response) {
    const why = (e.message ?? String(error)).replace(/^request to \S+ failed, reason: /, '');
    return new DoguError('data_source_error', `${step}: could not be reached (${why}).`);
  }
  const data = e.response.data;
  const json = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const text = typeof data === 'string' ? data : '';
  return new DoguError(
    'data_source_error',
    `${step}: Google answered HTTP ${e.response.status}: ${googleErrorText(json, text)}`,
  );
}

/**
 * A DoguError the library passed on (the supplier's, or the address rule's inside a network
 * error), or a key that OpenSSL cannot sign with (said without quoting the key).
 */
export function findDoguError(error: unknown): DoguError | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof DoguError) return cause;
    const code = String((cause as { code?: unknown }).code ?? '');
    if (code.startsWith('ERR_OSSL') || /^error:[0-9A-F]{8}:/.test(String((cause as Error).message ?? '')))
      return new DoguError(
        'data_source_error',
        'The private key of the service account JSON key cannot sign: check the key.',
      );
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
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
