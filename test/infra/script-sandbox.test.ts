/** The sandbox function's role grants nothing; only the action runners may invoke it. */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { ScriptSandbox } from '../../infra/constructs/script-sandbox.ts';

let template: Template;
let sandboxRoleId: string;

beforeAll(() => {
  const stack = new Stack(new App(), 'SandboxTest', {
    env: { account: '123456789012', region: 'ap-northeast-1' },
  });
  const sandbox = new ScriptSandbox(stack, 'ScriptSandbox');
  const runner = new LambdaFunction(stack, 'Runner', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('export const handler = async () => {};'),
  });
  sandbox.allowInvoke(runner);
  template = Template.fromStack(stack);
  sandboxRoleId = stack.getLogicalId(sandbox.function.role!.node.defaultChild as never);
}, 120_000);

describe('the script sandbox function', () => {
  it('has a role with no policy at all', () => {
    const role = template.findResources('AWS::IAM::Role')[sandboxRoleId];
    expect(role?.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role?.Properties.Policies).toBeUndefined();
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    for (const policy of policies) {
      expect(JSON.stringify(policy.Properties.Roles)).not.toContain(sandboxRoleId);
    }
  });

  it('holds nothing of Dogu’s in its environment, only where its interpreter is', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment?.Variables?.QUICKJS_WASM_PATH,
    );
    expect(functions).toHaveLength(1);
    expect(functions[0]!.Properties.Environment.Variables).toEqual({
      QUICKJS_WASM_PATH: '/var/task/quickjs.wasm',
    });
  });

  it('may be invoked by an action runner, which learns its name', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toEqual(
      expect.arrayContaining([expect.objectContaining({ Action: 'lambda:InvokeFunction', Effect: 'Allow' })]),
    );
    const runner = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (fn) => fn.Properties.Environment?.Variables?.DOGU_SANDBOX_FUNCTION,
    );
    expect(runner).toBeDefined();
  });
});
