/**
 * Execution payloads on AWS (decision 0056): one object per payload in the payload bucket (encrypted,
 * expired by its lifecycle rule), downloaded by presigned GET URLs so no Lambda response carries them.
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { PayloadStore } from '../../domain/ports.ts';
import { checkBlobKey } from './key.ts';
import { S3BlobStore } from './s3-blob-store.ts';

export class S3PayloadStore implements PayloadStore {
  private readonly blobs: S3BlobStore;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {
    this.blobs = new S3BlobStore(client, bucket);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkBlobKey(key),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: 'application/json; charset=utf-8',
        ServerSideEncryption: 'AES256',
      }),
    );
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return this.blobs.get(key);
  }

  downloadUrl(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }), {
      expiresIn: seconds,
    });
  }
}
