/**
 * The data-source kinds' cloud rights (cloudPermissions) in the synthesized stack: granted to the
 * functions that run actions only, and only for the kinds named in `functionRoleKinds`.
 */
import { isDeepStrictEqual } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectorPermissions } from '../../infra/connector-permissions.ts';
import { actionRunners, DoguStack } from '../../infra/dogu-stack.ts';
import { athena } from '../../shared/connectors/athena/index.ts';

interface Statement {
  Action: string | string[];
  Resource: unknown;
}
type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

const env = { account: '123456789012', region: 'ap-northeast-1' };
const resources = {
  athenaWorkgroups: ['analysts'],
  glueDatabases: ['sales', 'ops'],
  dataBuckets: ['corp-data', 'corp-athena-results'],
};
// The functions that run actions or test connections (one shared role, decision 0022).
const actionRunnerHandlers: readonly string[] = actionRunners;
let withRole: DoguStack;
let withoutRole: DoguStack;

beforeAll(() => {
  // Nothing is bundled: only IAM policies are read (the resource count is dogu-stack.test.ts's concern).
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:stackResourceLimit': 1000 },
  });
  withRole = new DoguStack(app, 'Dogu-athena', {
    stage: 'athena',
    env,
    functionRoleKinds: ['athena'],
    connectorResources: resources,
  });
  withoutRole = new DoguStack(app, 'Dogu-keys', { stage: 'keys', env });
}, 120_000);

/** Every statement of a function's role. */
function statementsOf(stack: DoguStack, fn: LambdaFunction): Statement[] {
  const resources = Template.fromStack(stack).toJSON().Resources as Resources;
  const roleId = (
    resources[stack.getLogicalId(fn.node.defaultChild as CfnFunction)]!.Properties.Role as {
      'Fn::GetAtt': string[];
    }
  )['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && isDeepStrictEqual(r.Properties.Roles, [{ Ref: roleId }]))
    .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

/** Every action a function's role allows on '*'. */
const wildcardActions = (stack: DoguStack, fn: LambdaFunction) =>
  statementsOf(stack, fn)
    .filter((s) => [s.Resource].flat().includes('*'))
    .flatMap((s) => [s.Action].flat());

/** An ARN as text, the partition's reference written as `aws`. */
function arnText(resource: unknown): string {
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return String(resource);
  return join[1].map((part) => (typeof part === 'string' ? part : 'aws')).join('');
}

/** The resources each granted connector action is allowed on, as text. */
function resourcesByAction(stack: DoguStack, fn: LambdaFunction): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const s of statementsOf(stack, fn)) {
    for (const action of [s.Action].flat()) {
      if (!/^(athena|glue|s3):/.test(action)) continue;
      const text = [s.Resource].flat().map(arnText);
      found.set(action, [...(found.get(action) ?? []), ...text]);
    }
  }
  return found;
}

describe('connector cloud permissions', () => {
  it('grants the Athena, Glue and S3 rights to the functions that run actions, and to no other', () => {
    const granted = connectorPermissions(['athena']);
    expect(granted).toEqual([...athena.cloudPermissions].sort());
    for (const [handler, fn] of withRole.functionsByHandler) {
      const actions = [...resourcesByAction(withRole, fn as LambdaFunction).keys()];
      if (actionRunnerHandlers.includes(handler))
        expect(actions.sort(), handler).toEqual(expect.arrayContaining(granted));
      else
        expect(
          actions.filter((a) => /^(athena|glue):/.test(a)),
          handler,
        ).toEqual([]);
    }
    for (const worker of withRole.scheduling.actionRunners)
      expect([...resourcesByAction(withRole, worker).keys()]).toEqual(expect.arrayContaining(granted));
  });

  it('scopes them to the workgroups, Glue databases and buckets named, never "*"', () => {
    const fn = withRole.functionsByHandler.get('execute-action') as LambdaFunction;
    expect(wildcardActions(withRole, fn).filter((a) => /^(athena|glue|s3):/.test(a))).toEqual([]);
    const byAction = resourcesByAction(withRole, fn);
    const arn = (service: string, rest: string) => `arn:aws:${service}:ap-northeast-1:123456789012:${rest}`;
    expect(byAction.get('athena:StartQueryExecution')).toEqual([
      arn('athena', 'workgroup/analysts'),
      arn('athena', 'datacatalog/AwsDataCatalog'),
    ]);
    expect(byAction.get('glue:GetTable')).toEqual([
      arn('glue', 'catalog'),
      arn('glue', 'database/sales'),
      arn('glue', 'database/ops'),
      arn('glue', 'table/sales/*'),
      arn('glue', 'table/ops/*'),
    ]);
    const partition = (bucket: string) => `arn:aws:s3:::${bucket}`;
    expect(byAction.get('s3:ListBucket')).toEqual([partition('corp-data'), partition('corp-athena-results')]);
    // (The role reads Dogu's own buckets too, under their own statements.)
    expect(byAction.get('s3:GetObject')).toEqual(
      expect.arrayContaining([partition('corp-data/*'), partition('corp-athena-results/*')]),
    );
  });

  it('refuses to synthesize the rights without the resources to scope them to', () => {
    const app = new App({
      builtinCloudFormationValidation: false,
      context: { 'aws:cdk:bundling-stacks': [] },
    });
    expect(
      () => new DoguStack(app, 'Dogu-unscoped', { stage: 'unscoped', env, functionRoleKinds: ['athena'] }),
    ).toThrow(/functionRoleKinds needs Glue databases to scope its rights: set context 'glueDatabases'/);
  });

  it('grants none of them when every data source brings its own keys (the default)', () => {
    for (const fn of [...withoutRole.functionsByHandler.values(), ...withoutRole.scheduling.actionRunners]) {
      expect(
        wildcardActions(withoutRole, fn as LambdaFunction).filter((a) => /^(athena|glue|s3):/.test(a)),
      ).toEqual([]);
    }
  });

  it('refuses a kind it does not know', () => {
    expect(() => connectorPermissions(['oracle'])).toThrow(
      'functionRoleKinds names unknown data-source kinds: oracle.',
    );
  });
});
