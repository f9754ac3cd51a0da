/**
 * The audit's source address (decision 0053): the viewer's address CloudFront adds is used only when
 * the request's origin proof was accepted (a value of the origin-verify secret read from Secrets
 * Manager, decision 0170); otherwise API Gateway's own sourceIp.
 */
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { originOf } from '../../shared/http/audit-recording.ts';
import { checkOrigin, originProofFromEnv } from '../../shared/http/origin-proof.ts';
import {
  originVerifyHeader,
  originVerifySecretEnv,
  viewerHostHeader,
  viewerIpHeader,
  viewerIpOf,
  viewerOriginOf,
} from '../../shared/http/viewer-ip.ts';

const proof = 'b7Qz1cW9proofValueFromSecretsManager000000000000';
const secretArn = 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:OriginVerify-abc';
const secretsManager = mockClient(SecretsManagerClient);
const event = (headers: Record<string, string>) =>
  ({
    headers: { 'user-agent': 'curl/8', ...headers },
    requestContext: { http: { sourceIp: '130.176.1.1' } },
  }) as unknown as APIGatewayProxyEventV2;

describe('viewerIpOf after the origin check', () => {
  let previous: string | undefined;
  beforeEach(() => {
    previous = process.env[originVerifySecretEnv];
    process.env[originVerifySecretEnv] = secretArn;
    secretsManager.reset();
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(new ResourceNotFoundException({ message: 'no such version', $metadata: {} }))
      .on(GetSecretValueCommand, { SecretId: secretArn, VersionStage: 'AWSCURRENT' })
      .resolves({ SecretString: proof });
  });
  afterEach(() => {
    if (previous === undefined) delete process.env[originVerifySecretEnv];
    else process.env[originVerifySecretEnv] = previous;
    secretsManager.reset();
  });
  const checked = async (headers: Record<string, string>) => {
    const e = event(headers);
    await checkOrigin(e);
    return e;
  };

  it("takes CloudFront's viewer address when the proof is the secret's value", async () => {
    expect(viewerIpOf(await checked({ [viewerIpHeader]: '203.0.113.7', [originVerifyHeader]: proof }))).toBe(
      '203.0.113.7',
    );
    expect(viewerIpOf(await checked({ [viewerIpHeader]: '2001:db8::7', [originVerifyHeader]: proof }))).toBe(
      '2001:db8::7',
    );
    expect(secretsManager.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input)).toEqual([
      { SecretId: secretArn, VersionStage: 'AWSCURRENT' },
      { SecretId: secretArn, VersionStage: 'AWSPENDING' },
      { SecretId: secretArn, VersionStage: 'AWSPREVIOUS' },
    ]);
  });

  it('keeps API Gateway’s sourceIp without the proof, with a wrong one, unchecked, or with no secret', async () => {
    const spoofed = { [viewerIpHeader]: '198.51.100.9' };
    expect(viewerIpOf(await checked(spoofed))).toBe('130.176.1.1');
    expect(viewerIpOf(await checked({ ...spoofed, [originVerifyHeader]: 'guess' }))).toBe('130.176.1.1');
    expect(viewerIpOf(event({ ...spoofed, [originVerifyHeader]: proof }))).toBe('130.176.1.1');
    // Not an address: never recorded, even with the proof.
    expect(viewerIpOf(await checked({ [viewerIpHeader]: '<script>', [originVerifyHeader]: proof }))).toBe(
      '130.176.1.1',
    );
    delete process.env[originVerifySecretEnv];
    expect(originProofFromEnv()).toBeUndefined();
    expect(viewerIpOf(await checked({ ...spoofed, [originVerifyHeader]: proof }))).toBe('130.176.1.1');
  });

  it('keeps one checker (one client, one cache) per container', () => {
    expect(originProofFromEnv()).toBe(originProofFromEnv());
  });

  it('keeps the mark on a copy of the event, and a client cannot send it', async () => {
    const through = await checked({ [viewerIpHeader]: '203.0.113.7', [originVerifyHeader]: proof });
    const copy = { ...through, pathParameters: { projectId: 'p1' } };
    expect(viewerIpOf(copy)).toBe('203.0.113.7');
    expect(JSON.stringify(through)).not.toContain('throughCloudFront');
    const parsed = JSON.parse(
      JSON.stringify({ ...through, throughCloudFront: true, 'dogu.throughCloudFront': true }),
    ) as APIGatewayProxyEventV2;
    expect(viewerIpOf(parsed)).toBe('130.176.1.1');
  });

  it("believes the viewer's host (the MCP endpoint's OAuth origin) only with the proof", async () => {
    const host = { [viewerHostHeader]: 'dogu.example.com' };
    expect(viewerOriginOf(await checked({ ...host, [originVerifyHeader]: proof }))).toBe(
      'https://dogu.example.com',
    );
    expect(viewerOriginOf(await checked({ ...host, [originVerifyHeader]: 'guess' }))).toBeUndefined();
    expect(viewerOriginOf(event({ ...host, [originVerifyHeader]: proof }))).toBeUndefined();
    expect(
      viewerOriginOf(await checked({ [viewerHostHeader]: 'evil.com/x', [originVerifyHeader]: proof })),
    ).toBeUndefined();
  });

  it('is what the audit records as the origin', async () => {
    expect(originOf(await checked({ [viewerIpHeader]: '203.0.113.7', [originVerifyHeader]: proof }))).toEqual(
      {
        sourceIp: '203.0.113.7',
        userAgent: 'curl/8',
      },
    );
  });
});
