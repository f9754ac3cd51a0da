/**
 * Google's endpoints for the GCS tests, on 127.0.0.1: OAuth token (JWT bearer grant), STS token
 * exchange, IAM Credentials (generateAccessToken, signBlob by the account itself) and the Cloud Storage JSON API with
 * V4 signed URLs. Each checks the exact request it gets: signatures against the service account's
 * public key, Dogu's ID token against Dogu's JWKS, bearer tokens against the ones it handed out.
 */
import { createHash, createVerify, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { ServerResponse } from 'node:http';
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
  /** Verified claims of Dogu's tokens that reached STS. */
  federatedClaims: Record<string, unknown>[];
  serviceAccountKeyJson(): string;
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
  /** The service account's own tokens for the IAM scope: what signBlob is called with. */
  const signingTokens = new Set<string>();
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
        claims.aud !== `${url}/token` ||
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
      const body = JSON.parse(request.body.toString()) as Record<string, string>;
      const { subjectToken, ...rest } = body;
      const expected = {
        grantType: 'urn:ietf:params:oauth:grant-type:token-exchange',
        audience: `//iam.googleapis.com/${providerName}`,
        scope: 'https://www.googleapis.com/auth/cloud-platform',
        requestedTokenType: 'urn:ietf:params:oauth:token-type:access_token',
        subjectTokenType: 'urn:ietf:params:oauth:token-type:jwt',
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
    const iam = `/v1/projects/-/serviceAccounts/${encodeURIComponent(serviceAccountEmail)}`;
    if (request.method === 'POST' && path === `${iam}:generateAccessToken`) {
      if (!bearer(request, federatedTokens))
        violations.push('generateAccessToken without the federated token');
      const body = request.body.toString();
      const forScope = (scope: string) => body === JSON.stringify({ scope: [scope], lifetime: '3600s' });
      // The storage token, or the account's own token for signing (signBlob wants the IAM scope).
      const forSigning = forScope('https://www.googleapis.com/auth/iam');
      if (!forSigning && !forScope('https://www.googleapis.com/auth/devstorage.read_write'))
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
      const token = `${forSigning ? 'signing' : 'impersonated'}-${++issued}`;
      (forSigning ? signingTokens : accessTokens).add(token);
      return json(response, 200, {
        accessToken: token,
        expireTime: new Date(Date.now() + 3600_000).toISOString(),
      });
    }
    if (request.method === 'POST' && path === `${iam}:signBlob`) {
      // Google documents that the caller needs signBlob on the account: Dogu's setup grants Token
      // Creator to the account on itself, so the account itself must call, with its IAM-scoped token.
      if (!bearer(request, signingTokens))
        violations.push('signBlob not called by the service account itself (with its IAM-scoped token)');
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
    if (!bearer(request, accessTokens)) {
      violations.push(`storage call without a token: ${request.method} ${request.url}`);
      return json(response, 401, { error: { code: 401, message: 'Invalid Credentials' } });
    }
    if (refuse.storage) return json(response, refuse.storage, { error: { code: 403, message: 'denied' } });
    if (request.method === 'GET' && path === '/storage/v1/b') {
      // Test connection: one bucket of the account's project.
      const expected = 'project=shop-prod&maxResults=1&fields=kind';
      if (target.search !== `?${expected}`) violations.push(`bucket list ${target.search}`);
      return json(response, 200, { kind: 'storage#buckets' });
    }
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(path);
    if (request.method === 'POST' && upload) {
      const bucket = decodeURIComponent(upload[1]!);
      if (target.searchParams.get('uploadType') !== 'media')
        violations.push('upload without uploadType=media');
      if (!buckets.has(bucket))
        return json(response, 404, { error: { code: 404, message: 'The specified bucket does not exist.' } });
      const name = target.searchParams.get('name')!;
      const stored = {
        bytes: request.body,
        contentType: String(request.headers['content-type']),
        updated: new Date().toISOString(),
      };
      objects.set(`${bucket}/${name}`, stored);
      return json(response, 200, {
        name,
        bucket,
        size: String(stored.bytes.length),
        contentType: stored.contentType,
        generation: '1',
      });
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
        response.writeHead(200, { 'content-type': stored.contentType });
        return response.end(stored.bytes);
      }
      return json(response, 200, {
        name,
        bucket,
        size: String(stored.bytes.length),
        contentType: stored.contentType,
        updated: stored.updated,
      });
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
      `host:${request.headers.host}`,
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
  return {
    url,
    server,
    objects,
    buckets,
    violations,
    federatedClaims,
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
