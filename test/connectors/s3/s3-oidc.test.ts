/**
 * S3 in OIDC mode: Dogu's own IdP issues the ID token, a local STS endpoint checks the exact
 * AssumeRoleWithWebIdentity request and verifies the token against Dogu's JWKS (over HTTP), and
 * the temporary credentials then reach the real S3-compatible server. Credentials are cached;
 * signed URLs never outlive them; "check the trust" names the failing step.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalOwnIdp } from '../../../shared/adapters/idp/own-idp-services.ts';
import { systemClock } from '../../../shared/adapters/ids.ts';
import type { ConnectorRuntime } from '../../../shared/connectors/connector.ts';
import { s3Runtime } from '../../../shared/connectors/s3/runtime.ts';
import { identityTokenSource, type OwnIdp } from '../../../shared/domain/identity/own-idp.ts';
import { type ReceivedRequest, startHttpServer, type TestServer } from '../../support/http-server.ts';
import { type S3Server, startS3Server } from './s3-server.ts';
import { storageRun } from './support.ts';

const roleArn = 'arn:aws:iam::123456789012:role/dogu-files';
const audience = 'sts.amazonaws.com/dogu-test';
let s3: S3Server;
let sts: TestServer;
let idp: OwnIdp;
let dataDir: string;
/** What the next STS answer is: credentials lasting this long, or a refusal. */
let answer: { lifetimeSeconds: number } | { status: number; code: string; message: string } = {
  lifetimeSeconds: 3600,
};
// s3rver knows one account (S3RVER); STS hands out its key with a session token of each exchange.
const verified: {
  request: ReceivedRequest;
  claims: Record<string, unknown>;
  header: Record<string, unknown>;
}[] = [];

beforeAll(async () => {
  s3 = await startS3Server(['oidc-files']);
  dataDir = await mkdtemp(join(tmpdir(), 'dogu-idp-'));
  let stsUrl = '';
  sts = await startHttpServer((request, response) => {
    if (request.url === '/idp/jwks') {
      void idp.keys.publicKeys().then((keys) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ keys }));
      });
      return;
    }
    const form = new URLSearchParams(request.body.toString());
    const jwks = createRemoteJWKSet(new URL(`${stsUrl}/idp/jwks`));
    jwtVerify(form.get('WebIdentityToken') ?? '', jwks, { issuer: `${stsUrl}/idp`, audience }).then(
      ({ payload, protectedHeader }) => {
        verified.push({ request, claims: payload, header: protectedHeader });
        if ('status' in answer) {
          response.writeHead(answer.status, { 'content-type': 'text/xml' });
          response.end(
            `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${answer.code}</Code><Message>${answer.message}</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`,
          );
          return;
        }
        const expiration = new Date(Date.now() + answer.lifetimeSeconds * 1000).toISOString();
        response.writeHead(200, { 'content-type': 'text/xml' });
        response.end(
          `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>S3RVER</AccessKeyId><SecretAccessKey>S3RVER</SecretAccessKey><SessionToken>session-token-${verified.length}</SessionToken><Expiration>${expiration}</Expiration></Credentials><SubjectFromWebIdentityToken>${payload.sub}</SubjectFromWebIdentityToken><AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/dogu-files/dogu-shop-prod</Arn><AssumedRoleId>AROA:dogu-shop-prod</AssumedRoleId></AssumedRoleUser><Audience>${audience}</Audience></AssumeRoleWithWebIdentityResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></AssumeRoleWithWebIdentityResponse>`,
        );
      },
      (error: Error) => {
        response.writeHead(400, { 'content-type': 'text/xml' });
        response.end(
          `<ErrorResponse><Error><Type>Sender</Type><Code>InvalidIdentityToken</Code><Message>${error.message}</Message></Error><RequestId>r-2</RequestId></ErrorResponse>`,
        );
      },
    );
  });
  stsUrl = sts.url;
  idp = await createLocalOwnIdp({ dataDir, baseUrl: () => stsUrl, clock: systemClock, env: {} });
});

