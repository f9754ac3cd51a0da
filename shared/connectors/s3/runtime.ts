/**
 * The S3 kind's runtime: clients per data source environment and credentials, the four
 * operations, test connection ("check the trust" in OIDC mode). SDK imports only here.
 */
import { createHash } from 'node:crypto';
import {
  GetObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import type { FileValue } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { ConnectionCheck, EngineRun } from '../../domain/ports.ts';
import { maxKeptResultBytes } from '../../domain/result-limits.ts';
import { checkEndpointAddress, guardedAgents } from '../aws-federation/address-guard.ts';
import {
  type AwsCredentialScope,
  type AwsCredentials,
  awsCredentialsOf,
} from '../aws-federation/aws-credentials.ts';
import { type TemporaryCredentials, WebIdentityCredentials } from '../aws-federation/web-identity.ts';
import type { ConnectorRuntime } from '../connector.ts';
import type { StorageActionInput } from '../object-storage/action.ts';
import { bucketName, objectKey, s3BucketRule } from '../object-storage/object-names.ts';
import {
  downloadLinkResult,
  downloadLinkSeconds,
  downloadResult,
  fileContent,
  type ListedObject,
  listResult,
  maxInlineDownloadBytes,
  objectRowResult,
  signedUrlResult,
} from '../object-storage/results.ts';
import { failedResult } from '../sql/run-sql.ts';
import type { S3Connection } from './definition.ts';
import { s3Failure, s3PermissionOf } from './s3-errors.ts';

/** Longer than the longest run (a job: 30 minutes). */
const retiredClientMs = 31 * 60_000;

type Credentials = AwsCredentials;

export function s3Runtime(
  denyPrivateNetworks = httpClientOptionsFromEnv(process.env).denyPrivateNetworks ?? false,
  webIdentity = new WebIdentityCredentials(denyPrivateNetworks),
): ConnectorRuntime {
  const clients = new Map<string, { fingerprint: string; client: S3Client; signer: S3Client }>();

  /** undefined: the function's own role (the SDK's default credential chain). */
  const credentialsOf = (connection: S3Connection, scope: AwsCredentialScope) =>
    awsCredentialsOf(connection, scope, webIdentity);

  /**
   * Two clients per data source environment and credentials, built alike: one sends requests, one
   * only signs URLs. The signer computes no body checksum: an upload through a signed URL has no body
   * at signing time, so the SDK's default (a CRC32 of every upload) would put the empty body's
   * `x-amz-checksum-crc32=AAAAAA==` in the URL, and stores that check it refuse the real bytes.
   */
  const clientOf = (
    key: string,
    connection: S3Connection,
    credentials: Credentials | undefined,
  ): { client: S3Client; signer: S3Client } => {
    // A hash, so the map holds no second copy of the secret.
    const fingerprint = createHash('sha256')
      .update(
        JSON.stringify([
          connection.region,
          connection.endpoint,
          connection.forcePathStyle,
          credentials?.accessKeyId,
          credentials?.secretAccessKey,
          credentials?.sessionToken,
        ]),
      )
      .digest('hex');
    const known = clients.get(key);
    if (known?.fingerprint === fingerprint) return known;
    // Renewed credentials: runs still using the old client (a job may last 30 minutes) finish first.
    if (known)
      setTimeout(() => {
        known.client.destroy();
        known.signer.destroy();
      }, retiredClientMs).unref();
    checkEndpointAddress(connection.endpoint, denyPrivateNetworks);
    const config: S3ClientConfig = {
      requestHandler: guardedAgents(denyPrivateNetworks),
      region: connection.region,
      ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
      forcePathStyle: connection.forcePathStyle ?? false,
      ...(credentials
        ? {
            credentials: {
              accessKeyId: credentials.accessKeyId,
              secretAccessKey: credentials.secretAccessKey,
              ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
            },
          }
        : {}),
      maxAttempts: 2,
    };
    const made = {
      fingerprint,
      client: new S3Client(config),
      signer: new S3Client({ ...config, requestChecksumCalculation: 'WHEN_REQUIRED' }),
    };
    clients.set(key, made);
    return made;
  };

  return {
    async run(run: EngineRun): Promise<StatementResult[]> {
      const action = run.action as unknown as StorageActionInput;
      const connection = run.connection as S3Connection;
      const resolve = (reference: string) => {
        if (!(reference in run.values))
          throw new DoguError('internal_error', `No value was prepared for {{ ${reference} }}.`);
        return run.values[reference];
      };
      let place = { bucket: '', objectKey: '', permission: s3PermissionOf(action.operation, action.method) };
      try {
        const bucket = bucketName(action.bucket, resolve, s3BucketRule);
        const key = objectKey(action.objectKey ?? '', resolve, { allowEmpty: action.operation === 'list' });
        place = { ...place, bucket, objectKey: key };
        const credentials = await credentialsOf(connection, {
          projectId: run.dataSource.projectId,
          environmentId: run.environmentId,
          ...(run.identityToken ? { identityToken: run.identityToken } : {}),
          signal: run.signal,
        });
        const { client, signer } = clientOf(run.key, connection, credentials);
        const options = { abortSignal: run.signal };
        switch (action.operation) {
          case 'upload':
            return [await upload(client, action, run.values, bucket, key, options)];
          case 'download':
            return [await download(client, signer, action.name, bucket, key, credentials, options)];
          case 'list':
            return [await list(client, action.name, bucket, key, options)];
          case 'signed-url':
            return [await signedUrl(signer, action, bucket, key, credentials)];
        }
      } catch (error) {
        return [failedResult(action.name, s3Failure(error, place))];
      }
    },

    async testConnection(check: ConnectionCheck) {
      const connection = check.connection as S3Connection;
      const scope = {
        projectId: check.projectId ?? '',
        environmentId: check.environmentId ?? '',
        ...(check.identityToken ? { identityToken: check.identityToken } : {}),
        signal: check.signal,
      };
      // OIDC: "check the trust" is a real exchange, never cached, so a fixed trust policy shows at once.
      const credentials: Credentials | undefined =
        connection.authentication === 'oidc' && connection.roleArn && connection.audience
          ? await webIdentity.exchange({
              region: connection.region,
              roleArn: connection.roleArn,
              audience: connection.audience,
              ...(connection.stsEndpoint ? { stsEndpoint: connection.stsEndpoint } : {}),
              ...scope,
            })
          : await credentialsOf(connection, scope);
      const { client } = clientOf(check.key, connection, credentials);
      try {
        await client.send(new ListBucketsCommand({}), { abortSignal: check.signal });
      } catch (error) {
        // Refused listing means S3 accepted who we are: scoped credentials rarely may list buckets.
        const failure = s3Failure(error, { bucket: '', objectKey: '', permission: 's3:ListAllMyBuckets' });
        if (failure.code === 'forbidden') return;
        const step = connection.authentication === 'oidc' ? 'Step 3 (S3 with the role): ' : '';
        throw new DoguError(failure.code, `${step}${failure.message}`);
      }
    },

    async close() {
      for (const { client, signer } of clients.values()) {
        client.destroy();
        signer.destroy();
      }
      clients.clear();
      webIdentity.close();
    },
  };
}

type SendOptions = { abortSignal: AbortSignal };

async function upload(
  client: S3Client,
  action: StorageActionInput,
  values: Record<string, unknown>,
  bucket: string,
  key: string,
  options: SendOptions,
) {
  const file = values[action.fileParameter ?? ''] as FileValue | null | undefined;
  if (!file || typeof file !== 'object' || typeof file.contentBase64 !== 'string')
    throw new DoguError(
      'argument_invalid',
      `The upload needs a file in parameter '${action.fileParameter}'.`,
      {
        errors: [{ pointer: `#/${action.fileParameter}`, detail: 'is required' }],
      },
    );
  const body = fileContent(file);
  // One PutObject: S3 keeps the old object until the whole new one arrived (nothing half-written).
  const answer = await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: body,
      ContentType: file.contentType,
      ContentLength: body.length,
    }),
    options,
  );
  return objectRowResult(action.name, {
    bucket,
    objectKey: key,
    size: body.length,
    contentType: file.contentType,
    etag: (answer.ETag ?? '').replaceAll('"', ''),
  });
}

