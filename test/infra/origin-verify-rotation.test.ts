/**
 * The origin-verify secret rotated and out of every configuration (issue 26 item 4, decision 0171),
 * over the template `cdk synth` makes (cdk.json's context; one synthesis for the file): CloudFront
 * takes the value from a KeyValueStore through the API paths' viewer-request function, Secrets
 * Manager rotates it every 30 days with a function that may touch only that secret and that store,
 * and the viewer-request function's own code, run here, sets the header from the store.
 */
import { runInNewContext } from 'node:vm';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloudfrontModuleImport, viewerRequestWithOriginProof } from '../../infra/console-hosting.ts';
import { storeActions } from '../../infra/constructs/origin-verify-rotation.ts';
import { DoguStack } from '../../infra/dogu-stack.ts';
import {
  originVerifyHeader,
  originVerifyStoreEnv,
  viewerHostHeader,
  viewerIpHeader,
} from '../../shared/http/viewer-ip.ts';
import { cdkJsonContext } from '../support/cdk-context.ts';

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  DependsOn?: string[];
}
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const env = { account: '123456789012', region: 'ap-northeast-1' };
let resources: Record<string, Resource>;
let outputs: Record<string, { Value: unknown }>;
let templateText: string;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const one = (type: string, idPrefix = '') => {
  const found = ofType(type).filter(([id]) => id.startsWith(idPrefix));
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const statementsOfRole = (roleId: string): Statement[] =>
  ofType('AWS::IAM::Policy')
    .filter(([, p]) =>
      (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })),
    )
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);

beforeAll(() => {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] },
  });
  const stack = new DoguStack(app, 'Dogu-rotation', { stage: 'rotation', env });
  const template = Template.fromStack(stack).toJSON();
  resources = template.Resources as Record<string, Resource>;
  outputs = template.Outputs as Record<string, { Value: unknown }>;
  templateText = JSON.stringify(template);
}, 180_000);

describe('the origin-verify value is in no configuration', () => {
  it('no distribution header, function environment or other property resolves the secret', () => {
    // Anywhere: the stack's other secrets are read at run time too.
    expect(templateText.includes('{{resolve:secretsmanager'), 'a secret resolved into the template').toBe(
      false,
    );
    const [, distribution] = one('AWS::CloudFront::Distribution');
    const origins = (distribution.Properties.DistributionConfig as { Origins: Record<string, unknown>[] })
      .Origins;
    for (const origin of origins) {
      expect(JSON.stringify(origin.OriginCustomHeaders ?? []), String(origin.Id)).not.toContain(
        originVerifyHeader,
      );
    }
  });

  it('the API behaviors, the execution route included, run the function that reads the store', () => {
    const [storeId, store] = one('AWS::CloudFront::KeyValueStore');
    expect(JSON.stringify(store.Properties)).not.toContain('ImportSource');
    const [functionId, edgeFunction] = ofType('AWS::CloudFront::Function').find(
      ([, f]) => f.Properties.FunctionCode === viewerRequestWithOriginProof,
    )!;
    expect(edgeFunction.Properties.FunctionConfig).toMatchObject({
      Runtime: 'cloudfront-js-2.0',
      KeyValueStoreAssociations: [{ KeyValueStoreARN: { 'Fn::GetAtt': [storeId, 'Arn'] } }],
    });
    const [, distribution] = one('AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig as {
      Origins: { Id: string; S3OriginConfig?: unknown }[];
      CacheBehaviors: { PathPattern: string; TargetOriginId: string; FunctionAssociations?: unknown[] }[];
    };
    const bucketOrigins = new Set(config.Origins.filter((o) => o.S3OriginConfig).map((o) => o.Id));
    const apiBehaviors = config.CacheBehaviors.filter((b) => !bucketOrigins.has(b.TargetOriginId));
    expect(apiBehaviors.map((b) => b.PathPattern)).toContain(
      '/public/v1/projects/*/environments/*/actions/*/executions',
    );
    expect(apiBehaviors.map((b) => b.PathPattern)).toContain('/api/*');
    for (const behavior of apiBehaviors) {
      expect(behavior.FunctionAssociations, behavior.PathPattern).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
    }
  });
});

