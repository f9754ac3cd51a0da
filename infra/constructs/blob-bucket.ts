/**
 * The bucket of the blob store (shared/adapters/blobs/s3-blob-store.ts): uploaded data-source files
 * such as protosets, too large for table items. Private, encrypted, TLS only, and retained like the
 * table: deleting a stack never deletes data (docs/decisions/0033).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** The variable shared/runtime/aws-services.ts reads; set only on functions granted the bucket. */
export const blobBucketEnv = 'DOGU_BLOB_BUCKET';

export class BlobBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: { logBucket?: IBucket } = {}) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      ...(props.logBucket
        ? { serverAccessLogsBucket: props.logBucket, serverAccessLogsPrefix: 'blobs/' }
        : {}),
    });
  }

  /** Functions that only read files (those that run actions). */
  allowRead(fn: LambdaFunction): void {
    this.bucket.grantRead(fn as IGrantable);
    fn.addEnvironment(blobBucketEnv, this.bucket.bucketName);
  }

  /** Functions that keep and delete files (uploads, file management). */
  allowReadWrite(fn: LambdaFunction): void {
    this.bucket.grantReadWrite(fn as IGrantable);
    this.bucket.grantDelete(fn as IGrantable);
    fn.addEnvironment(blobBucketEnv, this.bucket.bucketName);
  }
}
