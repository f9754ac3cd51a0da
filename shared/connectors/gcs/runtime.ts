/**
 * The GCS kind's runtime over the Cloud Storage JSON API (decision 0036): upload (media upload),
 * download (metadata, then the bytes or a short-lived signed link), list (paged), V4 signed URLs.
 */
import { NodeHttpClient } from '../../adapters/http/node-http-client.ts';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import type { FileValue } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { ConnectionCheck, EngineRun, HttpCall, HttpClient } from '../../domain/ports.ts';
import { maxKeptResultBytes } from '../../domain/result-limits.ts';
import type { ConnectorRuntime } from '../connector.ts';
import { type GoogleAccess, GoogleCredentials, googleErrorText } from '../google-auth/google-credentials.ts';
import { parseServiceAccountKey } from '../google-auth/service-account-key.ts';
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
import { type GcsConnection, googleEndpoints } from './definition.ts';
import { encodeRfc3986, signedGcsUrl } from './signed-url.ts';

/** Spec 2.3: the permission each operation needs. */
export const gcsPermissionOf = (operation: StorageOperation, method: 'GET' | 'PUT'): string =>
  operation === 'upload' || (operation === 'signed-url' && method === 'PUT')
    ? 'storage.objects.create (and storage.objects.delete to overwrite)'
    : operation === 'list'
      ? 'storage.objects.list'
      : 'storage.objects.get';

export function gcsRuntime(
  http: HttpClient = new NodeHttpClient(httpClientOptionsFromEnv(process.env)),
): ConnectorRuntime {
  const credentials = new GoogleCredentials(http);

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
        const access = await credentials.access({
          connection,
          cacheKey: run.key,
          ...(run.identityToken ? { identityToken: run.identityToken } : {}),
          signal: run.signal,
        });
        const storage = new StorageApi(
          http,
          connection.storageEndpoint ?? googleEndpoints.storage,
          access,
          run.signal,
          {
            bucket,
            objectKey: key,
            permission: gcsPermissionOf(action.operation, action.method),
          },
        );
        switch (action.operation) {
          case 'upload':
            return [await upload(storage, action, run.values)];
          case 'download':
            return [await download(storage, action.name)];
          case 'list':
            return [await list(storage, action.name)];
          case 'signed-url':
            return [await signedUrl(storage, action)];
        }
      } catch (error) {
        if (!(error instanceof DoguError)) throw error;
        return [failedResult(action.name, error)];
      }
    },

    async testConnection(check: ConnectionCheck) {
      const connection = check.connection as GcsConnection;
      // The key is accepted, or every step of the federation works...
      const access = await credentials.fresh({
        connection,
        cacheKey: check.key,
        ...(check.identityToken ? { identityToken: check.identityToken } : {}),
        signal: check.signal,
      });
      // ...and Cloud Storage answers the token: one bucket of the account's project listed.
      await checkStorage(http, connection, access, check.signal);
    },
  };
}

/**
 * Lists at most one bucket of the service account's project. A refusal (403) still shows that the
 * storage endpoint answers and takes the token: scoped accounts rarely may list buckets.
 */
