/**
 * Audit anchors in S3 (decision 0182): one object per anchoring, `audit-anchors/<time>.json`, in a
 * bucket with Object Lock in compliance mode by default, so no one (the account's root included) can
 * overwrite or delete it before its retention ends. The SHA-256 checksum is the one S3 checks on
 * arrival and keeps with the object.
 */
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { AnchorRecord, AnchorSink } from '../../domain/audit-chain/anchor.ts';

export const anchorKeyOf = (record: AnchorRecord) => `audit-anchors/${record.anchoredAt}.json`;

export function s3AnchorSink(client: S3Client, bucket: string): AnchorSink {
  return {
    async write(record) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: anchorKeyOf(record),
          Body: JSON.stringify(record),
          ContentType: 'application/json',
          ChecksumAlgorithm: 'SHA256',
        }),
      );
    },
  };
}
