/**
 * The GCS kind against local Google endpoints that check the exact requests: a service-account
 * key (JWT bearer grant, URLs signed with the key) and workload identity federation (Dogu's ID
 * token verified against Dogu's JWKS → STS → generateAccessToken; URLs signed through signBlob).
 */
import { createHash, createVerify } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalOwnIdp } from '../../../shared/adapters/idp/own-idp-services.ts';
import { systemClock } from '../../../shared/adapters/ids.ts';
import type { ConnectorRuntime } from '../../../shared/connectors/connector.ts';
import { gcsRuntime } from '../../../shared/connectors/gcs/runtime.ts';
import type { StorageStatementResult } from '../../../shared/connectors/object-storage/results.ts';
import { identityTokenSource, type OwnIdp } from '../../../shared/domain/identity/own-idp.ts';
import { fileValue, type StorageActionFields, storageRun } from '../s3/support.ts';
import { type FakeGoogle, providerName, serviceAccountEmail, startFakeGoogle } from './fake-google.ts';

let google: FakeGoogle;
let idp: OwnIdp;
let dataDir: string;
let runtime: ConnectorRuntime;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'dogu-gcs-idp-'));
  let issuerBase = '';
  google = await startFakeGoogle({ issuer: () => `${issuerBase}/idp`, jwks: () => idp.keys.publicKeys() });
  issuerBase = 'http://dogu.test';
  idp = await createLocalOwnIdp({ dataDir, baseUrl: () => issuerBase, clock: systemClock, env: {} });
  google.buckets.add('shop-files');
  runtime = gcsRuntime();
});

afterAll(async () => {
  await runtime?.close?.();
  await google?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  google.violations.length = 0;
  for (const step of Object.keys(google.refuse)) delete google.refuse[step as keyof FakeGoogle['refuse']];
});

const keyConnection = () => ({
  authentication: 'service-account-key',
  serviceAccountKey: google.serviceAccountKeyJson(),
  storageEndpoint: google.url,
});
const federatedConnection = () => ({
  authentication: 'workload-identity',
  provider: providerName,
  serviceAccount: serviceAccountEmail,
  storageEndpoint: google.url,
  stsEndpoint: google.url,
  iamCredentialsEndpoint: google.url,
});
const tokens = () => identityTokenSource(idp, 'shop', 'prod');

const run = async (
  connection: Record<string, unknown>,
  fields: StorageActionFields,
  values: Record<string, unknown> = {},
) => {
  const [result] = await runtime.run(
    storageRun('gcs', connection, fields, values, { identityToken: tokens() }),
  );
  return result as StorageStatementResult;
};

describe.each([
  ['a service-account key', keyConnection],
  ['workload identity federation', federatedConnection],
])('GCS with %s', (_, connection) => {
  it('uploads, downloads, lists and signs URLs that the storage accepts', async () => {
    const uploaded = await run(
      connection(),
      { operation: 'upload', bucket: 'shop-files', objectKey: 'in/{{ name }}', fileParameter: 'file' },
      { name: 'a?b#c.txt', file: fileValue('a.txt', 'text/plain', 'hello gcs') },
    );
    expect(uploaded.status, uploaded.error?.message).toBe('succeeded');
    expect(uploaded.rows[0]).toMatchObject({
      bucket: 'shop-files',
      objectKey: 'in/a?b#c.txt',
      size: 9,
      contentType: 'text/plain',
    });
    expect(google.objects.get('shop-files/in/a?b#c.txt')?.bytes.toString()).toBe('hello gcs');

    const downloaded = await run(connection(), {
      operation: 'download',
      bucket: 'shop-files',
      objectKey: 'in/a?b#c.txt',
    });
    expect(downloaded.value).toBe('hello gcs');
    expect(downloaded.rows[0]).toMatchObject({
      size: 9,
      contentType: 'text/plain',
      lastModified: expect.any(Number),
    });

    const listed = await run(connection(), { operation: 'list', bucket: 'shop-files', objectKey: 'in/' });
    expect(listed.rows).toEqual([{ objectKey: 'in/a?b#c.txt', lastModified: expect.any(Number), size: 9 }]);

    const put = await run(
      connection(),
      {
        operation: 'signed-url',
        bucket: 'shop-files',
        objectKey: 'shared/{{ name }}',
        method: 'PUT',
        expiresInSeconds: 900,
      },
      { name: 'x y.txt' },
    );
    const putRow = put.rows[0] as { signedUrl: string; expiresAt: number };
    expect(putRow.expiresAt).toBeGreaterThan(Date.now() / 1000 + 890);
    expect((await fetch(putRow.signedUrl, { method: 'PUT', body: 'signed put' })).status).toBe(200);
    const get = await run(connection(), {
      operation: 'signed-url',
      bucket: 'shop-files',
      objectKey: 'shared/x y.txt',
    });
    const fetched = await fetch((get.rows[0] as { signedUrl: string }).signedUrl);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe('signed put');
    // A URL whose signature does not match is refused (the fake checks signatures).
    expect(
      (await fetch((get.rows[0] as { signedUrl: string }).signedUrl.replace('x%20y', 'other'))).status,
    ).toBe(403);
    expect(google.violations).toEqual([]);
  });
});