afterAll(async () => {
  await s3?.stop();
  await sts?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const oidcConnection = () => ({
  region: 'ap-northeast-1',
  authentication: 'oidc',
  audience,
  roleArn,
  endpoint: s3.endpoint,
  forcePathStyle: true,
  stsEndpoint: sts.url,
});

describe('S3 with OIDC', () => {
  let runtime: ConnectorRuntime;
  beforeAll(() => {
    runtime = s3Runtime();
  });
  afterAll(() => runtime.close?.());
  const tokens = () => identityTokenSource(idp, 'shop', 'prod');

  it('assumes the role with Dogu’s ID token (exact request, verified claims) and caches the credentials', async () => {
    answer = { lifetimeSeconds: 3600 };
    verified.length = 0;
    const put = await runtime.run(
      storageRun(
        's3',
        oidcConnection(),
        { operation: 'signed-url', bucket: 'oidc-files', objectKey: 'a.txt', method: 'PUT' },
        {},
        { identityToken: tokens() },
      ),
    );
    expect(put[0]!.status, put[0]!.error?.message).toBe('succeeded');
    const list = await runtime.run(
      storageRun(
        's3',
        oidcConnection(),
        { operation: 'list', bucket: 'oidc-files' },
        {},
        { identityToken: tokens() },
      ),
    );
    expect(list[0]!.status, list[0]!.error?.message).toBe('succeeded');

    expect(verified).toHaveLength(1);
    const [{ request, claims, header }] = verified as [(typeof verified)[number]];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/');
    expect(request.headers.authorization).toBeUndefined();
    const form = Object.fromEntries(new URLSearchParams(request.body.toString()));
    expect(form).toEqual({
      Action: 'AssumeRoleWithWebIdentity',
      Version: '2011-06-15',
      RoleArn: roleArn,
      RoleSessionName: 'dogu-shop-prod',
      WebIdentityToken: expect.any(String),
      DurationSeconds: '3600',
    });
    expect(header.alg).toBe('RS256');
    expect(claims).toMatchObject({
      iss: `${sts.url}/idp`,
      sub: 'project:shop:environment:prod',
      aud: audience,
      tenant_subdomain: 'local',
      project_id: 'shop',
      environment_id: 'prod',
    });

    const signed = (put[0]!.rows[0] as { signedUrl: string }).signedUrl;
    expect(new URL(signed).searchParams.get('X-Amz-Security-Token')).toBe('session-token-1');
    expect(new URL(signed).searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\//);
    expect((await fetch(signed, { method: 'PUT', body: 'federated' })).status).toBe(200);
  });

  it('keeps a signed URL within the credentials’ lifetime and renews credentials about to lapse', async () => {
    const runtime2 = s3Runtime();
    try {
      answer = { lifetimeSeconds: 240 };
      verified.length = 0;
      const [result] = await runtime2.run(
        storageRun(
          's3',
          oidcConnection(),
          { operation: 'signed-url', bucket: 'oidc-files', objectKey: 'a.txt', expiresInSeconds: 3600 },
          {},
          { identityToken: tokens() },
        ),
      );
      const row = result!.rows[0] as { expiresAt: number };
      expect(row.expiresAt - Date.now() / 1000).toBeLessThanOrEqual(240);
      expect(row.expiresAt - Date.now() / 1000).toBeGreaterThan(200);
      expect(result!.messages.join(' ')).toMatch(/cannot outlive the role's temporary credentials/);
      // Less than five minutes left: the next run exchanges a new token.
      answer = { lifetimeSeconds: 3600 };
      await runtime2.run(
        storageRun(
          's3',
          oidcConnection(),
          { operation: 'list', bucket: 'oidc-files' },
          {},
          { identityToken: tokens() },
        ),
      );
      expect(verified).toHaveLength(2);
    } finally {
      await runtime2.close?.();
    }
  });

  it('checks the trust and names the failing step', async () => {
    const check = (connection: Record<string, unknown>, identityToken = tokens()) =>
      runtime.testConnection({
        key: 'test/shop/files/prod',
        projectId: 'shop',
        environmentId: 'prod',
        connection,
        signal: AbortSignal.timeout(5000),
        identityToken,
      });
    answer = { lifetimeSeconds: 3600 };
    await expect(check(oidcConnection())).resolves.toBeUndefined();

    answer = {
      status: 403,
      code: 'AccessDenied',
      message: 'Not authorized to perform sts:AssumeRoleWithWebIdentity',
    };
    await expect(check(oidcConnection())).rejects.toThrow(
      /^Step 2 \(AWS STS AssumeRoleWithWebIdentity\): AccessDenied: the trust policy of arn:aws:iam::123456789012:role\/dogu-files does not let/,
    );
    answer = { lifetimeSeconds: 3600 };
    // A token for another audience fails verification at the fake STS, as at AWS.
    await expect(
      check(oidcConnection(), (aud) => idp && identityTokenSource(idp, 'shop', 'prod')(`${aud}-other`)),
    ).rejects.toThrow(/Step 2 .*InvalidIdentityToken: the IAM OIDC provider does not accept Dogu's token/);
    await expect(
      check(oidcConnection(), async () => {
        throw new Error('no signing key');
      }),
    ).rejects.toThrow("Step 1 (Dogu's ID token): the token could not be issued (no signing key).");
    await expect(check({ ...oidcConnection(), endpoint: 'http://127.0.0.1:1' })).rejects.toThrow(
      /^Step 3 \(S3 with the role\): S3 could not be reached/,
    );
  });

  it('fails a run whose role is refused, naming the step', async () => {
    const runtime3 = s3Runtime();
    try {
      answer = { status: 403, code: 'AccessDenied', message: 'Not authorized' };
      const [result] = await runtime3.run(
        storageRun(
          's3',
          oidcConnection(),
          { operation: 'list', bucket: 'oidc-files' },
          {},
          { identityToken: tokens() },
        ),
      );
      expect(result!.status).toBe('failed');
      expect(result!.error?.message).toMatch(/^Step 2 \(AWS STS AssumeRoleWithWebIdentity\): AccessDenied/);
    } finally {
      await runtime3.close?.();
    }
  });
});
