/**
 * cdk-nag's AwsSolutions checks (decision 0054): `cdk synth` and test/infra/nag.test.ts run them and
 * fail on any finding not acknowledged here or next to the construct it concerns, each with its reason.
 *
 * Wildcard findings (AwsSolutions-IAM5) name logical ids and ARNs, one finding per wildcard; cdk-nag 3
 * acknowledges them one by one. This aspect computes them with cdk-nag's own rule and acknowledges
 * those matching a pattern of `wildcardReasons`; a new wildcard that matches none still fails.
 */
import { CfnResource, type IAspect, Stack, Validations } from 'aws-cdk-lib';
import { CfnManagedPolicy, CfnPolicy, CfnRole } from 'aws-cdk-lib/aws-iam';
import { rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** Acknowledges one AwsSolutions rule on a construct and everything under it. */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}

/** An account id, or its placeholder in an account-agnostic synth (`cdk synth` without credentials). */
const account = '(?:\\d{12}|<AWS::AccountId>)';
const region = '(?:[a-z]{2}(?:-[a-z]+)+-\\d|<AWS::Region>)';
/**
 * The partition: its placeholder, or its name where a pinned feature flag (cdk.json) lets CDK write
 * the partition of a known region into the ARN.
 */
const partition = '(?:aws(?:-cn|-us-gov)?|<AWS::Partition>)';

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
    new RegExp(`^Resource::arn:${partition}:ses:${region}:${account}:(identity|configuration-set)/\\*$`),
    'The sender identity of notifications and invitations is set at run time (docs/notifications.md); only SendEmail.',
  ],
  [
    new RegExp(
      `^Resource::arn:${partition}:scheduler:${region}:${account}:schedule(-group)?/dogu-[a-z0-9-]+\\.\\*(/\\*)?$`,
    ),
    "Schedules are made at run time, one group per project, all under this stage's prefix (infra/scheduling.ts).",
  ],
  [
    /^Resource::<(Blobs|Console)[A-Za-z0-9]+\.Arn>\/\*$/,
    'Objects of one named bucket: uploaded files are keyed by project and file at run time.',
  ],
  [
    /^Resource::<AuditAnchorBucket[A-Za-z0-9]+\.Arn>\/audit-anchors\/\*$/,
    'New audit anchors, named by their time at run time (decision 0182); only s3:PutObject, only for the anchoring function, and Object Lock keeps every version.',
  ],
  [
    /^Resource::<Payloads[A-Za-z0-9]+\.Arn>\/executions\/\*$/,
    'Objects under executions/ of the payload bucket, keyed by execution id at run time; granted only to the roles of the need-sets that compose execution-payloads.',
  ],
  [
    /^Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort|PutObjectLegalHold|PutObjectRetention|PutObjectTagging|PutObjectVersionTagging)\*$/,
    "CDK's bucket grants (grantRead, grantReadWrite, grantDelete) on one named bucket.",
  ],
  [
    new RegExp(`^Resource::arn:${partition}:s3:::cdk-[a-z0-9]+-assets-${account}-${region}/\\*$`),
    "CDK's BucketDeployment reads the console's build from the bootstrap asset bucket.",
  ],
  [
    new RegExp(`^Resource::arn:${partition}:ec2:${region}:${account}:network-interface/\\*$`),
    "CodeBuild attaches a long-job build's network interface, made at run time; limited to ec2:AuthorizedService codebuild and Dogu's subnets.",
  ],
  [
    new RegExp(`^Resource::arn:${partition}:glue:${region}:${account}:table/[A-Za-z0-9._-]+/\\*$`),
    'The tables of one Glue database the operator named (context glueDatabases): queries name tables at run time.',
  ],
  [
    new RegExp(`^Resource::arn:${partition}:s3:::[A-Za-z0-9._-]+/\\*$`),
    'Objects of a data or result bucket the operator named (context dataBuckets): Athena reads and writes them for the query.',
  ],
  [
    new RegExp(`^Resource::arn:${partition}:states:${region}:${account}:execution:.*:\\*$`),
    'A distributed map starts and reads child executions of its own state machine, named at run time.',
  ],
];