describe('GCS', () => {
  it('exchanges Dogu’s token with the claims the pool maps, once while it is valid', async () => {
    google.federatedClaims.length = 0;
    const fresh = gcsRuntime();
    try {
      for (let i = 0; i < 2; i++) {
        const [result] = await fresh.run(
          storageRun(
            'gcs',
            federatedConnection(),
            { operation: 'list', bucket: 'shop-files' },
            {},
            { identityToken: tokens(), key: 'shop/files/prod' },
          ),
        );
        expect(result!.status, result!.error?.message).toBe('succeeded');
      }
    } finally {
      await fresh.close?.();
    }
    expect(google.federatedClaims).toHaveLength(1);
    expect(google.federatedClaims[0]).toMatchObject({
      iss: 'http://dogu.test/idp',
      sub: 'project:shop:environment:prod',
      aud: `https://iam.googleapis.com/${providerName}`,
      tenant_subdomain: 'local',
      project_id: 'shop',
      environment_id: 'prod',
    });
  });

  it('pages a listing past 1,000 objects and answers a large object as a link', async () => {
    google.buckets.add('many');
    for (let i = 0; i < 1500; i++)
      google.objects.set(`many/r/${String(i).padStart(4, '0')}`, {
        bytes: Buffer.from('ab'),
        contentType: 'text/csv',
        updated: '2026-11-01T00:00:00.000Z',
      });
    const listed = await run(keyConnection(), { operation: 'list', bucket: 'many', objectKey: 'r/' });
    expect(listed.rowCount).toBe(1500);
    expect(listed.rows[1499]).toEqual({
      objectKey: 'r/1499',
      lastModified: Date.parse('2026-11-01T00:00:00Z') / 1000,
      size: 2,
    });

    google.objects.set('shop-files/big.bin', {
      bytes: Buffer.alloc(4 * 1024 * 1024, 1),
      contentType: 'application/octet-stream',
      updated: new Date().toISOString(),
    });
    const big = await run(keyConnection(), {
      operation: 'download',
      bucket: 'shop-files',
      objectKey: 'big.bin',
    });
    const row = big.rows[0] as { signedUrl: string; size: number };
    expect(row.size).toBe(4 * 1024 * 1024);
    expect(big.file).toBeUndefined();
    const fetched = await fetch(row.signedUrl);
    expect(fetched.status).toBe(200);
    expect((await fetched.arrayBuffer()).byteLength).toBe(4 * 1024 * 1024);
  });

  it('refuses an expired signed URL', async () => {
    const short = await run(keyConnection(), {
      operation: 'signed-url',
      bucket: 'shop-files',
      objectKey: 'shared/x y.txt',
      expiresInSeconds: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await fetch((short.rows[0] as { signedUrl: string }).signedUrl)).status).toBe(400);
  });

  it('says what is missing or refused, naming the permission and the failing step', async () => {
    expect(
      (await run(keyConnection(), { operation: 'download', bucket: 'shop-files', objectKey: 'nope' })).error,
    ).toEqual({
      code: 'not_found',
      message: "Object 'nope' in bucket 'shop-files' does not exist.",
    });
    expect((await run(keyConnection(), { operation: 'list', bucket: 'no-bucket' })).error).toEqual({
      code: 'not_found',
      message: "Bucket 'no-bucket' does not exist.",
    });
    google.refuse.storage = 403;
    expect((await run(keyConnection(), { operation: 'list', bucket: 'shop-files' })).error?.message).toBe(
      `Cloud Storage refused access to bucket 'shop-files': ${serviceAccountEmail} needs storage.objects.list.`,
    );
    delete google.refuse.storage;

    google.refuse.signBlob = 403;
    expect(
      (await run(federatedConnection(), { operation: 'signed-url', bucket: 'shop-files', objectKey: 'a' }))
        .error?.message,
    ).toMatch(
      // The library passes on what Google said, not the status.
      /^IAM Credentials signBlob \(the service account signs for itself: it needs iam\.serviceAccounts\.signBlob on itself.*\): Permission 'iam\.serviceAccounts\.signBlob' denied\.$/,
    );
    delete google.refuse.signBlob;

    const check = (connection: Record<string, unknown>) =>
      runtime.testConnection({
        key: 'test/shop/files/prod',
        projectId: 'shop',
        environmentId: 'prod',
        connection,
        signal: AbortSignal.timeout(5000),
        identityToken: tokens(),
      });
    await expect(check(federatedConnection())).resolves.toBeUndefined();
    await expect(check(keyConnection())).resolves.toBeUndefined();
    google.refuse.sts = 400;
    await expect(check(federatedConnection())).rejects.toThrow(
      /^Step 2 \(Google STS token exchange\): Google answered HTTP 400: invalid_grant/,
    );
    delete google.refuse.sts;
    google.refuse.impersonation = 403;
    await expect(check(federatedConnection())).rejects.toThrow(
      /^Step 3 \(IAM Credentials generateAccessToken, impersonating the service account\): Google answered HTTP 403: PERMISSION_DENIED/,
    );
    delete google.refuse.impersonation;
    await expect(check({ ...keyConnection(), serviceAccountKey: undefined })).rejects.toThrow(
      /needs the service account JSON key/,
    );
    const broken = JSON.stringify({
      ...JSON.parse(google.serviceAccountKeyJson()),
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
    });
    await expect(check({ ...keyConnection(), serviceAccountKey: broken })).rejects.toThrow(
      'The private key of the service account JSON key cannot sign: check the key.',
    );
    expect(google.violations).toEqual([]);
  });
});

