/**
 * Google's endpoints for the GCS tests, on 127.0.0.1: OAuth token (JWT bearer grant), STS token
 * exchange, IAM Credentials (generateAccessToken, signBlob) and the Cloud Storage JSON API
 * (multipart and resumable uploads, media downloads with their hashes, paged listing) with V4
 * signed URLs. Each checks the exact request it gets: signatures against the service account's
 * public key, Dogu's ID token against Dogu's JWKS, bearer tokens against the ones it handed out.
 */
import { createHash, createVerify, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { CRC32C } from '@google-cloud/storage';
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose';
import { type ReceivedRequest, startHttpServer, type TestServer } from '../../support/http-server.ts';

export const serviceAccountEmail = 'dogu-files@shop-prod.iam.gserviceaccount.com';
export const providerName =
  'projects/123456789/locations/global/workloadIdentityPools/dogu-pool/providers/dogu-oidc';

export interface StoredObject {
  bytes: Buffer;
  contentType: string;
  updated: string;
}

export interface FakeGoogle {
  url: string;
  server: TestServer;
  objects: Map<string, StoredObject>;
  buckets: Set<string>;
  /** Requests that broke a rule, with why; the tests expect none. */
  violations: string[];
  /** The service account's public key (its key file's and, here, its Google-managed key's). */
  publicKey: KeyObject;
  /** Verified claims of Dogu's tokens that reached STS. */
  federatedClaims: Record<string, unknown>[];
  serviceAccountKeyJson(): string;
  /** Resumable uploads: the base URL the session URIs name (default: this fake). */
  sessionBase?: string;
  /** Resumable uploads: the Content-Range of every chunk received, in order. */
  resumableChunks: string[];
  /** Refuse the next calls of one step with this status. */
  refuse: Partial<Record<'sts' | 'impersonation' | 'signBlob' | 'storage', number>>;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

export async function startFakeGoogle(
  options: { issuer?: () => string; jwks?: () => Promise<JWK[]> } = {},
): Promise<FakeGoogle> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const objects = new Map<string, StoredObject>();
  const buckets = new Set<string>();
  const violations: string[] = [];
  const federatedClaims: Record<string, unknown>[] = [];
  const refuse: FakeGoogle['refuse'] = {};
  const accessTokens = new Set<string>();
  const federatedTokens = new Set<string>();
  /** Tokens of the impersonated service account that may call IAM Credentials (iam scope). */
  const iamTokens = new Set<string>();
  const resumableChunks: string[] = [];
  const sessions = new Map<
    string,
    { bucket: string; name: string; contentType: string; parts: Buffer[]; received: number }
  >();
  let issued = 0;
  let url = '';

  const bearer = (request: ReceivedRequest, tokens: Set<string>) =>
    tokens.has(String(request.headers.authorization ?? '').replace(/^Bearer /, ''));

  const handle = async (request: ReceivedRequest, response: ServerResponse) => {
    const target = new URL(request.url, url);
    const path = target.pathname;
    if (request.method === 'POST' && path === '/token') {
      const form = Object.fromEntries(new URLSearchParams(request.body.toString()));
      if (form.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        violations.push(`token grant ${form.grant_type}`);
      const claims = verifyServiceAccountJwt(form.assertion ?? '', publicKey);
      if (
        !claims ||
        claims.iss !== serviceAccountEmail ||
        // google-auth-library signs for Google's token endpoint; the key's token_uri routes it here.
        claims.aud !== 'https://oauth2.googleapis.com/token' ||
        claims.scope !== 'https://www.googleapis.com/auth/devstorage.read_write'
      ) {
        violations.push(`token assertion ${JSON.stringify(claims)}`);
        return json(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      const token = `key-token-${++issued}`;
      accessTokens.add(token);
      return json(response, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    if (request.method === 'POST' && path === '/v1/token') {
      // RFC 8693: a form, as Google STS takes it.
      const body = Object.fromEntries(new URLSearchParams(request.body.toString()));
      const { subject_token: subjectToken, ...rest } = body;
      const expected = {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        audience: `//iam.googleapis.com/${providerName}`,
        scope: 'https://www.googleapis.com/auth/cloud-platform',
        requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      };
      if (JSON.stringify(rest) !== JSON.stringify(expected))
        violations.push(`sts body ${JSON.stringify(rest)}`);
      if (refuse.sts)
        return json(response, refuse.sts, {
          error: 'invalid_grant',
          error_description: 'The audience in ID Token does not match the expected audience.',
        });
      try {
        const { payload } = await jwtVerify(
          subjectToken ?? '',
          createLocalJWKSet({ keys: await options.jwks!() }),
          {
            issuer: options.issuer!(),
            audience: `https://iam.googleapis.com/${providerName}`,
          },
        );
        federatedClaims.push(payload);
      } catch (error) {
        return json(response, 400, { error: 'invalid_grant', error_description: (error as Error).message });
      }
      const token = `federated-${++issued}`;
      federatedTokens.add(token);
      return json(response, 200, {
        access_token: token,
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        token_type: 'Bearer',
        expires_in: 3600,
      });
    }
    const iam = `/v1/projects/-/serviceAccounts/${serviceAccountEmail}`;
    if (request.method === 'POST' && decodeURIComponent(path) === `${iam}:generateAccessToken`) {
      if (!bearer(request, federatedTokens))
        violations.push('generateAccessToken without the federated token');
      const body = request.body.toString();
      if (
        body !==
        JSON.stringify({
          scope: [
            'https://www.googleapis.com/auth/devstorage.read_write',
            'https://www.googleapis.com/auth/iam',
          ],
          lifetime: '3600s',
        })
      )
        violations.push(`generateAccessToken body ${body}`);
      if (refuse.impersonation)
        return json(response, refuse.impersonation, {
          error: {
            code: 403,
            status: 'PERMISSION_DENIED',
            message:
              "Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).",
          },
        });
      const token = `impersonated-${++issued}`;
      accessTokens.add(token);
      iamTokens.add(token);
      return json(response, 200, {
        accessToken: token,
        expireTime: new Date(Date.now() + 3600_000).toISOString(),
      });
    }
    if (request.method === 'POST' && decodeURIComponent(path) === `${iam}:signBlob`) {
      // The service account signs for itself: the caller is the impersonated account, with the IAM scope.
      if (!bearer(request, iamTokens)) violations.push('signBlob without the service account’s own token');
      if (refuse.signBlob)
        return json(response, refuse.signBlob, {
          error: {
            code: 403,
            status: 'PERMISSION_DENIED',
            message: "Permission 'iam.serviceAccounts.signBlob' denied.",
          },
        });
      const { payload } = JSON.parse(request.body.toString()) as { payload: string };
      const signature = sign('RSA-SHA256', Buffer.from(payload, 'base64'), privateKey);
      return json(response, 200, { keyId: 'k1', signedBlob: signature.toString('base64') });
    }
    if (target.searchParams.has('X-Goog-Signature')) return signedAccess(request, target, response);
    // A resumable session's URI is its own credential: its chunks come without a token.
    if (request.method === 'PUT' && sessions.has(target.searchParams.get('upload_id') ?? ''))
      return uploadCall(request, target, response, decodeURIComponent(path.split('/')[5] ?? ''));
    if (!bearer(request, accessTokens)) {
      violations.push(`storage call without a token: ${request.method} ${request.url}`);
      return json(response, 401, { error: { code: 401, message: 'Invalid Credentials' } });
    }
    if (refuse.storage) return json(response, refuse.storage, { error: { code: 403, message: 'denied' } });
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(path);
    if (upload) return uploadCall(request, target, response, decodeURIComponent(upload[1]!));
    const bucketOnly = /^\/storage\/v1\/b\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && bucketOnly) {
      const bucket = decodeURIComponent(bucketOnly[1]!);
      if (!buckets.has(bucket))
        return json(response, 404, { error: { code: 404, message: 'The specified bucket does not exist.' } });
      return json(response, 200, { name: bucket, kind: 'storage#bucket' });
    }
    const object = /^\/storage\/v1\/b\/([^/]+)\/o\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && object) {
      const bucket = decodeURIComponent(object[1]!);
      const name = decodeURIComponent(object[2]!);
      if (!buckets.has(bucket))
        return json(response, 404, { error: { code: 404, message: 'The specified bucket does not exist.' } });
      const stored = objects.get(`${bucket}/${name}`);
      if (!stored)
        return json(response, 404, { error: { code: 404, message: `No such object: ${bucket}/${name}` } });
      if (target.searchParams.get('alt') === 'media') {
        response.writeHead(200, {
          'content-type': stored.contentType,
          'x-goog-hash': `crc32c=${crc32c(stored.bytes)},md5=${md5(stored.bytes)}`,
        });
        return response.end(stored.bytes);
      }
      return json(response, 200, objectResource(bucket, name, stored));
    }
    const listing = /^\/storage\/v1\/b\/([^/]+)\/o$/.exec(path);
    if (request.method === 'GET' && listing) {
      const bucket = decodeURIComponent(listing[1]!);
      if (!buckets.has(bucket))
        return json(response, 404, { error: { code: 404, message: 'The specified bucket does not exist.' } });
      if (target.searchParams.get('fields') !== 'items(name,size,updated),nextPageToken')
        violations.push('list without fields');
      const prefix = target.searchParams.get('prefix') ?? '';
      const max = Number(target.searchParams.get('maxResults'));
      const names = [...objects.keys()]
        .filter((k) => k.startsWith(`${bucket}/${prefix}`))
        .map((k) => k.slice(bucket.length + 1))
        .sort();
      const start = Number(target.searchParams.get('pageToken') ?? 0);
      const page = names.slice(start, start + max);
      return json(response, 200, {
        items: page.map((name) => {
          const stored = objects.get(`${bucket}/${name}`)!;
          return { name, size: String(stored.bytes.length), updated: stored.updated };
        }),
        ...(start + max < names.length ? { nextPageToken: String(start + max) } : {}),
      });
    }
    violations.push(`unexpected ${request.method} ${request.url}`);
    json(response, 400, { error: { code: 400, message: 'unexpected request' } });
  };

  const objectResource = (bucket: string, name: string, stored: StoredObject) => ({
    kind: 'storage#object',
    name,
    bucket,
    size: String(stored.bytes.length),
    contentType: stored.contentType,
    updated: stored.updated,
    generation: '1',
    crc32c: crc32c(stored.bytes),
    md5Hash: md5(stored.bytes),
  });

  const store = (bucket: string, name: string, bytes: Buffer, contentType: string) => {
    const stored = { bytes, contentType, updated: new Date().toISOString() };
    objects.set(`${bucket}/${name}`, stored);
    return objectResource(bucket, name, stored);
  };

  /** Uploads as the JSON API takes them: multipart (metadata and media), or a resumable session. */
  const uploadCall = (request: ReceivedRequest, target: URL, response: ServerResponse, bucket: string) => {
    const type = target.searchParams.get('uploadType');
    const session = target.searchParams.get('upload_id');
    if (!buckets.has(bucket))
      return json(response, 404, { error: { code: 404, message: 'The specified bucket does not exist.' } });
    if (request.method === 'POST' && type === 'multipart') {
      const boundary = /boundary=([^;]+)/.exec(String(request.headers['content-type']))?.[1];
      if (!boundary) {
        violations.push('multipart upload without a boundary');
        return json(response, 400, { error: { code: 400, message: 'no boundary' } });
      }
      const [metadataPart, mediaPart] = multipartParts(request.body, boundary);
      if (!metadataPart || !mediaPart) {
        violations.push('multipart upload without metadata and media');
        return json(response, 400, { error: { code: 400, message: 'bad multipart' } });
      }
      const metadata = JSON.parse(metadataPart.body.toString()) as { name?: string; contentType?: string };
      const name = metadata.name ?? target.searchParams.get('name') ?? '';
      return json(response, 200, store(bucket, name, mediaPart.body, metadata.contentType ?? mediaPart.type));
    }
    if (request.method === 'POST' && type === 'resumable') {
      const metadata = JSON.parse(request.body.toString() || '{}') as { name?: string; contentType?: string };
      const name = metadata.name ?? target.searchParams.get('name') ?? '';
      const id = randomUUID();
      sessions.set(id, {
        bucket,
        name,
        contentType: metadata.contentType ?? String(request.headers['x-upload-content-type'] ?? ''),
        parts: [],
        received: 0,
      });
      response.writeHead(200, {
        location: `${fake.sessionBase ?? url}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=resumable&upload_id=${id}`,
      });
      return response.end();
    }
    if (request.method === 'PUT' && type === 'resumable' && session && sessions.has(session)) {
      const upload = sessions.get(session)!;
      const range = String(request.headers['content-range'] ?? '');
      resumableChunks.push(range);
      const chunk = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range);
      const last = /^bytes \*\/(\d+|\*)$/.exec(range);
      if (chunk) {
        const [first, end, total] = [Number(chunk[1]), Number(chunk[2]), chunk[3]!];
        if (first !== upload.received || end - first + 1 !== request.body.length)
          violations.push(
            `resumable chunk ${range} after ${upload.received} bytes, ${request.body.length} sent`,
          );
        upload.parts.push(request.body);
        upload.received = end + 1;
        if (total === '*' || Number(total) !== upload.received) {
          response.writeHead(308, { range: `bytes=0-${upload.received - 1}` });
          return response.end();
        }
      } else if (!last) {
        violations.push(`resumable PUT with Content-Range '${range}'`);
        return json(response, 400, { error: { code: 400, message: 'bad Content-Range' } });
      } else if (last[1] === '*') {
        // A status query: how much has arrived.
        response.writeHead(308, upload.received ? { range: `bytes=0-${upload.received - 1}` } : {});
        return response.end();
      }
      sessions.delete(session);
      return json(
        response,
        200,
        store(upload.bucket, upload.name, Buffer.concat(upload.parts), upload.contentType),
      );
    }
    violations.push(`unexpected upload ${request.method} ${request.url}`);
    return json(response, 400, { error: { code: 400, message: 'unexpected upload' } });
  };

  /** A V4 signed URL, checked as Google does: signature, host, expiry. */
  const signedAccess = (request: ReceivedRequest, target: URL, response: ServerResponse) => {
    const signature = target.searchParams.get('X-Goog-Signature')!;
    const query = [...target.searchParams.entries()]
      .filter(([name]) => name !== 'X-Goog-Signature')
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
      .join('&');
    const canonical = [
      request.method,
      target.pathname,
      query,
      // Google's endpoints use the default port; the library signs the host name alone.
      `host:${String(request.headers.host).replace(/:\d+$/, '')}`,
      '',
      'host',
      'UNSIGNED-PAYLOAD',
    ].join('\n');
    const date = target.searchParams.get('X-Goog-Date')!;
    const credential = target.searchParams.get('X-Goog-Credential')!;
    const toSign = [
      'GOOG4-RSA-SHA256',
      date,
      credential.slice(credential.indexOf('/') + 1),
      createHash('sha256').update(canonical).digest('hex'),
    ].join('\n');
    const valid = createVerify('RSA-SHA256').update(toSign).verify(publicKey, Buffer.from(signature, 'hex'));
    if (!valid || !credential.startsWith(`${serviceAccountEmail}/`)) {
      response.writeHead(403, { 'content-type': 'application/xml' });
      return response.end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
    }
    const signedAt = Date.parse(
      date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    if (Date.now() > signedAt + Number(target.searchParams.get('X-Goog-Expires')) * 1000) {
      response.writeHead(400, { 'content-type': 'application/xml' });
      return response.end('<Error><Code>ExpiredToken</Code></Error>');
    }
    const [, bucket, ...rest] = target.pathname.split('/');
    const key = `${bucket}/${rest.map(decodeURIComponent).join('/')}`;
    if (request.method === 'PUT') {
      objects.set(key, {
        bytes: request.body,
        contentType: String(request.headers['content-type'] ?? 'application/octet-stream'),
        updated: new Date().toISOString(),
      });
      response.writeHead(200);
      return response.end();
    }
    const stored = objects.get(key);
    response.writeHead(stored ? 200 : 404, { 'content-type': stored?.contentType ?? 'application/xml' });
    response.end(stored?.bytes ?? '<Error><Code>NoSuchKey</Code></Error>');
  };

  const server = await startHttpServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      violations.push(`fake failed: ${error.message}`);
      json(response, 500, { error: { message: error.message } });
    });
  });
  url = server.url;
  const fake: FakeGoogle = {
    url,
    server,
    objects,
    buckets,
    violations,
    federatedClaims,
    publicKey,
    resumableChunks,
    refuse,
    serviceAccountKeyJson: () =>
      JSON.stringify({
        type: 'service_account',
        project_id: 'shop-prod',
        private_key_id: 'k1',
        private_key: privatePem,
        client_email: serviceAccountEmail,
        token_uri: `${url}/token`,
      }),
    close: () => server.close(),
  };
  return fake;
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');
const crc32c = (bytes: Buffer) => {
  const sum = new CRC32C();
  sum.update(bytes);
  return sum.toString();
};

/** The parts of a multipart/related body: each part's content type and bytes. */
function multipartParts(body: Buffer, boundary: string): { type: string; body: Buffer }[] {
  const parts: { type: string; body: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // after CRLF, before CRLF
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString();
    parts.push({
      type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? 'application/octet-stream',
      body: part.subarray(split + 4),
    });
    at = next;
  }
  return parts;
}

const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function verifyServiceAccountJwt(jwt: string, key: KeyObject): Record<string, unknown> | undefined {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || !signature) return undefined;
  const ok = createVerify('RSA-SHA256')
    .update(`${header}.${payload}`)
    .verify(key, Buffer.from(signature, 'base64url'));
  return ok
    ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>)
    : undefined;
}