async function download(
  client: S3Client,
  signer: S3Client,
  title: string,
  bucket: string,
  key: string,
  credentials: Credentials | undefined,
  options: SendOptions,
) {
  const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), options);
  const described = {
    objectKey: key,
    contentType: answer.ContentType ?? 'application/octet-stream',
    size: answer.ContentLength ?? 0,
    ...(answer.LastModified ? { lastModified: Math.floor(answer.LastModified.getTime() / 1000) } : {}),
  };
  if (described.size > maxInlineDownloadBytes) {
    // The body is not read: the caller gets a short-lived link instead.
    (answer.Body as { destroy?: () => void } | undefined)?.destroy?.();
    const seconds = lifetimeWithin(downloadLinkSeconds, credentials);
    const signedUrl = await getSignedUrl(signer, new GetObjectCommand({ Bucket: bucket, Key: key }), {
      expiresIn: seconds,
    });
    return downloadLinkResult(title, described, { signedUrl, expiresAt: nowSeconds() + seconds });
  }
  const bytes = (await answer.Body?.transformToByteArray()) ?? new Uint8Array();
  return downloadResult(title, { ...described, size: bytes.length, bytes });
}

async function list(client: S3Client, title: string, bucket: string, prefix: string, options: SendOptions) {
  const objects: ListedObject[] = [];
  let budget = maxKeptResultBytes;
  let token: string | undefined;
  let more = false;
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        ...(prefix ? { Prefix: prefix } : {}),
        ...(token ? { ContinuationToken: token } : {}),
        MaxKeys: 1000,
      }),
      options,
    );
    for (const item of page.Contents ?? []) {
      const listed = {
        objectKey: item.Key ?? '',
        lastModified: item.LastModified ? Math.floor(item.LastModified.getTime() / 1000) : 0,
        size: item.Size ?? 0,
      };
      budget -= JSON.stringify(listed).length + 1;
      if (budget < 0) {
        more = true;
        break;
      }
      objects.push(listed);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token && !more);
  return listResult(title, objects, more);
}

