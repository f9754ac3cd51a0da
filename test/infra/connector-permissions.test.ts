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
import { DoguStack } from '../../infra/dogu-stack.ts';
import { athena } from '../../shared/connectors/athena/index.ts';

interface Statement {
  Action: string | string[];
  Resource: unknown;
}
type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

const env = { account: '123456789012', region: 'ap-northeast-1' };
const actionRunnerHandlers = ['execute-action', 'review-requests', 'cron-jobs', 'reservations', 'batches'];
let withRole: DoguStack;
let withoutRole: DoguStack;

beforeAll(() => {
  // Nothing is bundled: only IAM policies are read (the resource count is dogu-stack.test.ts's concern).
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:stackResourceLimit': 1000 },
  });
  withRole = new DoguStack(app, 'Dogu-athena', { stage: 'athena', env, functionRoleKinds: ['athena'] });
  withoutRole = new DoguStack(app, 'Dogu-keys', { stage: 'keys', env });
}, 120_000);

/** Every action a function's role allows on '*'. */
function wildcardActions(stack: DoguStack, fn: LambdaFunction): string[] {
  const resources = Template.fromStack(stack).toJSON().Resources as Resources;
  const roleId = (
    resources[stack.getLogicalId(fn.node.defaultChild as CfnFunction)]!.Properties.Role as {
      'Fn::GetAtt': string[];
    }
  )['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && isDeepStrictEqual(r.Properties.Roles, [{ Ref: roleId }]))
    .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .filter((s) => [s.Resource].flat().includes('*'))
    .flatMap((s) => [s.Action].flat());
}

describe('connector cloud permissions', () => {
  it('grants the Athena, Glue and S3 rights to the functions that run actions, and to no other', () => {
    const granted = connectorPermissions(['athena']);
    expect(granted).toEqual([...athena.cloudPermissions].sort());
    for (const [handler, fn] of withRole.functionsByHandler) {
      const actions = wildcardActions(withRole, fn as LambdaFunction);
      if (actionRunnerHandlers.includes(handler))
        expect(actions, handler).toEqual(expect.arrayContaining(granted));
      else
        expect(
          actions.filter((a) => /^(athena|glue):/.test(a)),
          handler,
        ).toEqual([]);
    }
    for (const worker of withRole.scheduling.actionRunners)
      expect(wildcardActions(withRole, worker)).toEqual(expect.arrayContaining(granted));
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
