/**
 * Audit chain anchoring on AWS (decision 0182): a bucket with Object Lock in COMPLIANCE mode by
 * default (retention from context `auditAnchorRetentionDays`, default 400 days) and versioning, and
 * one function a scheduled rule runs every hour to write every project's chain head there. In
 * compliance mode no one, the account's root user included, can delete an object or shorten its
 * retention before it ends; an object written again under the same key is a new version.
 * Object Lock can only be turned on when a bucket is created.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectLockRetention,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { auditAnchorBucketEnv } from '../../shared/runtime/groups/audit-anchor.ts';
import type { FunctionRoles } from './function-roles.ts';
import { HandlerFunction } from './handler-function.ts';

export const defaultAnchorRetentionDays = 400;
export const anchorEvery = Duration.hours(1);

export interface AuditAnchorProps {
  environment: Record<string, string>;
  functionRoles: FunctionRoles;
  logGroup: ILogGroup;
  logBucket: IBucket;
  /** Days each anchor is locked in compliance mode (context `auditAnchorRetentionDays`). */
  retentionDays?: number;
}

export class AuditAnchor extends Construct {
  readonly bucket: Bucket;
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: AuditAnchorProps) {
    super(scope, id);
    const retentionDays = props.retentionDays ?? defaultAnchorRetentionDays;
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: true,
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(Duration.days(retentionDays)),
      // Locked objects outlive any stack: deleting the stack leaves the bucket and its anchors.
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'audit-anchors/',
    });
    const handler = 'anchor-audit-chain';
    const role = props.functionRoles.roleFor(handler);
    const worker = new HandlerFunction(this, 'Worker', {
      handler,
      timeout: Duration.minutes(1),
      environment: { ...props.environment, [auditAnchorBucketEnv]: this.bucket.bucketName },
      retainLogs: false,
      role,
      logGroup: props.logGroup,
    });
    props.functionRoles.allowLogs(role, props.logGroup);
    // Only new objects: no delete, no retention or legal-hold change, no tagging.
    role.addToPolicy(
      new PolicyStatement({
        actions: ['s3:PutObject'],
        resources: [this.bucket.arnForObjects('audit-anchors/*')],
      }),
    );
    this.function = worker.function;
    new Rule(this, 'Hourly', {
      schedule: Schedule.rate(anchorEvery),
      targets: [new LambdaTarget(this.function, { retryAttempts: 2 })],
    });
  }
}
