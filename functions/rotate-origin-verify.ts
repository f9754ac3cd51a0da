/**
 * Secrets Manager's rotation function for the origin-verify secret (decision 0171): each of the four
 * steps Secrets Manager invokes it with, against the secret and CloudFront's KeyValueStore copy.
 * Clients are made once per container; the store's ARN comes from the environment (the secret's
 * ARN comes with each event).
 */
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { KeyValueStorePublisher } from '../shared/adapters/origin/key-value-store-publisher.ts';
import { type RotationEvent, rotateOriginVerify } from '../shared/adapters/origin/origin-verify-rotation.ts';
import { logger } from '../shared/commons/logger.ts';
import { originVerifyStoreEnv } from '../shared/http/viewer-ip.ts';

const storeArn = process.env[originVerifyStoreEnv];
const secrets = new SecretsManagerClient({});
const publisher = storeArn
  ? new KeyValueStorePublisher(new CloudFrontKeyValueStoreClient({}), storeArn)
  : undefined;

export async function handler(event: RotationEvent): Promise<void> {
  if (!publisher) throw new Error(`${originVerifyStoreEnv} is not set.`);
  // The step and the secret only: never a value.
  logger.info('origin-verify rotation step', { step: event.Step, secretId: event.SecretId });
  await rotateOriginVerify(event, { secrets, publisher });
}
