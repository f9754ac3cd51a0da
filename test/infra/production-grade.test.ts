/**
 * The production settings of the stack (issue 19), over synthesized templates: VPC mode off, created
 * and existing; alarms to SNS, dashboard, access logs, Step Functions logs and X-Ray; reserved
 * concurrency; custom domain and WAF. Nothing is bundled. (Resource counts: resource-budget.test.ts.)
 */
import { isDeepStrictEqual } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessLogFields } from '../../infra/constructs/access-log.ts';
import { countedCommonRules, EdgeWafStack, managedRuleGroups } from '../../infra/constructs/edge-waf.ts';
import { HandlerFunction } from '../../infra/constructs/handler-function.ts';
import { auditWriteFailureMessage } from '../../infra/constructs/operations.ts';
import { DoguStack, defaultWorkerConcurrency } from '../../infra/dogu-stack.ts';
import { composedGroups } from '../../infra/function-needs.ts';

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
}
type Resources = Record<string, Resource>;

const env = { account: '123456789012', region: 'ap-northeast-1' };
const domain = {
  name: 'tools.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c',
  hostedZoneId: 'Z0123456789ABCDEF',
  zoneName: 'example.com',
};

let plain: DoguStack;
let created: DoguStack;
let existing: DoguStack;
let waf: EdgeWafStack;
const templates = new Map<DoguStack | EdgeWafStack, Resources>();
const resourcesOf = (stack: DoguStack | EdgeWafStack) => templates.get(stack)!;
const ofType = (stack: DoguStack | EdgeWafStack, type: string) =>
  Object.entries(resourcesOf(stack)).filter(([, r]) => r.Type === type);

beforeAll(() => {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [] },
  });
  plain = new DoguStack(app, 'Dogu-plain', { stage: 'plain', env, alarmEmail: 'ops@example.com' });
  waf = new EdgeWafStack(app, 'Dogu-created-waf', {
    stage: 'created',
    env: { ...env, region: 'us-east-1' },
    crossRegionReferences: true,
  });
  created = new DoguStack(app, 'Dogu-created', {
    stage: 'created',
    env,
    network: { mode: 'created', natGateways: 2, interfaceEndpoints: true },
    domain,
    webAclArn: waf.webAcl.attrArn,
    crossRegionReferences: true,
    workerConcurrency: 25,
  });
  existing = new DoguStack(app, 'Dogu-existing', {
    stage: 'existing',
    env,
    network: { mode: 'existing', vpcId: 'vpc-0abc', subnetIds: ['subnet-0aaa', 'subnet-0bbb'] },
    workerConcurrency: 0,
  });
  for (const stack of [plain, created, existing, waf]) {
    templates.set(stack, Template.fromStack(stack).toJSON().Resources as Resources);
  }
}, 180_000);

/** Every Dogu function (API and workers) with the handler module it runs. */
const handlerFunctions = (stack: DoguStack) =>
  stack.node
    .findAll()
    .filter((c): c is HandlerFunction => c instanceof HandlerFunction)
    .map((c) => ({
      handler: c.handler,
      resource: resourcesOf(stack)[stack.getLogicalId(c.function.node.defaultChild as CfnFunction)]!,
    }));
const runsActions = (handler: string) => composedGroups(handler).includes('action-engines');

