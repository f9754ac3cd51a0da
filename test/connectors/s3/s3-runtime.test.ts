/**
 * The S3 kind against a real S3-compatible server (s3rver on 127.0.0.1): upload, download (text,
 * media, other bytes, a large object as a link), list with paging past 1,000 keys, signed URLs
 * used for real (GET, PUT, expired), names that cannot leave their bucket or key, clear errors.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorRuntime } from '../../../shared/connectors/connector.ts';
import type { StorageStatementResult } from '../../../shared/connectors/object-storage/results.ts';
import { s3Runtime } from '../../../shared/connectors/s3/runtime.ts';
import { type S3Server, startS3Server } from './s3-server.ts';
import { fileValue, type StorageActionFields, storageRun } from './support.ts';

let server: S3Server;
let runtime: ConnectorRuntime;
let connection: Record<string, unknown>;

beforeAll(async () => {
  server = await startS3Server(['invoices', 'many-objects']);
  runtime = s3Runtime();
  connection = {
    region: 'us-east-1',
    authentication: 'keys',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    endpoint: server.endpoint,
    forcePathStyle: true,
  };
});

afterAll(async () => {
  await runtime?.close?.();
  await server?.stop();
});

const run = async (fields: StorageActionFields, values: Record<string, unknown> = {}) => {
  const [result] = await runtime.run(storageRun('s3', connection, fields, values));
  return result as StorageStatementResult;
};

const put = (bucket: string, key: string, body: string | Uint8Array, type = 'text/plain') =>
  fetch(`${server.endpoint}/${bucket}/${key}`, { method: 'PUT', body, headers: { 'content-type': type } });

describe('the S3 kind', () => {
  it('uploads the file parameter with its content type and downloads it again', async () => {
    const uploaded = await run(
      {
        operation: 'upload',
        bucket: 'invoices',
        objectKey: 'customers/{{ customer }}/note.txt',
        fileParameter: 'file',
      },
      { customer: 'c-42', file: fileValue('note.txt', 'text/plain', 'paid in full') },
    );
    expect(uploaded.status, uploaded.error?.message).toBe('succeeded');
    expect(uploaded.rows[0]).toMatchObject({
      bucket: 'invoices',
      objectKey: 'customers/c-42/note.txt',
      size: 12,
      contentType: 'text/plain',
    });
    const raw = await fetch(`${server.endpoint}/invoices/customers/c-42/note.txt`);
    expect(raw.headers.get('content-type')).toBe('text/plain');
    expect(await raw.text()).toBe('paid in full');

    const downloaded = await run(
      {
        operation: 'download',
        bucket: '{{ vars.bucket }}',
        objectKey: 'customers/{{ currentUser.id }}/note.txt',
      },
      { 'vars.bucket': 'invoices', 'currentUser.id': 'c-42' },
    );
    expect(downloaded.status).toBe('succeeded');
    expect(downloaded.value).toBe('paid in full');
    expect(downloaded.rows[0]).toMatchObject({
      objectKey: 'customers/c-42/note.txt',
      size: 12,
      contentType: 'text/plain',
    });
    expect(typeof downloaded.rows[0]!.lastModified).toBe('number');
  });

  it('refuses an upload without its file and writes nothing', async () => {
    const result = await run(
      { operation: 'upload', bucket: 'invoices', objectKey: 'empty.txt', fileParameter: 'file' },
      { file: null },
    );
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/needs a file in parameter 'file'/);
    expect((await fetch(`${server.endpoint}/invoices/empty.txt`)).status).toBe(404);
  });

  it('shows images as media and other bytes as a file', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await put('invoices', 'logo.png', png, 'image/png');
    const image = await run({ operation: 'download', bucket: 'invoices', objectKey: 'logo.png' });
    expect(image.media).toEqual({
      kind: 'image',
      contentType: 'image/png',
      base64: Buffer.from(png).toString('base64'),
    });
    await put('invoices', 'data.bin', new Uint8Array([0, 1, 2]), 'application/octet-stream');
    const binary = await run({ operation: 'download', bucket: 'invoices', objectKey: 'data.bin' });
    expect(binary.file).toEqual({
      name: 'data.bin',
      contentType: 'application/octet-stream',
      base64: 'AAEC',
    });
  });

  it('answers a large object as a short-lived link that works', async () => {
    const big = new Uint8Array(3.5 * 1024 * 1024).fill(7);
    expect((await put('invoices', 'big/archive.zip', big, 'application/zip')).status).toBe(200);
    const result = await run({ operation: 'download', bucket: 'invoices', objectKey: 'big/archive.zip' });
    expect(result.status).toBe('succeeded');
    expect(result.file).toBeUndefined();
    const row = result.rows[0] as { signedUrl: string; expiresAt: number; size: number };
    expect(row.size).toBe(big.length);
    expect(row.expiresAt - Date.now() / 1000).toBeGreaterThan(200);
    expect(row.expiresAt - Date.now() / 1000).toBeLessThanOrEqual(300);
    const fetched = await fetch(row.signedUrl);
    expect(fetched.status).toBe(200);
    expect((await fetched.arrayBuffer()).byteLength).toBe(big.length);
  });

  it('lists objects under a prefix, paging past 1,000 keys', async () => {
    const keys = Array.from({ length: 1003 }, (_, i) => `reports/${String(i).padStart(4, '0')}.csv`);
    for (let i = 0; i < keys.length; i += 25) {
      await Promise.all(keys.slice(i, i + 25).map((key) => put('many-objects', key, 'a,b')));
    }
    await put('many-objects', 'other/x.csv', 'x');
    const result = await run({ operation: 'list', bucket: 'many-objects', objectKey: 'reports/' });
    expect(result.status, result.error?.message).toBe('succeeded');
    expect(result.rowCount).toBe(1003);
    expect(result.rows.map((r) => r.objectKey)).toEqual(keys);
    expect(result.rows[0]).toEqual({
      objectKey: 'reports/0000.csv',
      lastModified: expect.any(Number),
      size: 3,
    });
    expect(Math.abs((result.rows[0]!.lastModified as number) - Date.now() / 1000)).toBeLessThan(120);
    const all = await run({ operation: 'list', bucket: 'many-objects' });
    expect(all.rowCount).toBe(1004);
  }, 60_000);

  it('issues signed URLs that work for GET and PUT, and an expired one that fails', async () => {
    const putUrl = await run({
      operation: 'signed-url',
      bucket: 'invoices',
      objectKey: 'shared/a.txt',
      method: 'PUT',
      expiresInSeconds: 600,
    });
    const putRow = putUrl.rows[0] as { signedUrl: string; expiresAt: number; method: string };
    expect(putRow.method).toBe('PUT');
    expect(putRow.expiresAt).toBeGreaterThan(Date.now() / 1000 + 590);
    expect((await fetch(putRow.signedUrl, { method: 'PUT', body: 'via signed url' })).status).toBe(200);

    const getUrl = await run({ operation: 'signed-url', bucket: 'invoices', objectKey: 'shared/a.txt' });
    const getRow = getUrl.rows[0] as { signedUrl: string };
    const fetched = await fetch(getRow.signedUrl);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe('via signed url');

    const short = await run({
      operation: 'signed-url',
      bucket: 'invoices',
      objectKey: 'shared/a.txt',
      expiresInSeconds: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await fetch((short.rows[0] as { signedUrl: string }).signedUrl)).status).toBe(403);
  });

  it('signs upload URLs without a body checksum, so any bytes can be put through them', async () => {
    const signed = await run({
      operation: 'signed-url',
      bucket: 'invoices',
      objectKey: 'shared/photo.bin',
      method: 'PUT',
    });
    const url = new URL((signed.rows[0] as { signedUrl: string }).signedUrl);
    // The SDK's default checksum of an empty body (x-amz-checksum-crc32=AAAAAA==) would make stores
    // that check it refuse every real upload; nothing but the signature and the operation is signed.
    expect([...url.searchParams.keys()].sort()).toEqual([
      'X-Amz-Algorithm',
      'X-Amz-Content-Sha256',
      'X-Amz-Credential',
      'X-Amz-Date',
      'X-Amz-Expires',
      'X-Amz-Signature',
      'X-Amz-SignedHeaders',
      'x-id',
    ]);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(url.searchParams.get('X-Amz-Content-Sha256')).toBe('UNSIGNED-PAYLOAD');

    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    const put = await fetch(url, { method: 'PUT', body: bytes });
    expect(put.status).toBe(200);
    const downloaded = await run({
      operation: 'download',
      bucket: 'invoices',
      objectKey: 'shared/photo.bin',
    });
    expect(downloaded.status, downloaded.error?.message).toBe('succeeded');
    expect(downloaded.rows[0]).toMatchObject({ size: bytes.length });
    const link = await run({ operation: 'signed-url', bucket: 'invoices', objectKey: 'shared/photo.bin' });
    const fetched = await fetch((link.rows[0] as { signedUrl: string }).signedUrl);
    expect(new Uint8Array(await fetched.arrayBuffer())).toEqual(bytes);
  });

  it('keeps values inside the bucket and the key', async () => {
    const climbing = await run(
      { operation: 'download', bucket: 'invoices', objectKey: 'customers/{{ name }}' },
      { name: '../../many-objects/reports/0001.csv' },
    );
    expect(climbing.status).toBe('failed');
    expect(climbing.error?.message).toMatch(/'\.\.' segment/);
    const otherBucket = await run(
      { operation: 'download', bucket: '{{ bucket }}', objectKey: 'x' },
      { bucket: 'many-objects/reports' },
    );
    expect(otherBucket.status).toBe('failed');
    expect(otherBucket.error?.message).toMatch(/is not a bucket name/);

    // ? and # stay characters of the key: the object is written and read under exactly that key.
    const odd = await run(
      { operation: 'upload', bucket: 'invoices', objectKey: 'odd/{{ name }}', fileParameter: 'file' },
      { name: 'a?versionId=1#b', file: fileValue('x', 'text/plain', 'odd') },
    );
    expect(odd.rows[0]?.objectKey).toBe('odd/a?versionId=1#b');
    const listed = await run({ operation: 'list', bucket: 'invoices', objectKey: 'odd/' });
    expect(listed.rows.map((r) => r.objectKey)).toEqual(['odd/a?versionId=1#b']);
  });

  it('says what is missing', async () => {
    const missingKey = await run({ operation: 'download', bucket: 'invoices', objectKey: 'nope.txt' });
    expect(missingKey.error).toEqual({
      code: 'not_found',
      message: "Object 'nope.txt' in bucket 'invoices' does not exist.",
    });
    const missingBucket = await run({ operation: 'list', bucket: 'no-such-bucket' });
    expect(missingBucket.error).toEqual({
      code: 'not_found',
      message: "Bucket 'no-such-bucket' does not exist.",
    });
  });

  it('asks for the keys it needs', async () => {
    const [result] = await runtime.run(
      storageRun(
        's3',
        { ...connection, secretAccessKey: undefined },
        { operation: 'list', bucket: 'invoices' },
      ),
    );
    expect(result!.error?.message).toMatch(/needs an access key ID and a secret access key/);
    const [oidc] = await runtime.run(
      storageRun(
        's3',
        { ...connection, authentication: 'oidc', audience: 'dogu' },
        { operation: 'list', bucket: 'invoices' },
      ),
    );
    expect(oidc!.error?.message).toBe(
      'OIDC authentication needs an audience and an IAM role ARN; set both in the data source.',
    );
  });

  it('never reaches a metadata address, nor private ones when they are refused', async () => {
    const [metadata] = await runtime.run(
      storageRun(
        's3',
        { ...connection, endpoint: 'http://169.254.169.254' },
        { operation: 'list', bucket: 'invoices' },
      ),
    );
    expect(metadata!.error?.message).toBe(
      'The endpoint 169.254.169.254 is the cloud metadata address 169.254.169.254, which Dogu never connects to.',
    );
    const strict = s3Runtime(true);
    try {
      const [literal] = await strict.run(
        storageRun('s3', connection, { operation: 'list', bucket: 'invoices' }),
      );
      expect(literal!.error?.message).toMatch(
        /is the private address 127\.0\.0\.1, and this installation refuses private networks/,
      );
      const named = server.endpoint.replace('127.0.0.1', 'localhost');
      const [byName] = await strict.run(
        storageRun('s3', { ...connection, endpoint: named }, { operation: 'list', bucket: 'invoices' }),
      );
      expect(byName!.error?.message).toMatch(
        /^S3 could not be reached: The endpoint localhost is the private address/,
      );
    } finally {
      await strict.close?.();
    }
  });

  it('runs with the function’s own role where the operator allows it (the default credential chain)', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    try {
      const role = {
        region: 'us-east-1',
        authentication: 'function-role',
        endpoint: server.endpoint,
        forcePathStyle: true,
      };
      const [listed] = await runtime.run(
        storageRun('s3', role, { operation: 'list', bucket: 'invoices', objectKey: 'customers/' }),
      );
      expect(listed!.status, listed!.error?.message).toBe('succeeded');
      expect(listed!.rows.map((r) => r.objectKey)).toEqual(['customers/c-42/note.txt']);
      const [signed] = await runtime.run(
        storageRun('s3', role, {
          operation: 'signed-url',
          bucket: 'invoices',
          objectKey: 'a',
          expiresInSeconds: 7200,
        }),
      );
      expect((signed!.rows[0] as { expiresAt: number }).expiresAt).toBeLessThanOrEqual(
        Math.ceil(Date.now() / 1000) + 3600,
      );
    } finally {
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      else process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });

  it('connects (test connection) to the server', async () => {
    await expect(
      runtime.testConnection({ key: 'test/shop/files/prod', connection, signal: AbortSignal.timeout(5000) }),
    ).resolves.toBeUndefined();
    await expect(
      runtime.testConnection({
        key: 'test/shop/files/prod',
        connection: { ...connection, endpoint: 'http://127.0.0.1:1' },
        signal: AbortSignal.timeout(5000),
      }),
    ).rejects.toThrow(/S3 could not be reached/);
  });
});

describe('S3 refusals', () => {
  let refusing: Server;
  let endpoint: string;
  const requests: string[] = [];
  beforeAll(async () => {
    refusing = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end(
        '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
      );
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => refusing.close(() => resolve())));

  it('names the permission each operation needs', async () => {
    const refused = async (fields: StorageActionFields, values: Record<string, unknown> = {}) => {
      const [result] = await runtime.run(storageRun('s3', { ...connection, endpoint }, fields, values));
      return result!.error;
    };
    expect(await refused({ operation: 'download', bucket: 'invoices', objectKey: 'a.txt' })).toEqual({
      code: 'forbidden',
      message:
        "S3 refused access to 'a.txt' in bucket 'invoices': the credentials need s3:GetObject (and s3:ListBucket to tell a missing object from a refused one).",
    });
    expect((await refused({ operation: 'list', bucket: 'invoices' }))?.message).toMatch(
      /need s3:ListBucket\.$/,
    );
    expect(
      (
        await refused(
          { operation: 'upload', bucket: 'invoices', objectKey: 'a.txt', fileParameter: 'f' },
          { f: fileValue('a', 'text/plain', 'a') },
        )
      )?.message,
    ).toMatch(/need s3:PutObject\.$/);
    expect(requests).toEqual([
      'GET /invoices/a.txt?x-id=GetObject',
      'GET /invoices/?list-type=2&max-keys=1000',
      'PUT /invoices/a.txt?x-id=PutObject',
    ]);
  });
});