async function signedUrl(
  signer: S3Client,
  action: StorageActionInput,
  bucket: string,
  key: string,
  credentials: Credentials | undefined,
) {
  const requested = action.expiresInSeconds ?? 3600;
  const seconds = lifetimeWithin(requested, credentials);
  const command =
    action.method === 'PUT'
      ? new PutObjectCommand({ Bucket: bucket, Key: key })
      : new GetObjectCommand({ Bucket: bucket, Key: key });
  const url = await getSignedUrl(signer, command, { expiresIn: seconds });
  const result = signedUrlResult(action.name, {
    signedUrl: url,
    method: action.method,
    expiresAt: nowSeconds() + seconds,
  });
  if (seconds < requested)
    result.messages.push(
      `The URL works for ${seconds} seconds, not ${requested}: it cannot outlive the role's temporary credentials.`,
    );
  return result;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The function's role: its temporary credentials are not ours to see; an hour, as with OIDC. */
const functionRoleSeconds = 3600;

/** Spec 8: with temporary credentials a signed URL lives at most as long as they do. */
function lifetimeWithin(
  seconds: number,
  credentials: Credentials | TemporaryCredentials | undefined,
): number {
  if (!credentials) return Math.min(seconds, functionRoleSeconds);
  if (!credentials.expiration) return seconds;
  const left = Math.floor((credentials.expiration.getTime() - Date.now()) / 1000);
  return Math.max(1, Math.min(seconds, left));
}

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => s3Runtime();