describe('VPC mode', () => {
  it('is off by default: no VPC, no function in one', () => {
    expect(ofType(plain, 'AWS::EC2::VPC')).toEqual([]);
    for (const { handler, resource } of handlerFunctions(plain)) {
      expect(resource.Properties.VpcConfig, handler).toBeUndefined();
    }
  });

  it('places exactly the functions that compose the action engines in the private subnets', () => {
    for (const stack of [created, existing]) {
      const [sgId] = ofType(stack, 'AWS::EC2::SecurityGroup').find(([id]) => id.includes('ActionFunctions'))!;
      const inVpc = handlerFunctions(stack).filter(({ resource }) => resource.Properties.VpcConfig);
      expect(inVpc.map((f) => f.handler).sort()).toEqual(
        handlerFunctions(stack)
          .map((f) => f.handler)
          .filter(runsActions)
          .sort(),
      );
      // The API's and the workers' action functions alike.
      expect(inVpc.map((f) => f.handler)).toEqual(
        expect.arrayContaining(['execute-action', 'data-source-connection', 'run-job', 'scheduled-run']),
      );
      expect(inVpc.map((f) => f.handler)).not.toContain('health');
      for (const { resource } of inVpc) {
        expect((resource.Properties.VpcConfig as { SecurityGroupIds: unknown }).SecurityGroupIds).toEqual([
          { 'Fn::GetAtt': [sgId, 'GroupId'] },
        ]);
      }
    }
    const existingSubnets = handlerFunctions(existing).find((f) => f.handler === 'run-job')!.resource
      .Properties.VpcConfig as { SubnetIds: unknown };
    expect(existingSubnets.SubnetIds).toEqual(['subnet-0aaa', 'subnet-0bbb']);
  });

  it('lets the VPC functions manage their network interfaces, and no other function', () => {
    const statementsOfRole = (stack: DoguStack, resource: Resource) => {
      const roleId = (resource.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
      return ofType(stack, 'AWS::IAM::Policy')
        .filter(([, p]) =>
          (p.Properties.Roles as unknown[]).some((r) => isDeepStrictEqual(r, { Ref: roleId })),
        )
        .flatMap(
          ([, p]) =>
            (p.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement,
        )
        .flatMap((s) => [s.Action].flat());
    };
    for (const { handler, resource } of handlerFunctions(created)) {
      expect(statementsOfRole(created, resource).includes('ec2:CreateNetworkInterface'), handler).toBe(
        runsActions(handler),
      );
    }
  });

  it('creates NAT gateways with Elastic IPs, outputs them, and has DynamoDB and S3 gateway endpoints', () => {
    const nats = ofType(created, 'AWS::EC2::NatGateway');
    const eips = ofType(created, 'AWS::EC2::EIP');
    expect(nats).toHaveLength(2);
    expect(eips).toHaveLength(2);
    for (const [, nat] of nats) {
      const allocation = (nat.Properties.AllocationId as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
      expect(eips.map(([id]) => id)).toContain(allocation);
    }
    const outputs = Template.fromStack(created).toJSON().Outputs as Record<string, { Value: unknown }>;
    const egress = Object.entries(outputs).find(([id]) => id.includes('EgressIps'))!;
    const joined = JSON.stringify(egress[1].Value);
    for (const [eipId] of eips) expect(joined).toContain(eipId);
    const endpoints = ofType(created, 'AWS::EC2::VPCEndpoint');
    const gateways = endpoints.filter(([, e]) => e.Properties.VpcEndpointType === 'Gateway');
    expect(gateways.map(([, e]) => JSON.stringify(e.Properties.ServiceName)).sort()).toEqual(
      [expect.stringContaining('dynamodb'), expect.stringContaining('s3')].sort(),
    );
    const interfaces = endpoints
      .filter(([, e]) => e.Properties.VpcEndpointType === 'Interface')
      .map(([, e]) => JSON.stringify(e.Properties.ServiceName));
    for (const service of ['kms', 'secretsmanager', 'sts', 'states', 'scheduler', 'lambda']) {
      expect(
        interfaces.some((name) => name.includes(`.${service}"`)),
        service,
      ).toBe(true);
    }
    expect(ofType(created, 'AWS::EC2::FlowLog')).toHaveLength(1);
  });

  it('opens the interface endpoints to the action functions only, and nothing inbound to them', () => {
    const groups = ofType(created, 'AWS::EC2::SecurityGroup');
    const [actionSg, action] = groups.find(([id]) => id.includes('ActionFunctions'))!;
    expect(action.Properties.SecurityGroupIngress).toBeUndefined();
    const ingress = ofType(created, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties);
    expect(ingress).toHaveLength(1);
    expect(ingress[0]).toMatchObject({
      IpProtocol: 'tcp',
      FromPort: 443,
      ToPort: 443,
      SourceSecurityGroupId: { 'Fn::GetAtt': [actionSg, 'GroupId'] },
    });
  });

  it('adds no VPC, NAT or endpoints in existing mode: the operator brings them', () => {
    for (const type of ['AWS::EC2::VPC', 'AWS::EC2::NatGateway', 'AWS::EC2::EIP', 'AWS::EC2::VPCEndpoint']) {
      expect(ofType(existing, type), type).toEqual([]);
    }
    const [, sg] = ofType(existing, 'AWS::EC2::SecurityGroup')[0]!;
    expect(sg.Properties.VpcId).toBe('vpc-0abc');
  });
});

describe('alarms and dashboard', () => {
  const alarms = () => ofType(plain, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
  const topicId = () => ofType(plain, 'AWS::SNS::Topic')[0]![0];

  it('send every alarm to one SNS topic with the e-mail subscription of the context', () => {
    expect(ofType(plain, 'AWS::SNS::Topic')).toHaveLength(1);
    const [, subscription] = ofType(plain, 'AWS::SNS::Subscription')[0]!;
    expect(subscription.Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId() },
    });
    expect(alarms().length).toBeGreaterThan(5);
    for (const alarm of alarms()) expect(alarm.AlarmActions).toEqual([{ Ref: topicId() }]);
    // No subscription without an address.
    expect(ofType(existing, 'AWS::SNS::Subscription')).toEqual([]);
  });

  it('watch every function for errors and throttles, in groups of at most ten metrics', () => {
    const functionNames = (metric: string) =>
      alarms()
        .flatMap(
          (a) =>
            (a.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions: unknown[] } } }[]) ?? [],
        )
        .filter((m) => m.MetricStat?.Metric.MetricName === metric)
        .map((m) => JSON.stringify(m.MetricStat!.Metric.Dimensions));
    // Every function, except CDK's provider of bucket auto-deletion (a raw resource run on stack deletion).
    const lambdaIds = ofType(plain, 'AWS::Lambda::Function')
      .map(([id]) => id)
      .filter((id) => !id.startsWith('CustomS3AutoDeleteObjects'));
    expect(lambdaIds.length).toBeGreaterThan(40);
    for (const metric of ['Errors', 'Throttles']) {
      const watched = functionNames(metric);
      for (const id of lambdaIds)
        expect(
          watched.some((d) => d.includes(`"${id}"`)),
          `${metric} ${id}`,
        ).toBe(true);
    }
    for (const alarm of alarms()) {
      const metrics = (alarm.Metrics as unknown[] | undefined) ?? [];
      expect(metrics.filter((m) => (m as { MetricStat?: unknown }).MetricStat).length).toBeLessThanOrEqual(
        10,
      );
    }
  });

  it('watch the dead-letter queue, both state machines, DynamoDB throttles, API 5xx and audit write failures', () => {
    const names = alarms().flatMap((a) => [
      a.MetricName,
      ...((a.Metrics as { MetricStat?: { Metric: { MetricName: string } } }[]) ?? []).map(
        (m) => m.MetricStat?.Metric.MetricName,
      ),
    ]);
    for (const metric of [
      'ApproximateNumberOfMessagesVisible',
      'ExecutionsFailed',
      'ExecutionsTimedOut',
      'ReadThrottleEvents',
      'WriteThrottleEvents',
      '5xx',
      'AuditWriteFailures',
    ]) {
      expect(names, metric).toContain(metric);
    }
    const machines = ofType(plain, 'AWS::StepFunctions::StateMachine').map(([id]) => id);
    const failedDimensions = JSON.stringify(alarms());
    for (const machine of machines) expect(failedDimensions).toContain(machine);
    const [, filter] = ofType(plain, 'AWS::Logs::MetricFilter')[0]!;
    expect(filter.Properties.FilterPattern).toBe(`{ $.message = "${auditWriteFailureMessage}" }`);
    expect(filter.Properties.LogGroupName).toEqual({
      Ref: plain.getLogicalId(plain.apiLogGroup.node.defaultChild as never),
    });
  });

  it('has one dashboard', () => {
    const [, dashboard] = ofType(plain, 'AWS::CloudWatch::Dashboard')[0]!;
    expect(dashboard.Properties.DashboardName).toBe('Dogu-plain');
  });
});

