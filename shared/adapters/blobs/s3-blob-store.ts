/**
 * Blobs on AWS: one S3 object per key in the stack's bucket (encrypted, private). The client is
 * made once per container by the composition root.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { BlobStore } from '../../domain/ports.ts';
import { checkBlobKey } from './key.ts';

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    // A PutObject is atomic: readers see the old object or the whole new one.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkBlobKey(key),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }),
      );
      if (!object.Body) return new Uint8Array();
      return await object.Body.transformToByteArray();
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }));
  }
}
