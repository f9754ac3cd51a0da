/** Services of a Lambda container, configured by the environment the CDK stack sets. */

import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { KMSClient } from '@aws-sdk/client-kms';
import { createAccountServices, withInvitationMail } from '../adapters/auth/account-services.ts';
import { invitationMailFromEnv } from '../adapters/auth/invitation-mail.ts';
import { TokenService } from '../adapters/auth/token-service.ts';
import { createAwsScheduling } from '../adapters/aws/aws-scheduling.ts';
import { CachingStore } from '../adapters/caching-store.ts';
import { createDocumentClient } from '../adapters/dynamodb/client.ts';
import { DynamoDbAccountStore } from '../adapters/dynamodb/dynamodb-account-store.ts';
import { DynamoDbAuditLog } from '../adapters/dynamodb/dynamodb-audit-log.ts';
import { DynamoDbFileStore } from '../adapters/dynamodb/dynamodb-file-store.ts';
import { DynamoDbNotificationStore } from '../adapters/dynamodb/dynamodb-notification-store.ts';
import { DynamoDbSchedulingStore } from '../adapters/dynamodb/dynamodb-scheduling-store.ts';
import { DynamoDbStore } from '../adapters/dynamodb/dynamodb-store.ts';
import { createAwsOwnIdp } from '../adapters/idp/own-idp-services.ts';
import { systemClock, uuidV7Ids } from '../adapters/ids.ts';
import { HttpNotificationChannels } from '../adapters/notifications/http-notification-channels.ts';
import { SesMailer } from '../adapters/notifications/ses-mailer.ts';
import { scheduledDrainWakeups } from '../adapters/notifications/timer-wakeups.ts';
import { createOidcServices } from '../adapters/oidc/oidc-services.ts';
import { createLambdaSandbox, lambdaInvoker } from '../adapters/sandbox/lambda-sandbox.ts';
import { KmsSecretCipher } from '../adapters/secrets/kms-cipher.ts';
import { createActionEngines } from '../connectors/engines.ts';
import { NotificationCenter } from '../domain/notifications/center.ts';
import type { BlobStore } from '../domain/ports.ts';
import { SecretValues } from '../domain/secret-values.ts';
import type { Services } from './services.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set.`);
  return value;
}

export async function createAwsServices(): Promise<Services> {
  // Other containers write too: cached definitions live briefly (docs/decisions/0007).
  const cacheMs = Number(process.env.DOGU_DEFINITION_CACHE_MS ?? 5_000);
  const documentClient = createDocumentClient();
  const store = new CachingStore(new DynamoDbStore(documentClient, required('DOGU_TABLE_NAME')), cacheMs);
  const signingKey = await getSecret(required('DOGU_SIGNING_KEY_SECRET_ARN'), { maxAge: 300 });
  if (typeof signingKey !== 'string') throw new Error('The signing key secret must be a string.');
  const secrets = new SecretValues(new KmsSecretCipher(new KMSClient({}), required('DOGU_SECRETS_KEY_ID')));
  return {
    store,
    definitions: store,
    tokens: new TokenService(new TextEncoder().encode(signingKey)),
    // A Lambda container serves one request at a time: a small pool per data source is enough.
    engines: createActionEngines({ poolSize: 2 }),
    // On Lambda, private addresses are refused unless the stack says otherwise (docs/deploy.md).
    audit: new DynamoDbAuditLog(documentClient, required('DOGU_TABLE_NAME')),
    secrets,
    clock: systemClock,
    ids: uuidV7Ids,
    settings: {
      localLogin: false,
      loginTokenSeconds: Number(process.env.DOGU_LOGIN_TOKEN_SECONDS ?? 12 * 3600),
      // API Gateway gives up after 30 s; the stack sets 28 s so the run is cancelled and recorded first.
      maxExecutionMs: Math.min(Number(process.env.DOGU_MAX_EXECUTION_MS ?? 28_000), 60_000),
      // Lambda stops at 15 minutes: the job Lambda's run is cut a little earlier so it is recorded (decision 0015).
      maxJobExecutionMs: Math.min(Number(process.env.DOGU_MAX_JOB_EXECUTION_MS ?? 14 * 60_000), 30 * 60_000),
    },
    oidc: createOidcServices({ identities: store, clock: systemClock, env: process.env }),
    idp: createAwsOwnIdp({ clock: systemClock, env: process.env }),
    schedules: new DynamoDbSchedulingStore(documentClient, required('DOGU_TABLE_NAME')),
    ...createAwsScheduling(process.env),
    // Other containers change accounts too: a disabled user is refused everywhere within this time.
    accounts: withInvitationMail(
      createAccountServices(
        new DynamoDbAccountStore(documentClient, required('DOGU_TABLE_NAME')),
        Number(process.env.DOGU_USER_CACHE_MS ?? 5_000),
      ),
      new SesMailer(),
      invitationMailFromEnv(process.env, () => required('DOGU_PUBLIC_URL'), 'ses'),
    ),
    // First attempts run in the container that saw the event; retries and anything a frozen
    // container left behind are sent by the minute drain (decision 0031).
    notifications: new NotificationCenter({
      notificationStore: new DynamoDbNotificationStore(documentClient, required('DOGU_TABLE_NAME')),
      channels: new HttpNotificationChannels(new SesMailer()),
      wakeups: scheduledDrainWakeups,
      secrets,
      clock: systemClock,
      ids: uuidV7Ids,
    }),
    files: awsFileStorage(documentClient),
    // Scripts run in a function of their own whose role grants nothing (decision 0039).
    sandbox: createLambdaSandbox(lambdaInvoker(process.env.DOGU_SANDBOX_FUNCTION ?? 'dogu-script-sandbox')),
  };
}

/** Only functions that keep or read uploaded files get the bucket's name (and its grants). */
function awsFileStorage(documentClient: ReturnType<typeof createDocumentClient>): Services['files'] {
  const records = new DynamoDbFileStore(documentClient, required('DOGU_TABLE_NAME'));
  // The S3 client (and its SDK) is loaded on the first blob call, once per container.
  let store: Promise<BlobStore> | undefined;
  const s3 = () => {
    store ??= Promise.all([import('@aws-sdk/client-s3'), import('../adapters/blobs/s3-blob-store.ts')]).then(
      ([{ S3Client }, { S3BlobStore }]) => new S3BlobStore(new S3Client({}), required('DOGU_BLOB_BUCKET')),
    );
    store.catch(() => {
      store = undefined;
    });
    return store;
  };
  const blobs: BlobStore = {
    put: async (key, bytes) => (await s3()).put(key, bytes),
    get: async (key) => (await s3()).get(key),
    delete: async (key) => (await s3()).delete(key),
  };
  return { blobs, versions: records, uploadTokens: records };
}
