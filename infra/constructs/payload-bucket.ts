/**
 * The payload bucket (decision 0056): execution arguments and results too large for a table item or
 * a Lambda response (shared/adapters/blobs/s3-payload-store.ts), under `executions/`. Private,
 * encrypted, TLS only; objects expire after `payloadRetentionDays` (a job's rows in the table expire
 * alike). Readers get presigned GET URLs signed by the function that answers the link.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** The variable shared/runtime/groups/execution-payloads.ts reads. */
export const payloadBucketEnv = 'DOGU_PAYLOAD_BUCKET';
export const payloadRetentionDays = 90;
const prefix = 'executions/*';

export class PayloadBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: { logBucket: IBucket }) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [
        {
          id: 'expire-payloads',
          expiration: Duration.days(payloadRetentionDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      // Retained like the other buckets: deleting a stack never deletes data (the lifecycle empties it).
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'payloads/',
    });
  }

  /**
   * The roles of functions that run actions (need-sets with 'execution-payloads' and 'run-actions',
   * infra/function-needs.ts): they keep large payloads and may answer their links.
   */
  allowWrite(role: IGrantable): void {
    this.#grant(role, ['s3:PutObject', 's3:GetObject']);
  }

  /** The roles of functions that only answer links (presigned GETs are signed with their own rights). */
  allowRead(role: IGrantable): void {
    this.#grant(role, ['s3:GetObject']);
  }

  /**
   * Object actions under executions/ only, not CDK's grantRead/grantPut (which add List and
   * GetBucket* on the bucket, and tagging, retention and legal-hold puts): nothing here lists keys,
   * and a payload is read only after its execution record says it was stored.
   */
  #grant(role: IGrantable, actions: string[]): void {
    Grant.addToPrincipal({ grantee: role, actions, resourceArns: [this.bucket.arnForObjects(prefix)] });
  }

  /** The bucket's name, for a function that composes the execution-payloads group. */
  tell(fn: LambdaFunction): void {
    fn.addEnvironment(payloadBucketEnv, this.bucket.bucketName);
  }
}
