/**
 * Long jobs on AWS (decision 0075): a job whose own limit is above a Lambda's budget runs as an AWS
 * CodeBuild build, started by the async-execution state machine with `startBuild.sync`. Neither
 * Docker (the image is CodeBuild's managed one) nor a polling host (Step Functions waits for the
 * build) is needed. The build's source is the esbuild bundle of functions/run-long-job.ts, built
 * like every Lambda's (handler-bundle.ts) and uploaded as an S3 asset; the build runs it with
 * Node 22 for at most 30 minutes of work.
 */
import { Duration, Lazy, Stack } from 'aws-cdk-lib';
import {
  BuildSpec,
  type CfnProject,
  ComputeType,
  LinuxBuildImage,
  Project,
  Source,
} from 'aws-cdk-lib/aws-codebuild';
import { PolicyStatement, type Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';
import { repoRoot } from '../paths.ts';
import { handlerAssetOptions } from './handler-bundle.ts';
import type { Network } from './network.ts';

/** Spec 8's limit of a job: what the build's domain code gives a run (DOGU_MAX_JOB_EXECUTION_MS). */
export const longJobMaxExecutionMs = 30 * 60_000;
/** The build's own end: the 30 minutes, the start of Node and the services, and the final writes. */
export const longJobBuildTimeout = Duration.minutes(35);
/** A build that cannot start in this time (the account's CodeBuild concurrency) fails and is recorded. */
export const longJobQueuedTimeout = Duration.minutes(10);
/**
 * Amazon Linux 2023 x86_64 standard 5.0 (`aws/codebuild/amazonlinux-x86_64-standard:5.0`), a managed
 * image whose runtimes include Node.js 22, which the buildspec selects. The bundle is plain
 * JavaScript, so the architecture does not matter; CDK's arm64 constant (`AMAZON_LINUX_2_ARM_3`)
 * names the older Amazon Linux 2 image, so the x86_64 one is used (decision 0075).
 */
export const longJobImage = LinuxBuildImage.AMAZON_LINUX_2023_5;
/** The build's commands: select Node 22, run the bundle (its source maps name our sources). */
export const longJobBuildSpec = {
  version: '0.2',
  phases: {
    install: { 'runtime-versions': { nodejs: '22' } },
    build: { commands: ['node --enable-source-maps index.mjs'] },
  },
};

export interface LongJobRunnerProps {
  /** run-job's role (the same needs, so the same rights); CodeBuild is added to its trust policy. */
  role: Role;
  /** The workers' log group: builds write their output there, under `run-long-job/`. */
  logGroup: ILogGroup;
  /** run-job's function: the build gets its environment (resolved at synthesis, so later additions count). */
  environmentOf: LambdaFunction;
  /** The build's own values on top (its job limit). */
  environment: Record<string, string>;
}

export class LongJobRunner extends Construct {
  readonly project: Project;
  readonly bundle: Asset;
  readonly #role: Role;

  constructor(scope: Construct, id: string, props: LongJobRunnerProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.#role = props.role;
    this.bundle = new Asset(this, 'Bundle', { path: repoRoot, ...handlerAssetOptions('run-long-job') });

    // Only CodeBuild projects of this account may assume it (confused deputy), as Scheduler's role.
    props.role.assumeRolePolicy?.addStatements(
      new PolicyStatement({
        actions: ['sts:AssumeRole'],
        principals: [new ServicePrincipal('codebuild.amazonaws.com')],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    this.project = new Project(this, 'Project', {
      description: 'Dogu jobs longer than a Lambda can run (decision 0075)',
      source: Source.s3({ bucket: this.bundle.bucket, path: this.bundle.s3ObjectKey }),
      // The role's rights are run-job's; CDK's usual additions (report groups, its own log group,
      // the whole asset bucket) would reach every function sharing the role, so they are left out
      // and the few the build needs are granted below.
      role: props.role.withoutPolicyUpdates(),
      environment: { buildImage: longJobImage, computeType: ComputeType.SMALL },
      buildSpec: BuildSpec.fromObject(longJobBuildSpec),
      timeout: longJobBuildTimeout,
      queuedTimeout: longJobQueuedTimeout,
      logging: { cloudWatch: { logGroup: props.logGroup, prefix: 'run-long-job' } },
    });
    // The bundle, and nothing else of the assets bucket. (Logs: the role already writes the group.)
    props.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:GetObjectVersion'],
        resources: [this.bundle.bucket.arnForObjects(this.bundle.s3ObjectKey)],
      }),
    );
    props.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:GetBucketAcl', 's3:GetBucketLocation'],
        resources: [this.bundle.bucket.bucketArn],
      }),
    );

    const cfn = this.project.node.defaultChild as CfnProject;
    cfn.addPropertyOverride(
      'Environment.EnvironmentVariables',
      Lazy.any({
        produce: () => {
          const lambdaEnv = stack.resolve(
            (props.environmentOf.node.defaultChild as CfnFunction).environment,
          ) as { variables?: Record<string, unknown> } | undefined;
          const variables = { ...(lambdaEnv?.variables ?? {}), ...props.environment };
          return Object.entries(variables)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([Name, Value]) => ({ Name, Value, Type: 'PLAINTEXT' }));
        },
      }),
    );
    acknowledge(
      this.project,
      'CB4',
      "The build makes no artifacts and no cache; its logs go to the workers' log group, and what the job reads and writes is encrypted by the table's, buckets' and secrets' own keys.",
    );
  }

  /** VPC mode: the build runs in the private subnets with the action functions' security group. */
  placeIn(network: Network): void {
    const stack = Stack.of(this);
    const cfn = this.project.node.defaultChild as CfnProject;
    cfn.vpcConfig = {
      vpcId: network.vpc.vpcId,
      subnets: network.subnets.map((s) => s.subnetId),
      securityGroupIds: [network.securityGroup.securityGroupId],
    };
    // What CodeBuild needs to place a build in a VPC (its documented service-role policy).
    this.#role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [
          'ec2:CreateNetworkInterface',
          'ec2:DescribeDhcpOptions',
          'ec2:DescribeNetworkInterfaces',
          'ec2:DeleteNetworkInterface',
          'ec2:DescribeSubnets',
          'ec2:DescribeSecurityGroups',
          'ec2:DescribeVpcs',
        ],
        resources: ['*'],
      }),
    );
    this.#role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ec2:CreateNetworkInterfacePermission'],
        resources: [`arn:${stack.partition}:ec2:${stack.region}:${stack.account}:network-interface/*`],
        conditions: {
          StringEquals: {
            'ec2:AuthorizedService': 'codebuild.amazonaws.com',
          },
          ArnEquals: {
            'ec2:Subnet': network.subnets.map(
              (s) => `arn:${stack.partition}:ec2:${stack.region}:${stack.account}:subnet/${s.subnetId}`,
            ),
          },
        },
      }),
    );
  }
}