async function checkStorage(
  http: HttpClient,
  connection: GcsConnection,
  access: GoogleAccess,
  signal: AbortSignal,
): Promise<void> {
  const step =
    connection.authentication === 'workload-identity'
      ? 'Step 4 (Cloud Storage with the service account)'
      : 'Cloud Storage with the key';
  const endpoint = connection.storageEndpoint ?? googleEndpoints.storage;
  const project = projectOf(connection, access.email);
  let answer: Awaited<ReturnType<HttpClient['send']>>;
  try {
    answer = await http.send(
      {
        method: 'GET',
        url: `${endpoint}/storage/v1/b?project=${encodeRfc3986(project)}&maxResults=1&fields=kind`,
        headers: [['authorization', `Bearer ${access.token}`]],
      },
      { signal, timeoutMs: 15_000, maxBodyBytes: 64 * 1024 },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new DoguError('data_source_error', `${step}: ${endpoint} could not be reached (${message}).`);
  }
  if ((answer.status >= 200 && answer.status <= 299) || answer.status === 403) return;
  const text = new TextDecoder().decode(answer.body);
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  const said = googleErrorText(json, text);
  throw new DoguError(
    'data_source_error',
    answer.status === 401
      ? `${step}: Cloud Storage did not accept the token of ${access.email} (HTTP 401: ${said}).`
      : `${step}: Cloud Storage answered HTTP ${answer.status}: ${said}`,
  );
}

/** The service account's project: the key names it; an account's address does (name@project.iam…). */
function projectOf(connection: GcsConnection, email: string): string {
  const key = connection.serviceAccountKey ? parseServiceAccountKey(connection.serviceAccountKey) : undefined;
  return key?.project_id ?? /@([^.]+)\./.exec(email)?.[1] ?? email;
}

interface Place {
  bucket: string;
  objectKey: string;
  permission: string;
}

/** The few JSON API calls the actions make, with Google's errors in words a user can act on. */
class StorageApi {
  constructor(
    private readonly http: HttpClient,
    readonly endpoint: string,
    readonly access: GoogleAccess,
    readonly signal: AbortSignal,
    readonly place: Place,
  ) {}

  private get bucketPath() {
    return `${this.endpoint}/storage/v1/b/${encodeRfc3986(this.place.bucket)}`;
  }

  get objectPath() {
    return `${this.bucketPath}/o/${encodeRfc3986(this.place.objectKey)}`;
  }

  async json(
    call: Omit<HttpCall, 'headers'> & { headers?: [string, string][] },
  ): Promise<Record<string, unknown>> {
    const answer = await this.send(call, 1024 * 1024);
    try {
      return JSON.parse(new TextDecoder().decode(answer.body)) as Record<string, unknown>;
    } catch {
      throw new DoguError('data_source_error', `Cloud Storage answered HTTP ${answer.status} without JSON.`);
    }
  }

  async send(call: Omit<HttpCall, 'headers'> & { headers?: [string, string][] }, maxBodyBytes: number) {
    const answer = await this.http.send(
      { ...call, headers: [['authorization', `Bearer ${this.access.token}`], ...(call.headers ?? [])] },
      { signal: this.signal, timeoutMs: 55_000, maxBodyBytes },
    );
    if (answer.status >= 200 && answer.status <= 299) return answer;
    const text = new TextDecoder().decode(answer.body);
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {}
    throw this.failure(answer.status, googleErrorText(json, text));
  }

  private failure(status: number, said: string): DoguError {
    const { bucket, objectKey, permission } = this.place;
    const object = `'${objectKey}' in bucket '${bucket}'`;
    if (status === 404)
      return /bucket/i.test(said) || objectKey === ''
        ? new DoguError('not_found', `Bucket '${bucket}' does not exist.`)
        : new DoguError('not_found', `Object ${object} does not exist.`);
    if (status === 403)
      return new DoguError(
        'forbidden',
        `Cloud Storage refused access to ${objectKey ? object : `bucket '${bucket}'`}: ${this.access.email} needs ${permission}.`,
      );
    if (status === 401)
      return new DoguError(
        'data_source_error',
        'Cloud Storage did not accept the access token; run the action again.',
      );
    return new DoguError('data_source_error', `Cloud Storage answered HTTP ${status}: ${said}`);
  }
}

async function upload(storage: StorageApi, action: StorageActionInput, values: Record<string, unknown>) {
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
  const { bucket, objectKey } = storage.place;
  // A single media upload: the object appears whole or not at all.
  const written = await storage.json({
    method: 'POST',
    url: `${storage.endpoint}/upload/storage/v1/b/${encodeRfc3986(bucket)}/o?uploadType=media&name=${encodeRfc3986(objectKey)}`,
    headers: [['content-type', file.contentType]],
    body,
  });
  return objectRowResult(action.name, {
    bucket,
    objectKey,
    size: Number(written.size ?? body.length),
    contentType: String(written.contentType ?? file.contentType),
    generation: String(written.generation ?? ''),
  });
}

async function download(storage: StorageApi, title: string) {
  const metadata = await storage.json({ method: 'GET', url: storage.objectPath });
  const updated = Date.parse(String(metadata.updated ?? ''));
  const described = {
    objectKey: storage.place.objectKey,
    contentType: String(metadata.contentType ?? 'application/octet-stream'),
    size: Number(metadata.size ?? 0),
    ...(Number.isFinite(updated) ? { lastModified: Math.floor(updated / 1000) } : {}),
  };
  if (described.size > maxInlineDownloadBytes) {
    const seconds = lifetimeWithin(downloadLinkSeconds, storage.access);
    const signed = await sign(storage, 'GET', seconds);
    return downloadLinkResult(title, described, { signedUrl: signed, expiresAt: nowSeconds() + seconds });
  }
  const media = await storage.send(
    { method: 'GET', url: `${storage.objectPath}?alt=media` },
    maxInlineDownloadBytes + 1,
  );
  return downloadResult(title, { ...described, size: media.body.length, bytes: media.body });
}

async function list(storage: StorageApi, title: string) {
  const objects: ListedObject[] = [];
  let budget = maxKeptResultBytes;
  let pageToken: string | undefined;
  let more = false;
  do {
    const query = new URLSearchParams({
      maxResults: '1000',
      fields: 'items(name,size,updated),nextPageToken',
      ...(storage.place.objectKey ? { prefix: storage.place.objectKey } : {}),
      ...(pageToken ? { pageToken } : {}),
    });
    const page = await storage.json({
      method: 'GET',
      url: `${storage.endpoint}/storage/v1/b/${encodeRfc3986(storage.place.bucket)}/o?${query}`,
    });
    for (const item of (page.items ?? []) as { name?: string; size?: string; updated?: string }[]) {
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
    pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined;
  } while (pageToken && !more);
  return listResult(title, objects, more);
}

async function signedUrl(storage: StorageApi, action: StorageActionInput) {
  const requested = action.expiresInSeconds ?? 3600;
  const seconds = lifetimeWithin(requested, storage.access);
  const url = await sign(storage, action.method, seconds);
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

function sign(storage: StorageApi, method: 'GET' | 'PUT', seconds: number) {
  return signedGcsUrl({
    endpoint: storage.endpoint,
    bucket: storage.place.bucket,
    objectKey: storage.place.objectKey,
    method,
    seconds,
    email: storage.access.email,
    now: new Date(),
    sign: (text) => storage.access.sign(text, storage.signal),
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function lifetimeWithin(seconds: number, access: GoogleAccess): number {
  if (!access.limitsSignedUrls) return seconds;
  const left = Math.floor((access.expiresAt.getTime() - Date.now()) / 1000);
  return Math.max(1, Math.min(seconds, left));
}

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => gcsRuntime();
