/**
 * The GCS kind's runtime on `@google-cloud/storage` (decision 0125): upload (one multipart request,
 * or a resumable upload in chunks above 5 MiB), download (metadata, then the bytes or a short-lived
 * signed link), list (paged), V4 signed URLs signed with the key, or under workload identity by the
 * impersonated service account itself through IAM Credentials signBlob.
 */
import { randomUUID } from 'node:crypto';
import { type File, Storage } from '@google-cloud/storage';
import { type AuthClient, GoogleAuth, JWT } from 'google-auth-library';
import type { FileValue } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { ConnectionCheck, EngineRun } from '../../domain/ports.ts';
import { maxKeptResultBytes } from '../../domain/result-limits.ts';
import type { ConnectorRuntime } from '../connector.ts';
import { googleAuthEndpoints } from '../google-auth/federation.ts';
import { findDoguError, GoogleCredentials, googleAuthFailure } from '../google-auth/google-credentials.ts';
import { untilAborted } from '../google-auth/until-aborted.ts';
import type { StorageActionInput, StorageOperation } from '../object-storage/action.ts';
import { bucketName, gcsBucketRule, objectKey } from '../object-storage/object-names.ts';
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
import type { GcsConnection } from './definition.ts';

export const storageScope = 'https://www.googleapis.com/auth/devstorage.read_write';
/** The impersonated service account signs its own URLs (signBlob), which needs the IAM scope. */
const iamScope = 'https://www.googleapis.com/auth/iam';
/** Above this an upload is resumable, sent in chunks (a multiple of 256 KiB, as Google asks). */
export const resumableAboveBytes = 5 * 1024 * 1024;
const chunkBytes = 8 * 1024 * 1024;

/** Spec 2.3: the permission each operation needs. */
export const gcsPermissionOf = (operation: StorageOperation, method: 'GET' | 'PUT'): string =>
  operation === 'upload' || (operation === 'signed-url' && method === 'PUT')
    ? 'storage.objects.create (and storage.objects.delete to overwrite)'
    : operation === 'list'
      ? 'storage.objects.list'
      : 'storage.objects.get';

interface Place {
  bucket: string;
  objectKey: string;
  permission: string;
  /** Whom Google saw: the key's or the impersonated service account. */
  principal: string;
}

export function gcsRuntime(): ConnectorRuntime {
  const credentials = new GoogleCredentials([storageScope], { federatedScopes: [storageScope, iamScope] });

  return {
    async run(run: EngineRun): Promise<StatementResult[]> {
      const action = run.action as unknown as StorageActionInput;
      const connection = run.connection as GcsConnection;
      const resolve = (reference: string) => {
        if (!(reference in run.values))
          throw new DoguError('internal_error', `No value was prepared for {{ ${reference} }}.`);
        return run.values[reference];
      };
      try {
        const bucket = bucketName(action.bucket, resolve, gcsBucketRule);
        const key = objectKey(action.objectKey ?? '', resolve, { allowEmpty: action.operation === 'list' });
        const authClient = credentials.client({
          connection,
          cacheKey: run.key,
          ...(run.identityToken ? { identityToken: run.identityToken } : {}),
        });
        const place: Place = {
          bucket,
          objectKey: key,
          permission: gcsPermissionOf(action.operation, action.method),
          principal: principalOf(connection, authClient),
        };
        const calls = new StorageCalls(connection, authClient, place, run.signal);
        switch (action.operation) {
          case 'upload':
            return [await upload(calls, action, run.values)];
          case 'download':
            return [await download(calls, action.name)];
          case 'list':
            return [await list(calls, action.name)];
          case 'signed-url':
            return [await signedUrl(calls, action)];
        }
      } catch (error) {
        if (!(error instanceof DoguError)) throw error;
        return [failedResult(action.name, error)];
      }
    },

    async testConnection(check: ConnectionCheck) {
      // A fresh token proves the key, or every step of the federation; then Cloud Storage itself
      // must answer with that token. A connection names no bucket, so a made-up one is asked for:
      // "not found" or "forbidden" both prove the endpoint and the token; anything else
      // (unreachable, token refused) fails the check.
      const connection = check.connection as GcsConnection;
      const authClient = credentials.fresh({
        connection,
        cacheKey: check.key,
        ...(check.identityToken ? { identityToken: check.identityToken } : {}),
      });
      await untilAborted(credentials.accessToken(authClient), check.signal);
      const probeBucket = `dogu-connection-check-${randomUUID().replaceAll('-', '')}`;
      const calls = new StorageCalls(
        connection,
        authClient,
        {
          bucket: probeBucket,
          objectKey: '',
          permission: 'storage.buckets.get',
          principal: principalOf(connection, authClient),
        },
        check.signal,
      );
      try {
        await calls.call(calls.storage.bucket(probeBucket).getMetadata());
      } catch (error) {
        if (error instanceof DoguError && (error.code === 'not_found' || error.code === 'forbidden')) return;
        throw error;
      }
    },
  };
}

