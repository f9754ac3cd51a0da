/**
 * One bucket for the access logs of the stack's own buckets and of CloudFront (standard logs carry
 * each viewer's address). CloudFront's legacy logging writes with ACLs, so the bucket allows the
 * bucket-owner-preferred ownership; it is private, encrypted and TLS-only, and logs expire.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';

/** How long access logs are kept. */
export const accessLogDays = 90;

export class LogBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: { retain: boolean }) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(accessLogDays) }],
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    acknowledge(
      this.bucket,
      'S1',
      'This is the access-log bucket; logging its own access would log the logs.',
    );
  }
}