describe('the rotation', () => {
  const secretId = () => one('AWS::SecretsManager::Secret', 'OriginVerify')[0];
  const rotator = () => {
    const found = ofType('AWS::Lambda::Function').filter(([id]) =>
      id.startsWith('OriginVerifyRotationRotator'),
    );
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('runs every 30 days through the rotation function, and once when the schedule is created', () => {
    const [scheduleId, schedule] = one('AWS::SecretsManager::RotationSchedule');
    // The secret an on-demand rotation names (docs/deploy.md, "Rotate keys").
    expect(outputs.OriginVerifySecretArn?.Value).toEqual({ Ref: secretId() });
    expect(schedule.Properties).toEqual({
      SecretId: { Ref: secretId() },
      RotationLambdaARN: { 'Fn::GetAtt': [rotator()[0], 'Arn'] },
      RotationRules: { ScheduleExpression: 'rate(30 days)' },
      RotateImmediatelyOnUpdate: true,
    });
    // Secrets Manager may invoke the function; the first rotation fills the store before the
    // distribution and the function that reads it are made or changed.
    const permissions = ofType('AWS::Lambda::Permission').filter(
      ([, p]) =>
        JSON.stringify(p.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [rotator()[0], 'Arn'] }),
    );
    expect(permissions.map(([, p]) => p.Properties.Principal)).toEqual(['secretsmanager.amazonaws.com']);
    const [distributionId, distribution] = one('AWS::CloudFront::Distribution');
    expect(distribution.DependsOn, distributionId).toContain(scheduleId);
    const [functionId, edgeFunction] = ofType('AWS::CloudFront::Function').find(
      ([, f]) => f.Properties.FunctionCode === viewerRequestWithOriginProof,
    )!;
    expect(edgeFunction.DependsOn, functionId).toContain(scheduleId);
  });

  it('the function knows only the store, and may touch only that secret and that store', () => {
    const [, fn] = rotator();
    expect(fn.Properties.LoggingConfig).toMatchObject({
      LogGroup: { Ref: one('AWS::Logs::LogGroup', 'SchedulingWorkerFunctionLogs')[0] },
    });
    const [storeId] = one('AWS::CloudFront::KeyValueStore');
    const store = { 'Fn::GetAtt': [storeId, 'Arn'] };
    expect(
      (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables[originVerifyStoreEnv],
    ).toEqual(store);
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const statements = statementsOfRole(roleId);
    const actionsOn = (resource: unknown) =>
      statements
        .filter((s) => JSON.stringify(s.Resource) === JSON.stringify(resource))
        .flatMap((s) => [s.Action].flat())
        .sort();
    expect(actionsOn({ Ref: secretId() })).toEqual([
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
      'secretsmanager:PutSecretValue',
      'secretsmanager:UpdateSecretVersionStage',
    ]);
    expect(actionsOn(store)).toEqual([...storeActions].sort());
    expect(storeActions).toEqual([
      'cloudfront-keyvaluestore:DescribeKeyValueStore',
      'cloudfront-keyvaluestore:GetKey',
      'cloudfront-keyvaluestore:PutKey',
    ]);
    const everything = statements.flatMap((s) =>
      [s.Action].flat().map((action) => [action, s.Resource] as const),
    );
    for (const [action, resource] of everything) {
      if (action.startsWith('secretsmanager:') && action !== 'secretsmanager:GetRandomPassword') {
        expect(resource, action).toEqual({ Ref: secretId() });
      } else if (action.startsWith('cloudfront-keyvaluestore:')) {
        expect(resource, action).toEqual(store);
      } else if (resource === '*') {
        // IAM has no resource for these: a random password, X-Ray segments.
        expect(action).toMatch(/^(secretsmanager:GetRandomPassword|xray:[A-Za-z]+)$/);
      } else {
        // Its logs go to the background functions' shared group.
        expect(action, JSON.stringify(resource)).toMatch(/^logs:(CreateLogStream|PutLogEvents)$/);
        expect(resource).toEqual({
          'Fn::GetAtt': [one('AWS::Logs::LogGroup', 'SchedulingWorkerFunctionLogs')[0], 'Arn'],
        });
      }
    }
    // Nothing else in the stack may write the secret or the store.
    for (const [id, policy] of ofType('AWS::IAM::Policy')) {
      const text = JSON.stringify(policy.Properties.PolicyDocument);
      if (
        (policy.Properties.Roles as unknown[]).some(
          (r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId }),
        )
      )
        continue;
      expect(text, id).not.toContain('cloudfront-keyvaluestore:');
      expect(text, id).not.toContain('secretsmanager:PutSecretValue');
    }
  });
});

describe("the API paths' viewer-request function", () => {
  /**
   * Runs the function's code as CloudFront would, with `cf` (the runtime's module) standing for a
   * store holding `values`. The import line is the module system's, which a plain script lacks.
   */
  const run = async (values: Record<string, string>, headers: Record<string, { value: string }>) => {
    const [first, ...rest] = viewerRequestWithOriginProof.split('\n');
    expect(first).toBe(cloudfrontModuleImport);
    const reads: string[] = [];
    const cf = {
      kvs: () => ({
        get: async (key: string) => {
          reads.push(key);
          if (!(key in values)) throw new Error(`The key ${key} does not exist`);
          return values[key];
        },
      }),
    };
    const request = (await runInNewContext(
      `${rest.join('\n')}; handler({ viewer: { ip: '203.0.113.7' }, request: { uri: '/api/x', headers: ${JSON.stringify(headers)} } })`,
      { cf },
    )) as { headers: Record<string, { value: string }> };
    return { headers: request.headers, reads };
  };

  it("sets the store's value as the origin proof and the viewer's address, over what the client sent", async () => {
    const { headers, reads } = await run(
      { 'origin-verify': 'fr0mTheSt0re' },
      {
        [originVerifyHeader]: { value: 'guessed' },
        [viewerIpHeader]: { value: '10.0.0.1' },
        [viewerHostHeader]: { value: 'evil.example' },
        host: { value: 'tools.example.com' },
      },
    );
    expect(reads).toEqual(['origin-verify']);
    expect(headers[originVerifyHeader]).toEqual({ value: 'fr0mTheSt0re' });
    expect(headers[viewerIpHeader]).toEqual({ value: '203.0.113.7' });
    expect(headers[viewerHostHeader]).toEqual({ value: 'tools.example.com' });
  });

  it('sends no proof at all while the store holds no value (the API then refuses: fails closed)', async () => {
    const { headers } = await run({}, { [originVerifyHeader]: { value: 'guessed' } });
    expect(headers[originVerifyHeader]).toBeUndefined();
    expect(headers[viewerIpHeader]).toEqual({ value: '203.0.113.7' });
  });
});
