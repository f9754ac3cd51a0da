/**
 * The origin-verify value read from Secrets Manager (decision 0170): every stage CloudFront may send
 * is accepted, values are cached, a rotation is picked up, and wrong guesses cost no extra reads.
 */
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OriginVerifySecret } from '../../../shared/adapters/origin/origin-verify-secret.ts';

const secretId = 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:OriginVerify-abc';
const secretsManager = mockClient(SecretsManagerClient);
const missing = () => new ResourceNotFoundException({ message: 'no version', $metadata: {} });

const stages = (values: Partial<Record<'AWSCURRENT' | 'AWSPENDING' | 'AWSPREVIOUS', string>>) => {
  secretsManager.reset();
  for (const stage of ['AWSCURRENT', 'AWSPENDING', 'AWSPREVIOUS'] as const) {
    const call = secretsManager.on(GetSecretValueCommand, { SecretId: secretId, VersionStage: stage });
    const value = values[stage];
    if (value) call.resolves({ SecretString: value, VersionStages: [stage] });
    else call.rejects(missing());
  }
};

const requests = () => secretsManager.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input);
const oneRead = [
  { SecretId: secretId, VersionStage: 'AWSCURRENT' },
  { SecretId: secretId, VersionStage: 'AWSPENDING' },
  { SecretId: secretId, VersionStage: 'AWSPREVIOUS' },
];

describe('OriginVerifySecret', () => {
  let now = 1_000_000;
  const secret = () =>
    new OriginVerifySecret(new SecretsManagerClient({ region: 'ap-northeast-1' }), {
      secretId,
      ttlMs: 300_000,
      recheckMs: 30_000,
      now: () => now,
    });
  beforeEach(() => {
    now = 1_000_000;
  });
  afterEach(() => secretsManager.reset());

  it('accepts the current value before any rotation (no pending or previous version yet)', async () => {
    stages({ AWSCURRENT: 'current-value' });
    const proof = secret();
    expect(await proof.accepts('current-value')).toBe(true);
    expect(await proof.accepts('current-valuf')).toBe(false);
    expect(await proof.accepts(undefined)).toBe(false);
    expect(await proof.accepts('')).toBe(false);
    // One read of the three stages; the wrong value within 30 s of it caused none.
    expect(requests()).toEqual(oneRead);
  });

  it('accepts current, pending and previous during a rotation', async () => {
    stages({ AWSCURRENT: 'old', AWSPENDING: 'new', AWSPREVIOUS: 'older' });
    const proof = secret();
    expect(await proof.accepts('old')).toBe(true);
    expect(await proof.accepts('new')).toBe(true);
    expect(await proof.accepts('older')).toBe(true);
    expect(await proof.accepts('oldest')).toBe(false);
    expect(requests()).toEqual(oneRead);
  });

  it('keeps values for the TTL and reads again after it', async () => {
    stages({ AWSCURRENT: 'v1' });
    const proof = secret();
    expect(await proof.accepts('v1')).toBe(true);
    stages({ AWSCURRENT: 'v2', AWSPREVIOUS: 'v1' });
    now += 299_000;
    expect(await proof.accepts('v1')).toBe(true);
    expect(requests()).toEqual([]);
    now += 1_000;
    expect(await proof.accepts('v1')).toBe(true);
    expect(await proof.accepts('v2')).toBe(true);
    expect(requests()).toEqual(oneRead);
  });

  it('reads again for an unknown value once 30 s have passed, so a new value is accepted early', async () => {
    stages({ AWSCURRENT: 'v1' });
    const proof = secret();
    expect(await proof.accepts('v1')).toBe(true);
    stages({ AWSCURRENT: 'v1', AWSPENDING: 'v2' });
    now += 10_000;
    expect(await proof.accepts('v2')).toBe(false);
    expect(requests()).toEqual([]);
    now += 20_000;
    expect(await proof.accepts('v2')).toBe(true);
    expect(requests()).toEqual(oneRead);
    // A guess right after that read does not read again.
    now += 1_000;
    expect(await proof.accepts('guess')).toBe(false);
    expect(requests()).toEqual(oneRead);
  });

  it('keeps the values it has when a later read fails, and tries again 30 s on', async () => {
    stages({ AWSCURRENT: 'v1' });
    const proof = secret();
    expect(await proof.accepts('v1')).toBe(true);
    secretsManager.reset();
    secretsManager.on(GetSecretValueCommand).rejects(new Error('ThrottlingException'));
    now += 300_000;
    expect(await proof.accepts('v1')).toBe(true);
    expect(requests()).toEqual(oneRead);
    now += 10_000;
    expect(await proof.accepts('v1')).toBe(true);
    expect(requests()).toHaveLength(3);
    stages({ AWSCURRENT: 'v2', AWSPREVIOUS: 'v1' });
    now += 20_000;
    expect(await proof.accepts('v2')).toBe(true);
    expect(requests()).toEqual(oneRead);
  });

  it('does not cache a failed read, and fails when the current value itself is missing', async () => {
    secretsManager.reset();
    secretsManager.on(GetSecretValueCommand).rejects(missing());
    const proof = secret();
    await expect(proof.accepts('v1')).rejects.toThrow('no version');
    stages({ AWSCURRENT: 'v1' });
    expect(await proof.accepts('v1')).toBe(true);
    expect(requests()).toEqual(oneRead);
  });
});
