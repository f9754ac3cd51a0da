import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../shared/adapters/blobs/local-blob-store.ts';
import { S3BlobStore } from '../../shared/adapters/blobs/s3-blob-store.ts';
import { tempDir } from '../support/runtime.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('LocalBlobStore', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let blobs: LocalBlobStore;
  beforeAll(async () => {
    dir = await tempDir('blobs');
    blobs = new LocalBlobStore(join(dir.path, 'blobs'));
  });
  afterAll(() => dir.remove());

  it('writes a file only this user can read, replaces it whole, reads and deletes it', async () => {
    await blobs.put('files/demo/ds/v1', bytes('first'));
    const path = join(dir.path, 'blobs', 'files', 'demo', 'ds', 'v1');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await blobs.put('files/demo/ds/v1', bytes('second'));
    expect(new TextDecoder().decode(await blobs.get('files/demo/ds/v1'))).toBe('second');
    // No temporary file is left beside it.
    expect(await readdir(join(dir.path, 'blobs', 'files', 'demo', 'ds'))).toEqual(['v1']);
    await blobs.delete('files/demo/ds/v1');
    expect(await blobs.get('files/demo/ds/v1')).toBeUndefined();
    await blobs.delete('files/demo/ds/v1'); // deleting twice is no error
  });

  it('leaves neither a partial file nor a temporary one when the final rename fails', async () => {
    // A directory where the file should go makes the rename fail after the bytes were written.
    await mkdir(join(dir.path, 'blobs', 'taken', 'v1'), { recursive: true });
    await expect(blobs.put('taken/v1', bytes('x'.repeat(100_000)))).rejects.toThrow();
    expect(await readdir(join(dir.path, 'blobs', 'taken'))).toEqual(['v1']);
    expect((await stat(join(dir.path, 'blobs', 'taken', 'v1'))).isDirectory()).toBe(true);
  });

  it('removes what a crash left mid-write, and only that', async () => {
    await blobs.put('kept/v1', bytes('whole'));
    await writeFile(join(dir.path, 'blobs', 'kept', 'v2.0a1b2c3d4e5f.partial'), 'half');
    expect(await blobs.removeLeftovers()).toBe(1);
    expect(await readdir(join(dir.path, 'blobs', 'kept'))).toEqual(['v1']);
    expect(await new LocalBlobStore(join(dir.path, 'none')).removeLeftovers()).toBe(0);
  });

  it('refuses keys that could leave its directory', async () => {
    for (const key of ['../escape', 'a/../../b', '/abs', 'a//b', '']) {
      await expect(blobs.put(key, bytes('x'))).rejects.toThrow('Not a blob key');
    }
    expect(await readdir(dir.path)).toEqual(['blobs']);
  });
});

describe('S3BlobStore', () => {
  const s3 = mockClient(S3Client);
  afterEach(() => s3.reset());
  const store = new S3BlobStore(new S3Client({ region: 'ap-northeast-1' }), 'dogu-blobs');

  it('puts the whole object with its length', async () => {
    s3.on(PutObjectCommand).resolves({});
    await store.put('files/demo/ds/v1', bytes('protoset'));
    const calls = s3.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Bucket: 'dogu-blobs',
      Key: 'files/demo/ds/v1',
      Body: bytes('protoset'),
      ContentLength: 8,
      ContentType: 'application/octet-stream',
    });
  });

  it('gets the bytes, and undefined for a missing key', async () => {
    s3.on(GetObjectCommand, { Bucket: 'dogu-blobs', Key: 'files/demo/ds/v1' }).resolves({
      // The SDK's streaming body, as far as the store uses it.
      Body: { transformToByteArray: async () => bytes('protoset') } as never,
    });
    s3.on(GetObjectCommand, { Bucket: 'dogu-blobs', Key: 'files/demo/ds/gone' }).rejects(
      new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} }),
    );
    expect(new TextDecoder().decode(await store.get('files/demo/ds/v1'))).toBe('protoset');
    expect(await store.get('files/demo/ds/gone')).toBeUndefined();
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'dogu-blobs', Key: 'files/demo/ds/v1' },
      { Bucket: 'dogu-blobs', Key: 'files/demo/ds/gone' },
    ]);
  });

  it('passes other errors on, deletes by key, and refuses bad keys before calling S3', async () => {
    s3.on(GetObjectCommand).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied' }));
    await expect(store.get('files/x')).rejects.toThrow('Access Denied');
    s3.on(DeleteObjectCommand).resolves({});
    await store.delete('files/demo/ds/v1');
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: 'dogu-blobs',
      Key: 'files/demo/ds/v1',
    });
    await expect(store.put('../x', bytes('x'))).rejects.toThrow('Not a blob key');
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
});
