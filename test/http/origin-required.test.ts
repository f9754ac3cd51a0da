/**
 * On AWS the API answers only requests that came through CloudFront (decision 0172): API Gateway's
 * own URL is no way around the WAF. The proof is a value of the origin-verify secret, read from
 * Secrets Manager (mocked here, exact requests); the embedded runtime has no secret and refuses nothing.
 */
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as health } from '../../functions/health.ts';
import type { DoguError } from '../../shared/domain/errors.ts';
import { answeredDirectly, type OriginProof, requireCloudFront } from '../../shared/http/origin-proof.ts';
import { type RouteName, routeNamed, routes } from '../../shared/http/routes.ts';
import { originVerifyHeader, originVerifySecretEnv } from '../../shared/http/viewer-ip.ts';
import { provideServices, type Services } from '../../shared/runtime/services.ts';

const secretArn = 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:OriginVerify-abc';
const proof = 'Zr8vQ2mLx0proofOfCloudFront0000000000000000000000';
const secretsManager = mockClient(SecretsManagerClient);

const healthEvent = (headers: Record<string, string>) =>
  ({
    version: '2.0',
    routeKey: 'GET /healthz',
    rawPath: '/healthz',
    rawQueryString: '',
    headers,
    requestContext: {
      requestId: 'req-1',
      domainName: 'abc123.execute-api.ap-northeast-1.amazonaws.com',
      http: { method: 'GET', path: '/healthz', sourceIp: '198.51.100.20' },
    },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;
const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const call = async (headers: Record<string, string>) =>
  (await health(healthEvent(headers), context)) as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  };

describe('requests that bypass CloudFront', () => {
  let previous: string | undefined;
  const reads = () => secretsManager.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input);
  const oneRead = [
    { SecretId: secretArn, VersionStage: 'AWSCURRENT' },
    { SecretId: secretArn, VersionStage: 'AWSPENDING' },
    { SecretId: secretArn, VersionStage: 'AWSPREVIOUS' },
  ];
  beforeAll(() => {
    provideServices(async () => ({}) as Services);
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(new ResourceNotFoundException({ message: 'no such version', $metadata: {} }))
      .on(GetSecretValueCommand, { SecretId: secretArn, VersionStage: 'AWSCURRENT' })
      .resolves({ SecretString: proof });
  });
  beforeEach(() => {
    previous = process.env[originVerifySecretEnv];
    process.env[originVerifySecretEnv] = secretArn;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env[originVerifySecretEnv];
    else process.env[originVerifySecretEnv] = previous;
  });
  afterAll(() => secretsManager.restore());

  it('are refused with 403 Problem Details naming the service URL, on API Gateway’s own URL', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { [originVerifyHeader]: 'guess' },
      { [originVerifyHeader]: '' },
    ];
    for (const headers of attempts) {
      const answer = await call(headers);
      expect(answer.statusCode).toBe(403);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      const problem = JSON.parse(answer.body) as { code: string; detail: string };
      expect(problem.code).toBe('forbidden');
      expect(problem.detail).toContain('only through the service URL');
      expect(answer.body).not.toContain(proof);
    }
    // One read for the container; the wrong guesses right after it cost none.
    expect(reads()).toEqual(oneRead);
  });

  it('are served when they carry CloudFront’s proof', async () => {
    const answer = await call({ [originVerifyHeader]: proof });
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
    // The value was cached by the first request: no further read.
    expect(reads()).toEqual(oneRead);
  });

  it('are served in the embedded runtime, which has no origin secret', async () => {
    delete process.env[originVerifySecretEnv];
    expect((await call({})).statusCode).toBe(200);
    expect(reads()).toEqual(oneRead);
  });

  it('are served only for the own IdP’s two public documents (its issuer is the API’s own URL)', async () => {
    const none: OriginProof = { accepts: async () => false };
    expect([...answeredDirectly].sort()).toEqual(['idpDiscovery', 'idpJwks']);
    for (const route of routes) {
      const outcome = await requireCloudFront(
        healthEvent({}),
        routeNamed(route.name as RouteName),
        none,
      ).then(
        () => 'served',
        (error: DoguError) => error.code,
      );
      expect(outcome, route.name).toBe(
        answeredDirectly.has(route.name as RouteName) ? 'served' : 'forbidden',
      );
    }
  });
});