describe('logs and traces', () => {
  it('writes JSON API access logs with the fields of accessLogFields', () => {
    const [, stage] = ofType(plain, 'AWS::ApiGatewayV2::Stage')[0]!;
    const settings = stage.Properties.AccessLogSettings as { Format: string; DestinationArn: unknown };
    expect(JSON.parse(settings.Format)).toEqual(accessLogFields);
    expect(JSON.parse(settings.Format).sourceIp).toBe('$context.identity.sourceIp');
    expect(JSON.stringify(settings.DestinationArn)).toContain('ApiAccessLog');
  });

  it('traces every Dogu function and both state machines with X-Ray, and logs the machines’ errors without data', () => {
    for (const { handler, resource } of handlerFunctions(plain)) {
      expect(resource.Properties.TracingConfig, handler).toEqual({ Mode: 'Active' });
    }
    for (const [id, machine] of ofType(plain, 'AWS::StepFunctions::StateMachine')) {
      expect(machine.Properties.TracingConfiguration, id).toEqual({ Enabled: true });
      expect(machine.Properties.LoggingConfiguration, id).toMatchObject({
        Level: 'ERROR',
        IncludeExecutionData: false,
      });
    }
  });

  it('sends CloudFront and bucket access logs to the log bucket', () => {
    const [, distribution] = ofType(plain, 'AWS::CloudFront::Distribution')[0]!;
    const [logBucketId] = ofType(plain, 'AWS::S3::Bucket').find(([id]) => id.startsWith('AccessLogs'))!;
    expect(
      JSON.stringify((distribution.Properties.DistributionConfig as { Logging: unknown }).Logging),
    ).toContain(logBucketId);
    for (const [id, bucket] of ofType(plain, 'AWS::S3::Bucket').filter(
      ([id]) => !id.startsWith('AccessLogs'),
    )) {
      expect(bucket.Properties.LoggingConfiguration, id).toMatchObject({
        DestinationBucketName: { Ref: logBucketId },
      });
    }
  });
});