/**
 * Actions that may be granted on '*' (IAM has no resource type for them). The connector rights an
 * operator opts into with functionRoleKinds are scoped to named resources (decision 0102), so a '*'
 * statement with any other action stays a finding.
 */
export const actionsAllowedOnAnyResource: readonly RegExp[] = [
  /^xray:(PutTraceSegments|PutTelemetryRecords|GetSamplingRules|GetSamplingTargets)$/,
  /^logs:(CreateLogDelivery|GetLogDelivery|UpdateLogDelivery|DeleteLogDelivery|ListLogDeliveries|PutResourcePolicy|DescribeResourcePolicies|DescribeLogGroups)$/,
  /^scheduler:ListSchedules$/,
  // CDK's BucketDeployment invalidates the console's index.html after a deploy.
  /^cloudfront:(CreateInvalidation|GetInvalidation)$/,
  /^ec2:(CreateNetworkInterface|DescribeNetworkInterfaces|DescribeSubnets|DeleteNetworkInterface|AssignPrivateIpAddresses|UnassignPrivateIpAddresses)$/,
  // CodeBuild's VPC placement of long-job builds (infra/constructs/long-job-runner.ts, decision 0075).
  /^ec2:(DescribeDhcpOptions|DescribeSecurityGroups|DescribeVpcs)$/,
  // The origin-verify rotation's new value (infra/constructs/origin-verify-rotation.ts): reads no secret.
  /^secretsmanager:GetRandomPassword$/,
];

const anyResourceReason =
  "Only actions IAM cannot scope to a resource (X-Ray upload, Step Functions log delivery, scheduler:ListSchedules, Lambda's and CodeBuild's VPC network interfaces, CDK's CloudFront invalidation after a deploy, Secrets Manager's random password for a rotation); checked action by action in infra/nag.ts.";

interface PolicyStatementJson {
  Effect?: string;
  Action?: string | string[];
  Resource?: unknown;
}

/** The statements of a policy resource, resolved. */
function statementsOf(node: CfnPolicy | CfnRole | CfnManagedPolicy): PolicyStatementJson[] {
  const stack = Stack.of(node);
  const documents: unknown[] =
    node instanceof CfnRole
      ? ((stack.resolve(node.policies) as { policyDocument: unknown }[] | undefined) ?? []).map(
          (p) => p.policyDocument,
        )
      : [node.policyDocument];
  return documents.flatMap(
    (doc) => (stack.resolve(doc) as { Statement?: PolicyStatementJson[] } | undefined)?.Statement ?? [],
  );
}

/** Whether every action granted on '*' in this policy is one of actionsAllowedOnAnyResource. */
function onlyUnscopableActionsOnAnyResource(node: CfnPolicy | CfnRole | CfnManagedPolicy): boolean {
  return statementsOf(node)
    .filter((s) => s.Effect !== 'Deny' && [s.Resource].flat().includes('*'))
    .flatMap((s) => [s.Action ?? []].flat())
    .every((action) => actionsAllowedOnAnyResource.some((pattern) => pattern.test(action)));
}

/** Finds IAM5 findings on policies and acknowledges those of `wildcardReasons`. */
export class WildcardAcknowledgements implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnResource)) return;
    if (!(node instanceof CfnPolicy || node instanceof CfnRole || node instanceof CfnManagedPolicy)) return;
    const findings: unknown = rules.iam.IAMNoWildcardPermissions(node);
    if (!Array.isArray(findings)) return;
    for (const finding of findings as string[]) {
      if (finding === 'Resource::*') {
        if (onlyUnscopableActionsOnAnyResource(node))
          acknowledge(node, 'IAM5[Resource::*]', anyResourceReason);
        continue;
      }
      const match = wildcardReasons.find(([pattern]) => pattern.test(finding));
      if (match) acknowledge(node, `IAM5[${finding}]`, match[1]);
    }
  }
}