const principalOf = (connection: GcsConnection, client: AuthClient) =>
  connection.authentication === 'workload-identity'
    ? (connection.serviceAccount ?? 'the service account')
    : ((client as { email?: string }).email ?? 'the service account');

/** The library's calls for one action, with Google's refusals in words a user can act on. */
class StorageCalls {
  readonly storage: Storage;

  constructor(
    readonly connection: GcsConnection,
    readonly authClient: AuthClient,
    readonly place: Place,
    private readonly signal: AbortSignal,
  ) {
    this.storage = new Storage({
      authClient: signingAuth(authClient),
      ...(connection.storageEndpoint ? { apiEndpoint: connection.storageEndpoint.replace(/\/+$/, '') } : {}),
      // A private endpoint is still Google: it gets the token (the library assumes an emulator).
      useAuthWithCustomEndpoint: true,
      retryOptions: { autoRetry: true, maxRetries: 1 },
    });
  }

  /** The action's object (a listing names none). */
  get file(): File {
    return this.storage.bucket(this.place.bucket).file(this.place.objectKey);
  }

  async call<T>(promise: Promise<T>): Promise<T> {
    try {
      return await untilAborted(promise, this.signal);
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown): DoguError {
    if (this.signal.aborted)
      return new DoguError('execution_timeout', 'Cloud Storage did not answer before the run ended.');
    const dogu = findDoguError(error);
    if (dogu) return dogu;
    const e = (error ?? {}) as { code?: unknown; message?: string; config?: unknown; response?: unknown };
    const status = typeof e.code === 'number' ? e.code : Number((e.response as { status?: number })?.status);
    // The auth client's own requests (token steps) fail as gaxios errors naming their URL.
    if (e.config !== undefined && isTokenStep(e.config)) return googleAuthFailure(error);
    const said = (e.message ?? String(error)).replace(/\s+/g, ' ').slice(0, 300);
    const { bucket, objectKey, permission, principal } = this.place;
    const object = `'${objectKey}' in bucket '${bucket}'`;
    if (status === 404)
      return /bucket/i.test(said) || objectKey === ''
        ? new DoguError('not_found', `Bucket '${bucket}' does not exist.`)
        : new DoguError('not_found', `Object ${object} does not exist.`);
    if (status === 403)
      return new DoguError(
        'forbidden',
        `Cloud Storage refused access to ${objectKey ? object : `bucket '${bucket}'`}: ${principal} needs ${permission}.`,
      );
    if (status === 401)
      return new DoguError(
        'data_source_error',
        'Cloud Storage did not accept the access token; run the action again.',
      );
    if (Number.isFinite(status) && status > 0)
      return new DoguError('data_source_error', `Cloud Storage answered HTTP ${status}: ${said}`);
    return new DoguError('data_source_error', `Cloud Storage could not be reached: ${said}`);
  }
}

/**
 * The library signs URLs through GoogleAuth: with a key client it signs locally with the key, once
 * it knows the key's e-mail (read from the credentials GoogleAuth holds); an external-account
 * client names its impersonated service account itself and signs through signBlob.
 */
function signingAuth(client: AuthClient): GoogleAuth {
  const auth = new GoogleAuth({ authClient: client });
  if (client instanceof JWT && client.email && client.key)
    auth.jsonContent = { client_email: client.email, private_key: client.key };
  return auth;
}

const isTokenStep = (config: unknown) => {
  const url = String((config as { url?: unknown }).url ?? '');
  return url.endsWith('/token') || url.endsWith(':generateAccessToken');
};

async function upload(calls: StorageCalls, action: StorageActionInput, values: Record<string, unknown>) {
  const file = values[action.fileParameter ?? ''] as FileValue | null | undefined;
  if (!file || typeof file !== 'object' || typeof file.contentBase64 !== 'string')
    throw new DoguError(
      'argument_invalid',
      `The upload needs a file in parameter '${action.fileParameter}'.`,
      {
        errors: [{ pointer: `#/${action.fileParameter}`, detail: 'is required' }],
      },
    );
  const body = Buffer.from(fileContent(file));
  const resumable = body.length > resumableAboveBytes;
  // Either way the object appears whole or not at all; the library checks its CRC32C.
  const target = calls.file;
  const metadata = { contentType: file.contentType };
  // The session is opened first, on its own: the library then authorizes it for a custom endpoint
  // too (its upload stream would open it without the token there). The chunks need no token.
  const [uri] = resumable ? await calls.call(target.createResumableUpload({ metadata })) : [undefined];
  await calls.call(
    target.save(body, {
      resumable,
      ...(uri ? { uri, chunkSize: chunkBytes } : {}),
      contentType: file.contentType,
      metadata,
    }),
  );
  const written = target.metadata;
  const { bucket, objectKey } = calls.place;
  return objectRowResult(action.name, {
    bucket,
    objectKey,
    size: Number(written.size ?? body.length),
    contentType: String(written.contentType ?? file.contentType),
    generation: String(written.generation ?? ''),
  });
}

async function download(calls: StorageCalls, title: string) {
  const [metadata] = await calls.call(calls.file.getMetadata());
  const updated = Date.parse(String(metadata.updated ?? ''));
  const described = {
    objectKey: calls.place.objectKey,
    contentType: String(metadata.contentType ?? 'application/octet-stream'),
    size: Number(metadata.size ?? 0),
    ...(Number.isFinite(updated) ? { lastModified: Math.floor(updated / 1000) } : {}),
  };
  if (described.size > maxInlineDownloadBytes) {
    const { url, seconds } = await sign(calls, 'GET', downloadLinkSeconds);
    return downloadLinkResult(title, described, { signedUrl: url, expiresAt: nowSeconds() + seconds });
  }
  const [bytes] = await calls.call(calls.file.download());
  return downloadResult(title, { ...described, size: bytes.length, bytes: new Uint8Array(bytes) });
}

async function list(calls: StorageCalls, title: string) {
  const objects: ListedObject[] = [];
  let budget = maxKeptResultBytes;
  let pageToken: string | undefined;
  let more = false;
  do {
    const [files, , response] = await calls.call(
      calls.storage.bucket(calls.place.bucket).getFiles({
        autoPaginate: false,
        maxResults: 1000,
        fields: 'items(name,size,updated),nextPageToken',
        ...(calls.place.objectKey ? { prefix: calls.place.objectKey } : {}),
        ...(pageToken ? { pageToken } : {}),
      }),
    );
    // With `fields` the library answers the listed resources as they came (not File objects).
    for (const item of files as unknown as { name?: string; size?: string; updated?: string }[]) {
      const updated = Date.parse(item.updated ?? '');
      const listed = {
        objectKey: item.name ?? '',
        lastModified: Number.isFinite(updated) ? Math.floor(updated / 1000) : 0,
        size: Number(item.size ?? 0),
      };
      budget -= JSON.stringify(listed).length + 1;
      if (budget < 0) {
        more = true;
        break;
      }
      objects.push(listed);
    }
    const next = (response as { nextPageToken?: unknown } | undefined)?.nextPageToken;
    pageToken = typeof next === 'string' ? next : undefined;
  } while (pageToken && !more);
  return listResult(title, objects, more);
}

async function signedUrl(calls: StorageCalls, action: StorageActionInput) {
  const requested = action.expiresInSeconds ?? 3600;
  const { url, seconds } = await sign(calls, action.method, requested);
  const result = signedUrlResult(action.name, {
    signedUrl: url,
    method: action.method,
    expiresAt: nowSeconds() + seconds,
  });
  if (seconds < requested)
    result.messages.push(
      `The URL works for ${seconds} seconds, not ${requested}: with workload identity it cannot outlive the impersonated credentials.`,
    );
  return result;
}

/** A V4 signed URL; under workload identity no longer than the impersonated credentials live. */
async function sign(calls: StorageCalls, method: 'GET' | 'PUT', requested: number) {
  let seconds = requested;
  const federated = calls.connection.authentication === 'workload-identity';
  if (federated) {
    await calls.call(calls.authClient.getAccessToken());
    const expiry = Number((calls.authClient.credentials as { expiry_date?: number }).expiry_date);
    if (Number.isFinite(expiry))
      seconds = Math.max(1, Math.min(requested, Math.floor((expiry - Date.now()) / 1000)));
  }
  const iam = calls.connection.iamCredentialsEndpoint ?? googleAuthEndpoints.iamCredentials;
  try {
    const [url] = await untilAborted(
      calls.file.getSignedUrl({
        version: 'v4',
        action: method === 'PUT' ? 'write' : 'read',
        expires: Date.now() + seconds * 1000,
        // Under workload identity the service account signs with its own token (signBlob on itself).
        ...(federated ? { signingEndpoint: `${iam}/v1/projects/-/serviceAccounts/` } : {}),
      }),
      AbortSignal.timeout(30_000),
    );
    return { url, seconds };
  } catch (error) {
    throw signingFailure(error, federated);
  }
}

function signingFailure(error: unknown, federated: boolean): DoguError {
  const dogu = findDoguError(error);
  if (dogu) return dogu;
  const step = federated
    ? 'IAM Credentials signBlob (the service account signs for itself: it needs iam.serviceAccounts.signBlob on itself, e.g. roles/iam.serviceAccountTokenCreator)'
    : 'Signing the URL with the service account key';
  const e = (error ?? {}) as { message?: string; cause?: unknown };
  const cause = (e.cause ?? error) as { response?: { status?: number; data?: unknown }; message?: string };
  if (cause.response) {
    const failure = googleAuthFailure(cause);
    return new DoguError('data_source_error', failure.message.replace(/^[^:]+: /, `${step}: `));
  }
  return new DoguError('data_source_error', `${step}: ${cause.message ?? e.message ?? String(error)}`);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => gcsRuntime();