describe('reserved concurrency', () => {
  const reserved = (stack: DoguStack) =>
    Object.fromEntries(
      handlerFunctions(stack).map(({ handler, resource }) => [
        handler,
        resource.Properties.ReservedConcurrentExecutions,
      ]),
    );

  it('reserves concurrency for the functions that run scheduled work, and for no API function', () => {
    expect(reserved(plain)).toMatchObject({
      'scheduled-run': defaultWorkerConcurrency,
      'run-job': defaultWorkerConcurrency,
      'run-batch-chunk': defaultWorkerConcurrency,
      'notification-deliveries': 1,
      'sweep-abandoned-work': 1,
    });
    for (const handler of plain.functionsByHandler.keys())
      expect(reserved(plain)[handler], handler).toBeUndefined();
    expect(reserved(created)['run-job']).toBe(25);
    expect(reserved(existing)['run-job']).toBeUndefined();
  });
});

describe('custom domain and WAF', () => {
  it('serves the console on the custom domain with TLS 1.2+, an alias record, and the WAF attached', () => {
    const [, distribution] = ofType(created, 'AWS::CloudFront::Distribution')[0]!;
    const config = distribution.Properties.DistributionConfig as Record<string, unknown>;
    expect(config.Aliases).toEqual([domain.name]);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: domain.certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(config.WebACLId).toBeDefined();
    expect(
      ofType(created, 'AWS::Route53::RecordSet')
        .map(([, r]) => r.Properties.Type)
        .sort(),
    ).toEqual(['A', 'AAAA']);
    const fn = handlerFunctions(created).find((f) => f.handler === 'health')!;
    expect(
      (fn.resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables
        .DOGU_PUBLIC_URL,
    ).toBe(`https://${domain.name}`);
    // Without them: no alias, no WAF.
    const [, plainDistribution] = ofType(plain, 'AWS::CloudFront::Distribution')[0]!;
    const plainConfig = plainDistribution.Properties.DistributionConfig as Record<string, unknown>;
    expect(plainConfig.Aliases).toBeUndefined();
    expect(plainConfig.WebACLId).toBeUndefined();
  });

  it('makes a CLOUDFRONT web ACL in us-east-1 with the managed groups and a rate rule per IP', () => {
    expect(waf.region).toBe('us-east-1');
    const [, acl] = ofType(waf, 'AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    const rules = acl.Properties.Rules as {
      Name: string;
      Statement: {
        RateBasedStatement?: { Limit: number; AggregateKeyType: string };
        ManagedRuleGroupStatement?: { Name: string; RuleActionOverrides?: { Name: string }[] };
      };
    }[];
    expect(rules[0]!.Statement.RateBasedStatement).toEqual({ Limit: 3000, AggregateKeyType: 'IP' });
    expect(rules.slice(1).map((r) => r.Statement.ManagedRuleGroupStatement!.Name)).toEqual([
      ...managedRuleGroups,
    ]);
    const common = rules.find((r) => r.Name === 'AWSManagedRulesCommonRuleSet')!;
    expect(common.Statement.ManagedRuleGroupStatement!.RuleActionOverrides!.map((o) => o.Name)).toEqual(
      countedCommonRules,
    );
  });
});