describe('GCS on the library', () => {
  it('uploads 20 MB as a resumable upload in 8 MiB chunks, and a small file in one request', async () => {
    const bytes = Buffer.alloc(20 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4096) bytes.writeUInt32BE(i, i);
    google.resumableChunks.length = 0;
    const uploaded = await run(
      keyConnection(),
      { operation: 'upload', bucket: 'shop-files', objectKey: 'big/20mb.bin', fileParameter: 'file' },
      { file: fileValue('20mb.bin', 'application/octet-stream', bytes) },
    );
    expect(uploaded.status, `${uploaded.error?.message} ${google.violations}`).toBe('succeeded');
    expect(uploaded.rows[0]).toMatchObject({ objectKey: 'big/20mb.bin', size: bytes.length });
    expect(google.objects.get('shop-files/big/20mb.bin')?.bytes.equals(bytes)).toBe(true);
    const chunk = 8 * 1024 * 1024;
    expect(google.resumableChunks).toEqual([
      // Given the session it opened, the library first asks how much has arrived.
      'bytes */*',
      `bytes 0-${chunk - 1}/*`,
      `bytes ${chunk}-${2 * chunk - 1}/*`,
      `bytes ${2 * chunk}-${bytes.length - 1}/${bytes.length}`,
    ]);

    google.resumableChunks.length = 0;
    const small = await run(
      federatedConnection(),
      { operation: 'upload', bucket: 'shop-files', objectKey: 'small.txt', fileParameter: 'file' },
      { file: fileValue('small.txt', 'text/plain', 'small') },
    );
    expect(small.status, small.error?.message).toBe('succeeded');
    expect(google.resumableChunks).toEqual([]);
    expect(google.objects.get('shop-files/small.txt')?.bytes.toString()).toBe('small');
    expect(google.violations).toEqual([]);
  });

  it.each([
    ['a service-account key', keyConnection],
    ['workload identity federation', federatedConnection],
  ])('signs URLs that verify with Google’s V4 algorithm (%s)', async (_, connection) => {
    const signed = await run(connection(), {
      operation: 'signed-url',
      bucket: 'shop-files',
      objectKey: 'reports/2026 11/売上.csv',
      method: 'PUT',
      expiresInSeconds: 600,
    });
    const url = new URL((signed.rows[0] as { signedUrl: string }).signedUrl);
    // Recomputed from the URL alone, as https://cloud.google.com/storage/docs/authentication/signatures
    // describes it: canonical request → string to sign → RSA-SHA256 by the service account.
    const query = [...url.searchParams.entries()].filter(([name]) => name !== 'X-Goog-Signature');
    expect(Object.fromEntries(query)).toEqual({
      'X-Goog-Algorithm': 'GOOG4-RSA-SHA256',
      'X-Goog-Credential': expect.stringMatching(
        new RegExp(`^${serviceAccountEmail}/\\d{8}/auto/storage/goog4_request$`),
      ),
      'X-Goog-Date': expect.stringMatching(/^\d{8}T\d{6}Z$/),
      'X-Goog-Expires': '600',
      'X-Goog-SignedHeaders': 'host',
    });
    const encode = (text: string) =>
      encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    expect(url.pathname).toBe(`/shop-files/${'reports/2026 11/売上.csv'.split('/').map(encode).join('/')}`);
    const canonicalQuery = query
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => `${encode(name)}=${encode(value)}`)
      .join('&');
    const canonicalRequest = [
      'PUT',
      url.pathname,
      canonicalQuery,
      `host:${url.hostname}`,
      '',
      'host',
      'UNSIGNED-PAYLOAD',
    ].join('\n');
    const date = url.searchParams.get('X-Goog-Date')!;
    const stringToSign = [
      'GOOG4-RSA-SHA256',
      date,
      `${date.slice(0, 8)}/auto/storage/goog4_request`,
      createHash('sha256').update(canonicalRequest).digest('hex'),
    ].join('\n');
    const signature = Buffer.from(url.searchParams.get('X-Goog-Signature')!, 'hex');
    expect(createVerify('RSA-SHA256').update(stringToSign).verify(google.publicKey, signature)).toBe(true);
    expect(createVerify('RSA-SHA256').update(`${stringToSign}x`).verify(google.publicKey, signature)).toBe(
      false,
    );
  });

  it('never reaches a metadata address, whatever the endpoint or the key names', async () => {
    const toMetadata = [
      { ...keyConnection(), storageEndpoint: 'http://169.254.169.254' },
      {
        ...keyConnection(),
        serviceAccountKey: JSON.stringify({
          ...JSON.parse(google.serviceAccountKeyJson()),
          token_uri: 'http://169.254.169.254/token',
        }),
      },
      { ...federatedConnection(), iamCredentialsEndpoint: 'http://169.254.169.254' },
    ];
    for (const connection of toMetadata) {
      const listed = await run(connection, { operation: 'list', bucket: 'shop-files' });
      expect(listed.status).toBe('failed');
      expect(listed.error?.message).toMatch(
        /169\.254\.169\.254 is a link-local or cloud metadata address, which actions may never reach/,
      );
    }
    // A session URI is the server's to choose: one pointing at a metadata address is not followed.
    google.sessionBase = 'http://169.254.169.254';
    try {
      const uploaded = await run(
        keyConnection(),
        { operation: 'upload', bucket: 'shop-files', objectKey: 'big/redirected.bin', fileParameter: 'file' },
        { file: fileValue('r.bin', 'application/octet-stream', Buffer.alloc(6 * 1024 * 1024)) },
      );
      expect(uploaded.status).toBe('failed');
      expect(uploaded.error?.message).toMatch(/169\.254\.169\.254 is a link-local or cloud metadata address/);
    } finally {
      delete google.sessionBase;
    }
  });

  it('tests a connection by asking Cloud Storage itself, so an unreachable endpoint fails the check', async () => {
    const check = (connection: Record<string, unknown>) =>
      runtime.testConnection({
        key: 'test/shop/files/prod',
        connection,
        signal: AbortSignal.timeout(10_000),
        identityToken: tokens(),
      });
    await expect(check(keyConnection())).resolves.toBeUndefined();
    await expect(check({ ...keyConnection(), storageEndpoint: 'http://127.0.0.1:9' })).rejects.toThrow(
      /^Cloud Storage could not be reached: .*ECONNREFUSED/,
    );
    await expect(
      check({ ...federatedConnection(), storageEndpoint: 'http://169.254.169.254' }),
    ).rejects.toThrow(/metadata address/);
  });
});
