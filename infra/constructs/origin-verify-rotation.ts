/**
 * The origin-verify secret's rotation (decision 0171): CloudFront's copy of the value in a
 * KeyValueStore (read at the edge by the API paths' viewer-request function, infra/console-hosting.ts),
 * and Secrets Manager's rotation every 30 days by functions/rotate-origin-verify.ts, which writes the
 * new value to the store before it becomes current. Neither the value nor a reference to it is in any
 * template property: CloudFormation never writes the store's contents, so a deploy cannot put an old
 * value back.
 *
 * The first value: the schedule rotates once when it is created (`rotateImmediatelyOnUpdate`), which
 * fills the store; the distribution and the function that read the store wait for the schedule (see
 * `ready`). Until the store holds a value the function sends no proof and the API refuses the request
 * as not coming through CloudFront: it fails closed.
 */
import { Duration } from 'aws-cdk-lib';
import { KeyValueStore } from 'aws-cdk-lib/aws-cloudfront';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { RotationSchedule, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { originVerifyStoreEnv } from '../../shared/http/viewer-ip.ts';
import { HandlerFunction } from './handler-function.ts';

/** How often the value changes; the previous one stays accepted until the next rotation. */
export const originVerifyRotationPeriod = Duration.days(30);

/** What the rotation function may do to the store: read its ETag and the key, write the key. */
export const storeActions = [
  'cloudfront-keyvaluestore:DescribeKeyValueStore',
  'cloudfront-keyvaluestore:GetKey',
  'cloudfront-keyvaluestore:PutKey',
];

export interface OriginVerifyRotationProps {
  secret: Secret;
  stage: string;
  /** The background functions' shared log group (the scheduling workers'): no group of its own. */
  logGroup: ILogGroup;
}

export class OriginVerifyRotation extends Construct {
  readonly store: KeyValueStore;
  readonly function: LambdaFunction;
  /** Created once the first rotation has been started (the store is being filled). */
  readonly ready: RotationSchedule;

  constructor(scope: Construct, id: string, props: OriginVerifyRotationProps) {
    super(scope, id);
    this.store = new KeyValueStore(this, 'Store', {
      comment: `Dogu (${props.stage}) origin-verify value for the API paths' viewer-request function`,
    });

    const role = new Role(this, 'Role', {
      description: `Dogu (${props.stage}) rotation of the origin-verify secret`,
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });
    const rotator = new HandlerFunction(this, 'Rotator', {
      handler: 'rotate-origin-verify',
      timeout: Duration.seconds(30),
      environment: { [originVerifyStoreEnv]: this.store.keyValueStoreArn },
      // Unused with a shared group (its removal policy is the group's own).
      retainLogs: false,
      role,
      logGroup: props.logGroup,
    });
    props.logGroup.grantWrite(role);
    this.function = rotator.function;
    role.addToPolicy(
      new PolicyStatement({ actions: storeActions, resources: [this.store.keyValueStoreArn] }),
    );

    // CDK grants the four secretsmanager actions of a rotation on this secret only, plus
    // GetRandomPassword, which reads no secret and has no resource to name (it takes `*`; infra/nag.ts).
    this.ready = props.secret.addRotationSchedule('Rotation', {
      rotationLambda: this.function,
      automaticallyAfter: originVerifyRotationPeriod,
      rotateImmediatelyOnUpdate: true,
    });
  }
}
