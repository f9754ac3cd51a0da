/**
 * Long jobs on AWS (decision 0075): the CodeBuild project the async-execution machine starts for a
 * job above a Lambda's budget. Its timeouts, Node 22 image and buildspec, the bundle as its S3
 * source, run-job's environment and role (trusting CodeBuild of this account, with only the bundle
 * added), the state machine's rights on it, and the VPC placement in VPC mode.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { longJobEnv } from '../../functions/run-long-job.ts';
import { handlerAssetOptions } from '../../infra/constructs/handler-bundle.ts';
import { longJobBuildSpec } from '../../infra/constructs/long-job-runner.ts';
import { DoguStack } from '../../infra/dogu-stack.ts';
import { originVerifySecretEnv } from '../../shared/http/viewer-ip.ts';

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
  Principal?: { Service?: string | string[] };
}

const env = { account: '123456789012', region: 'ap-northeast-1' };
let plain: DoguStack;
let existing: DoguStack;
const templates = new Map<DoguStack, Record<string, Resource>>();

beforeAll(() => {
  const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [] } });
  plain = new DoguStack(app, 'Dogu-plain', { stage: 'plain', env });
  existing = new DoguStack(app, 'Dogu-existing', {
    stage: 'existing',
    env,
    network: { mode: 'existing', vpcId: 'vpc-0abc', subnetIds: ['subnet-0aaa', 'subnet-0bbb'] },
  });
  for (const stack of [plain, existing]) {
    templates.set(stack, Template.fromStack(stack).toJSON().Resources as Record<string, Resource>);
  }
}, 180_000);

const idOf = (stack: DoguStack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnFunction);
const resourceOf = (stack: DoguStack, construct: { node: { defaultChild?: unknown } }) => {
  const resource = templates.get(stack)![idOf(stack, construct)];
  expect(resource).toBeDefined();
  return resource!;
};
const projectOf = (stack: DoguStack) => resourceOf(stack, stack.scheduling.longJobs.project);
const roleIdOf = (stack: DoguStack) =>
  (resourceOf(stack, stack.scheduling.runJob).Properties.Role as { 'Fn::GetAtt': string[] })[
    'Fn::GetAtt'
  ][0]!;
function statementsOfRole(stack: DoguStack, roleId: string): Statement[] {
  return Object.values(templates.get(stack)!)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => (r.Properties.Roles as unknown[]).some((role) => isDeepStrictEqual(role, { Ref: roleId })))
    .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}
const actionsOf = (statements: Statement[]) => statements.flatMap((s) => [s.Action].flat());
const mentions = (value: unknown, text: string) => JSON.stringify(value).includes(text);

describe('the long-job CodeBuild project', () => {
  it("runs 35 minutes at most, waits 10 in the queue, on the Node 22 managed image, logging to the workers' group", () => {
    const project = projectOf(plain);
    expect(project.Properties.TimeoutInMinutes).toBe(35);
    expect(project.Properties.QueuedTimeoutInMinutes).toBe(10);
    expect(project.Properties.Environment).toMatchObject({
      Image: 'aws/codebuild/amazonlinux-x86_64-standard:5.0',
      Type: 'LINUX_CONTAINER',
      ComputeType: 'BUILD_GENERAL1_SMALL',
    });
    const source = project.Properties.Source as { Type: string; BuildSpec: string; Location: unknown };
    expect(source.Type).toBe('S3');
    expect(JSON.parse(source.BuildSpec)).toEqual(longJobBuildSpec);
    expect(longJobBuildSpec.phases.install['runtime-versions'].nodejs).toBe('22');
    expect(project.Properties.Artifacts).toEqual({ Type: 'NO_ARTIFACTS' });
    expect(project.Properties.LogsConfig).toEqual({
      CloudWatchLogs: {
        Status: 'ENABLED',
        GroupName: { Ref: idOf(plain, plain.scheduling.logGroup) },
        StreamName: 'run-long-job',
      },
    });
  });

  it('takes the bundle of functions/run-long-job.ts, staged as an S3 asset, as its source', () => {
    const { bundle } = plain.scheduling.longJobs;
    const location = JSON.stringify(projectOf(plain).Properties.Source);
    expect(location).toContain(`${bundle.assetHash}.zip`);
    expect(location).toContain('cdk-hnb659fds-assets-123456789012-ap-northeast-1');
  });

  it("gets run-job's environment with the 30-minute job limit, without the API's origin secret", () => {
    const variables = (projectOf(plain).Properties.Environment as { EnvironmentVariables: unknown[] })
      .EnvironmentVariables as { Name: string; Value: unknown; Type: string }[];
    const byName = new Map(variables.map((v) => [v.Name, v.Value]));
    expect(byName.get('DOGU_MAX_JOB_EXECUTION_MS')).toBe(String(30 * 60_000));
    expect(variables.every((v) => v.Type === 'PLAINTEXT')).toBe(true);
    expect(byName.has(originVerifySecretEnv)).toBe(false);
    const lambda = resourceOf(plain, plain.scheduling.runJob).Properties.Environment as {
      Variables: Record<string, unknown>;
    };
    // Workers serve no HTTP request: they do not know where the origin proof is (decision 0170).
    expect(lambda.Variables[originVerifySecretEnv]).toBeUndefined();
    for (const [name, value] of Object.entries(lambda.Variables)) {
      if (name === 'DOGU_MAX_JOB_EXECUTION_MS') continue;
      expect(byName.get(name), name).toEqual(value);
    }
    expect(byName.size).toBe(Object.keys(lambda.Variables).length);
    // The job itself comes per build from the state machine, never from the project.
    for (const name of Object.values(longJobEnv)) expect(byName.has(name)).toBe(false);
  });

  it("runs as run-job's role, which CodeBuild of this account (only) may assume", () => {
    const roleId = roleIdOf(plain);
    expect(projectOf(plain).Properties.ServiceRole).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
    const trust = (
      templates.get(plain)![roleId]!.Properties.AssumeRolePolicyDocument as { Statement: Statement[] }
    ).Statement;
    expect(trust).toContainEqual(
      expect.objectContaining({
        Principal: { Service: 'codebuild.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
      }),
    );
    // No other role trusts CodeBuild.
    const trusting = Object.entries(templates.get(plain)!).filter(
      ([, r]) => r.Type === 'AWS::IAM::Role' && mentions(r.Properties.AssumeRolePolicyDocument, 'codebuild'),
    );
    expect(trusting.map(([id]) => id)).toEqual([roleId]);
  });

  it('adds to the role only the read of its own bundle: no CodeBuild, report, log-group or VPC rights', () => {
    const statements = statementsOfRole(plain, roleIdOf(plain));
    const { bundle } = plain.scheduling.longJobs;
    const onAssets = statements.filter((s) => mentions(s.Resource, 'cdk-hnb659fds-assets'));
    expect(onAssets.map((s) => [s.Action].flat()).sort()).toEqual([
      ['s3:GetBucketAcl', 's3:GetBucketLocation'],
      ['s3:GetObject', 's3:GetObjectVersion'],
    ]);
    const objectRead = onAssets.find((s) => [s.Action].flat().includes('s3:GetObject'))!;
    expect(JSON.stringify(objectRead.Resource)).toContain(`/${bundle.assetHash}.zip`);
    const actions = actionsOf(statements);
    expect(actions.filter((a) => a.startsWith('codebuild:'))).toEqual([]);
    expect(actions).not.toContain('logs:CreateLogGroup');
    expect(actions.filter((a) => a.startsWith('ec2:'))).toEqual([]);
  });

  it('may be started, watched and stopped by the async-execution machine (startBuild.sync)', () => {
    const machine = resourceOf(plain, plain.scheduling.asyncExecutions);
    const roleId = (machine.Properties.RoleArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!;
    const statements = statementsOfRole(plain, roleId);
    const projectArn = { 'Fn::GetAtt': [idOf(plain, plain.scheduling.longJobs.project), 'Arn'] };
    const build = statements.find((s) => isDeepStrictEqual(s.Resource, projectArn));
    expect([build?.Action].flat().sort()).toEqual(
      [
        'codebuild:BatchGetBuilds',
        'codebuild:BatchGetReports',
        'codebuild:StartBuild',
        'codebuild:StopBuild',
      ].sort(),
    );
    // The managed rule Step Functions uses to learn that the build ended.
    expect(mentions(statements, 'StepFunctionsGetEventForCodeBuildStartBuildRule')).toBe(true);
  });

  it('VPC mode: runs in the private subnets with the action functions’ security group, with ENI rights limited to CodeBuild there', () => {
    expect(projectOf(plain).Properties.VpcConfig).toBeUndefined();
    const vpc = projectOf(existing).Properties.VpcConfig as Record<string, unknown>;
    expect(vpc).toEqual({
      VpcId: 'vpc-0abc',
      Subnets: ['subnet-0aaa', 'subnet-0bbb'],
      SecurityGroupIds: [{ 'Fn::GetAtt': [idOf(existing, existing.network!.securityGroup), 'GroupId'] }],
    });
    const statements = statementsOfRole(existing, roleIdOf(existing));
    const permission = statements.find((s) =>
      [s.Action].flat().includes('ec2:CreateNetworkInterfacePermission'),
    )!;
    expect(permission.Condition?.StringEquals).toEqual({
      'ec2:AuthorizedService': 'codebuild.amazonaws.com',
    });
    expect(mentions(permission.Condition?.ArnEquals, 'subnet/subnet-0aaa')).toBe(true);
    expect(mentions(permission.Condition?.ArnEquals, 'subnet/subnet-0bbb')).toBe(true);
    expect(actionsOf(statements)).toEqual(
      expect.arrayContaining(['ec2:DescribeVpcs', 'ec2:DescribeDhcpOptions']),
    );
  });
});

describe('the bundle the build runs', () => {
  it('starts with the buildspec command and fails the build when the job is not named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dogu-long-job-bundle-'));
    try {
      const local = handlerAssetOptions('run-long-job').bundling!.local!;
      expect(local.tryBundle(dir, {} as never)).toBe(true);
      const [command] = longJobBuildSpec.phases.build.commands;
      const [node, ...args] = command!.split(' ');
      const run = promisify(execFile)(node === 'node' ? process.execPath : node!, args, {
        cwd: dir,
        env: { PATH: process.env.PATH, DOGU_JOB_PROJECT_ID: 'demo' },
      });
      const failure = await run.then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(`${failure?.stdout}${failure?.stderr}`).toContain('DOGU_JOB_EXECUTION_ID must name the job');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
