/**
 * cdk-nag's AwsSolutions checks (decision 0054): `cdk synth` and test/infra/nag.test.ts run them and
 * fail on any finding not acknowledged here or next to the construct it concerns, each with its reason.
 *
 * Wildcard findings (AwsSolutions-IAM5) name logical ids and ARNs, one finding per wildcard; cdk-nag 3
 * acknowledges them one by one. This aspect computes them with cdk-nag's own rule and acknowledges
 * those matching a pattern of `wildcardReasons`; a new wildcard that matches none still fails.
 */
import { CfnResource, type IAspect, Validations } from 'aws-cdk-lib';
import { CfnManagedPolicy, CfnPolicy, CfnRole } from 'aws-cdk-lib/aws-iam';
import { rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** Acknowledges one AwsSolutions rule on a construct and everything under it. */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}

/** Each intended kind of wildcard, and why it is there. The first matching pattern gives the reason. */
export const wildcardReasons: readonly (readonly [RegExp, string])[] = [
  [
    /^Resource::<[A-Za-z0-9]+\.Arn>:\*$/,
    'lambda:InvokeFunction on a function ARN also needs its versions and aliases (`:*`), as CDK grants it.',
  ],
  [
    /^Resource::<DataTable[A-Za-z0-9]+\.Arn>\/index\/\*$/,
    'Queries may use any index of the one Dogu table (tableSchema.indexes); the table itself is named.',
  ],
  [
    /^Action::kms:(ReEncrypt|GenerateDataKey)\*$/,
    'DynamoDB needs these to write an encrypted table; the statement is limited to kms:ViaService dynamodb.',
  ],
  [
    /^Resource::arn:<AWS::Partition>:ses:[^:]+:[^:]+:(identity|configuration-set)\/\*$/,
    'The sender identity of notifications and invitations is set at run time (docs/notifications.md); only SendEmail.',
  ],
  [
    /^Resource::arn:<AWS::Partition>:scheduler:[^:]+:[^:]+:schedule(-group)?\/dogu-[a-z0-9-]+\.\*(\/\*)?$/,
    "Schedules are made at run time, one group per project, all under this stage's prefix (infra/scheduling.ts).",
  ],
  [
    /^Resource::<(Blobs|Console)[A-Za-z0-9]+\.Arn>\/\*$/,
    'Objects of one named bucket: uploaded files are keyed by project and file at run time.',
  ],
  [
    /^Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort|PutObjectLegalHold|PutObjectRetention|PutObjectTagging|PutObjectVersionTagging)\*$/,
    "CDK's bucket grants (grantRead, grantReadWrite, grantDelete) on one named bucket.",
  ],
  [
    /^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-[^/]+\/\*$/,
    "CDK's BucketDeployment reads the console's build from the bootstrap asset bucket.",
  ],
  [
    /^Resource::arn:<AWS::Partition>:states:[^:]+:[^:]+:execution:.*:\*$/,
    'A distributed map starts and reads child executions of its own state machine, named at run time.',
  ],
  [
    /^Resource::\*$/,
    'Only actions IAM cannot scope to a resource: X-Ray trace upload, Step Functions log delivery, scheduler:ListSchedules, ec2 network interfaces of VPC functions, and the connector rights an operator opts into (functionRoleKinds).',
  ],
];

/** Finds IAM5 findings on policies and acknowledges those of `wildcardReasons`. */
export class WildcardAcknowledgements implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnResource)) return;
    if (!(node instanceof CfnPolicy || node instanceof CfnRole || node instanceof CfnManagedPolicy)) return;
    const findings: unknown = rules.iam.IAMNoWildcardPermissions(node);
    if (!Array.isArray(findings)) return;
    for (const finding of findings as string[]) {
      const match = wildcardReasons.find(([pattern]) => pattern.test(finding));
      if (match) acknowledge(node, `IAM5[${finding}]`, match[1]);
    }
  }
}
