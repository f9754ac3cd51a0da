/**
 * OIDC mode (spec 5.2): Dogu's own IdP issues an ID token for the project environment
 * (`sub` = `project:<projectId>:environment:<environmentId>`, `aud` = the connection's audience),
 * STS AssumeRoleWithWebIdentity trades it for temporary credentials of the role. The call is
 * unsigned: no AWS key is needed. Credentials are kept per role, audience and environment until
 * five minutes before they expire.
 */
import { AssumeRoleWithWebIdentityCommand, STSClient, STSServiceException } from '@aws-sdk/client-sts';
import { DoguError } from '../../domain/errors.ts';
import type { IdentityTokenSource } from '../../domain/ports.ts';
import { checkEndpointAddress, guardedAgents } from './address-guard.ts';

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

export interface WebIdentityRequest {
  region: string;
  roleArn: string;
  audience: string;
  stsEndpoint?: string;
  projectId: string;
  environmentId: string;
  identityToken?: IdentityTokenSource;
  signal?: AbortSignal;
}

/** Renewed this long before they expire, so a run never starts with credentials about to lapse. */
const renewBeforeMs = 5 * 60_000;
/** STS caps a web-identity session at the role's maximum; one hour is the spec's limit (spec 8). */
const sessionSeconds = 3600;

/** `dogu-<project>-<environment>`: CloudTrail then names who acted. At most 64 characters. */
export const sessionNameOf = (projectId: string, environmentId: string) =>
  `dogu-${projectId}-${environmentId}`.replace(/[^\w+=,.@-]/g, '-').slice(0, 64);

export class WebIdentityCredentials {
  private readonly cache = new Map<string, Promise<TemporaryCredentials>>();
  private readonly clients = new Map<string, STSClient>();

  constructor(
    private readonly denyPrivateNetworks = false,
    private readonly now: () => number = Date.now,
  ) {}

  /** Cached credentials, or a fresh exchange. Rejects with a DoguError naming the failed step. */
  async credentials(request: WebIdentityRequest): Promise<TemporaryCredentials> {
    const key = [
      request.roleArn,
      request.audience,
      request.stsEndpoint ?? request.region,
      request.projectId,
      request.environmentId,
    ].join('|');
    const cached = this.cache.get(key);
    if (cached) {
      const credentials = await cached.catch(() => undefined);
      if (credentials && credentials.expiration.getTime() - renewBeforeMs > this.now()) return credentials;
      if (this.cache.get(key) === cached) this.cache.delete(key);
    }
    const fresh = this.exchange(request);
    this.cache.set(key, fresh);
    fresh.catch(() => {
      if (this.cache.get(key) === fresh) this.cache.delete(key);
    });
    return fresh;
  }

  /** The exchange itself, never cached: "check the trust" in the console. */
  async exchange(request: WebIdentityRequest): Promise<TemporaryCredentials> {
    if (!request.identityToken)
      throw new DoguError(
        'data_source_error',
        "Step 1 (Dogu's ID token): this runtime has no identity provider configured.",
      );
    let token: string;
    try {
      token = (await request.identityToken(request.audience)).token;
    } catch (error) {
      throw new DoguError(
        'data_source_error',
        `Step 1 (Dogu's ID token): the token could not be issued (${reason(error)}).`,
      );
    }
    try {
      const answer = await this.client(request).send(
        new AssumeRoleWithWebIdentityCommand({
          RoleArn: request.roleArn,
          RoleSessionName: sessionNameOf(request.projectId, request.environmentId),
          WebIdentityToken: token,
          DurationSeconds: sessionSeconds,
        }),
        request.signal ? { abortSignal: request.signal } : {},
      );
      const c = answer.Credentials;
      if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.Expiration)
        throw new DoguError(
          'data_source_error',
          'Step 2 (AWS STS AssumeRoleWithWebIdentity): STS answered without credentials.',
        );
      return {
        accessKeyId: c.AccessKeyId,
        secretAccessKey: c.SecretAccessKey,
        sessionToken: c.SessionToken,
        expiration: c.Expiration,
      };
    } catch (error) {
      if (error instanceof DoguError) throw error;
      throw new DoguError('data_source_error', stsFailure(error, request.roleArn));
    }
  }

  private client(request: WebIdentityRequest): STSClient {
    const key = request.stsEndpoint ?? request.region;
    let client = this.clients.get(key);
    if (!client) {
      checkEndpointAddress(request.stsEndpoint, this.denyPrivateNetworks);
      client = new STSClient({
        requestHandler: guardedAgents(this.denyPrivateNetworks),
        region: request.region,
        ...(request.stsEndpoint ? { endpoint: request.stsEndpoint } : {}),
        // Unsigned call: no AWS credentials of the process are looked up.
        credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
        maxAttempts: 2,
      });
      this.clients.set(key, client);
    }
    return client;
  }

  close(): void {
    for (const client of this.clients.values()) client.destroy();
    this.clients.clear();
    this.cache.clear();
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

function stsFailure(error: unknown, roleArn: string): string {
  const step = 'Step 2 (AWS STS AssumeRoleWithWebIdentity)';
  if (!(error instanceof STSServiceException)) return `${step}: STS could not be reached (${reason(error)}).`;
  const hints: Record<string, string> = {
    AccessDenied: `the trust policy of ${roleArn} does not let Dogu's issuer with this audience and subject assume it (check the Federated principal, the aud and sub conditions)`,
    InvalidIdentityToken:
      "the IAM OIDC provider does not accept Dogu's token (check the provider URL equals Dogu's issuer and the audience is registered as a client ID)",
    ExpiredToken: "Dogu's token had expired (check the clocks)",
    IDPRejectedClaim: 'the identity provider claims were refused',
    IDPCommunicationError:
      "STS could not fetch Dogu's discovery document or JWKS (the issuer must be reachable from AWS)",
  };
  const code = error.name.replace(/Exception$/, '');
  const hint = hints[code];
  return `${step}: ${code}${hint ? `: ${hint}` : ''}. STS said: ${error.message}`;
}
