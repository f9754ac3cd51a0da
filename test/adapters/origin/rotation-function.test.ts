/**
 * functions/rotate-origin-verify.ts as Secrets Manager invokes it (decision 0171): one step through
 * both real SDK clients (mocked at the client class, exact requests), the store's ARN from the
 * environment, and no work at all without it.
 */
import {
  CloudFrontKeyValueStoreClient,
  DescribeKeyValueStoreCommand,
  PutKeyCommand,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { originVerifyStoreEnv } from '../../../shared/http/viewer-ip.ts';

const SecretId = 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:OriginVerify-abc';
const KvsARN = 'arn:aws:cloudfront::123456789012:key-value-store/5f6a1c2e-0b4d-4e8f-9a7b-1c2d3e4f5a6b';
const token = '0b5f3c1e-6a77-4d4e-9a57-2f0c1d8e9b10';
const secrets = mockClient(SecretsManagerClient);
const store = mockClient(CloudFrontKeyValueStoreClient);
const sent = (mock: typeof secrets | typeof store) =>
  mock.calls().map((call) => [call.args[0].constructor.name, call.args[0].input]);

/** The module reads its environment once, at load (a container's start). */
async function loadHandler(storeArn: string | undefined) {
  vi.resetModules();
  if (storeArn) vi.stubEnv(originVerifyStoreEnv, storeArn);
  else vi.stubEnv(originVerifyStoreEnv, '');
  return (await import('../../../functions/rotate-origin-verify.ts')).handler;
}

describe('the rotation function', () => {
  afterEach(() => {
    secrets.reset();
    store.reset();
    vi.unstubAllEnvs();
  });
  afterAll(() => {
    secrets.restore();
    store.restore();
  });

  it('setSecret writes the pending value to the store named by the environment', async () => {
    const handler = await loadHandler(KvsARN);
    secrets.on(DescribeSecretCommand).resolves({
      ARN: SecretId,
      RotationEnabled: true,
      VersionIdsToStages: { old: ['AWSCURRENT'], [token]: ['AWSPENDING'] },
    });
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'p3nd1ngValue' });
    store
      .on(DescribeKeyValueStoreCommand)
      .resolves({ KvsARN, ETag: 'KV1', ItemCount: 1, TotalSizeInBytes: 40, Created: new Date() });
    store.on(PutKeyCommand).resolves({ ETag: 'KV2', ItemCount: 1, TotalSizeInBytes: 40 });

    await handler({ SecretId, ClientRequestToken: token, Step: 'setSecret' });

    expect(sent(secrets)).toEqual([
      ['DescribeSecretCommand', { SecretId }],
      ['GetSecretValueCommand', { SecretId, VersionId: token, VersionStage: 'AWSPENDING' }],
    ]);
    expect(sent(store)).toEqual([
      ['DescribeKeyValueStoreCommand', { KvsARN }],
      ['PutKeyCommand', { KvsARN, Key: 'origin-verify', Value: 'p3nd1ngValue', IfMatch: 'KV1' }],
    ]);
  });

  it('refuses every step without the store in its environment, before touching the secret', async () => {
    const handler = await loadHandler(undefined);
    await expect(handler({ SecretId, ClientRequestToken: token, Step: 'createSecret' })).rejects.toThrow(
      `${originVerifyStoreEnv} is not set.`,
    );
    expect(sent(secrets)).toEqual([]);
    expect(sent(store)).toEqual([]);
  });
});
