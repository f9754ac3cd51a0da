/**
 * The origin-verify rotation's four steps (decision 0171) against Secrets Manager (mocked, exact
 * requests) and a publisher standing for CloudFront's copy of the value.
 */
import {
  DescribeSecretCommand,
  GetRandomPasswordCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type OriginHeaderPublisher,
  type RotationEvent,
  rotateOriginVerify,
} from '../../../shared/adapters/origin/origin-verify-rotation.ts';

const SecretId = 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:OriginVerify-abc';
const token = '0b5f3c1e-6a77-4d4e-9a57-2f0c1d8e9b10';
const currentVersion = 'a1a1a1a1-0000-4000-8000-000000000001';
const secretsManager = mockClient(SecretsManagerClient);
const client = new SecretsManagerClient({ region: 'ap-northeast-1' });
const missing = () => new ResourceNotFoundException({ message: 'no such version', $metadata: {} });

class CloudFrontCopy implements OriginHeaderPublisher {
  published: string[] = [];
  async publish(value: string) {
    this.published.push(value);
  }
  async current() {
    return this.published.at(-1);
  }
}

const describedWith = (stages: Record<string, string[]>, rotationEnabled = true) =>
  secretsManager.on(DescribeSecretCommand, { SecretId }).resolves({
    ARN: SecretId,
    RotationEnabled: rotationEnabled,
    VersionIdsToStages: stages,
  });
const rotating = () => describedWith({ [currentVersion]: ['AWSCURRENT'], [token]: ['AWSPENDING'] });
const run = (Step: RotationEvent['Step'], publisher = new CloudFrontCopy()) =>
  rotateOriginVerify({ SecretId, ClientRequestToken: token, Step }, { secrets: client, publisher });
/** Every request sent, in order, as [command, input]. */
const sent = () => secretsManager.calls().map((call) => [call.args[0].constructor.name, call.args[0].input]);

describe('origin-verify rotation', () => {
  afterEach(() => secretsManager.reset());

  it('createSecret puts a new 48-character value as the pending version of the token', async () => {
    rotating();
    secretsManager
      .on(GetSecretValueCommand, { SecretId, VersionStage: 'AWSCURRENT' })
      .resolves({ SecretString: 'old-value' })
      .on(GetSecretValueCommand, { SecretId, VersionId: token, VersionStage: 'AWSPENDING' })
      .rejects(missing())
      .on(GetRandomPasswordCommand)
      .resolves({ RandomPassword: 'N3wValue' })
      .on(PutSecretValueCommand)
      .resolves({});
    await run('createSecret');
    expect(sent()).toEqual([
      ['DescribeSecretCommand', { SecretId }],
      ['GetSecretValueCommand', { SecretId, VersionStage: 'AWSCURRENT' }],
      ['GetSecretValueCommand', { SecretId, VersionId: token, VersionStage: 'AWSPENDING' }],
      ['GetRandomPasswordCommand', { PasswordLength: 48, ExcludePunctuation: true }],
      [
        'PutSecretValueCommand',
        { SecretId, ClientRequestToken: token, SecretString: 'N3wValue', VersionStages: ['AWSPENDING'] },
      ],
    ]);
  });

  it('createSecret run again keeps the pending value it made', async () => {
    rotating();
    secretsManager
      .on(GetSecretValueCommand, { SecretId, VersionStage: 'AWSCURRENT' })
      .resolves({ SecretString: 'old-value' })
      .on(GetSecretValueCommand, { SecretId, VersionId: token, VersionStage: 'AWSPENDING' })
      .resolves({ SecretString: 'N3wValue' });
    await run('createSecret');
    expect(secretsManager.commandCalls(GetRandomPasswordCommand)).toHaveLength(0);
    expect(secretsManager.commandCalls(PutSecretValueCommand)).toHaveLength(0);
  });

  it('setSecret hands the pending value to CloudFront, testSecret reads it back', async () => {
    rotating();
    secretsManager
      .on(GetSecretValueCommand, { SecretId, VersionId: token, VersionStage: 'AWSPENDING' })
      .resolves({ SecretString: 'N3wValue' });
    const cloudFront = new CloudFrontCopy();
    await run('setSecret', cloudFront);
    expect(cloudFront.published).toEqual(['N3wValue']);
    await run('testSecret', cloudFront);
    expect(sent()).toEqual([
      ['DescribeSecretCommand', { SecretId }],
      ['GetSecretValueCommand', { SecretId, VersionId: token, VersionStage: 'AWSPENDING' }],
      ['DescribeSecretCommand', { SecretId }],
      ['GetSecretValueCommand', { SecretId, VersionId: token, VersionStage: 'AWSPENDING' }],
    ]);
  });

  it('testSecret fails while CloudFront still sends another value', async () => {
    rotating();
    secretsManager
      .on(GetSecretValueCommand, { SecretId, VersionId: token, VersionStage: 'AWSPENDING' })
      .resolves({ SecretString: 'N3wValue' });
    const cloudFront = new CloudFrontCopy();
    await cloudFront.publish('old-value');
    await expect(run('testSecret', cloudFront)).rejects.toThrow(/does not send the pending value/);
    await expect(run('testSecret', new CloudFrontCopy())).rejects.toThrow(/does not send the pending value/);
  });

  it('finishSecret moves AWSCURRENT to the new version (the old one becomes AWSPREVIOUS)', async () => {
    rotating();
    secretsManager.on(UpdateSecretVersionStageCommand).resolves({});
    await run('finishSecret');
    expect(sent()).toEqual([
      ['DescribeSecretCommand', { SecretId }],
      [
        'UpdateSecretVersionStageCommand',
        { SecretId, VersionStage: 'AWSCURRENT', MoveToVersionId: token, RemoveFromVersionId: currentVersion },
      ],
    ]);
  });

  it('does nothing for a version that is already current (a step run again after finishing)', async () => {
    describedWith({ [token]: ['AWSCURRENT'], [currentVersion]: ['AWSPREVIOUS'] });
    const cloudFront = new CloudFrontCopy();
    for (const step of ['createSecret', 'setSecret', 'testSecret', 'finishSecret'] as const) {
      await run(step, cloudFront);
    }
    expect(cloudFront.published).toEqual([]);
    expect(sent().every(([name]) => name === 'DescribeSecretCommand')).toBe(true);
  });

  it('refuses a secret without rotation, an unknown token and a token that is not pending', async () => {
    describedWith({ [currentVersion]: ['AWSCURRENT'], [token]: ['AWSPENDING'] }, false);
    await expect(run('createSecret')).rejects.toThrow(/Rotation is not enabled/);
    secretsManager.reset();
    describedWith({ [currentVersion]: ['AWSCURRENT'] });
    await expect(run('createSecret')).rejects.toThrow(/is not a version of/);
    secretsManager.reset();
    describedWith({ [currentVersion]: ['AWSCURRENT'], [token]: [] });
    await expect(run('setSecret')).rejects.toThrow(/is not pending/);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
