/**
 * The CDK app: `npx cdk synth|deploy -c stage=<stage>` makes the stack `Dogu-<stage>`.
 * See docs/deploy.md for the context values.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EdgeWafStack } from './constructs/edge-waf.ts';
import type { NetworkSettings } from './constructs/network.ts';
import { DoguStack } from './dogu-stack.ts';

const defaultStage = 'development';
const defaultRegion = 'ap-northeast-1';

const app = new App();

function contextString(name: string): string | undefined {
  const value: unknown = app.node.tryGetContext(name);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

function contextPositiveInteger(name: string): number | undefined {
  const text = contextString(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`Context '${name}' must be a positive whole number, not '${text}'.`);
  }
  return value;
}

function contextWholeNumber(name: string): number | undefined {
  const text = contextString(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`Context '${name}' must be a whole number (0 or more), not '${text}'.`);
  }
  return value;
}

const stage = contextString('stage') ?? defaultStage;
const region =
  contextString('region') ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? defaultRegion;
const list = (name: string) =>
  (contextString(name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Context `vpc`: unset (no VPC), `create`, or `existing` with `vpcId` and `subnetIds`. */
function networkSettings(): NetworkSettings | undefined {
  const mode = contextString('vpc');
  const interfaceEndpoints = contextString('interfaceEndpoints') === 'true';
  if (mode === undefined || mode === 'off') return undefined;
  if (mode === 'create') {
    return {
      mode: 'created',
      natGateways: contextPositiveInteger('natGateways'),
      interfaceEndpoints,
      cidr: contextString('vpcCidr'),
    };
  }
  if (mode === 'existing') {
    const vpcId = contextString('vpcId');
    if (!vpcId) throw new Error("Context 'vpc=existing' needs 'vpcId' (vpc-...).");
    const subnetIds = list('subnetIds');
    if (subnetIds.length === 0)
      throw new Error("Context 'vpc=existing' needs 'subnetIds' (subnet-a,subnet-b).");
    return { mode: 'existing', vpcId, subnetIds, interfaceEndpoints };
  }
  throw new Error(`Context 'vpc' must be create, existing or off, not '${mode}'.`);
}

function domainSettings() {
  const name = contextString('domainName');
  if (!name) return undefined;
  const certificateArn = contextString('certificateArn');
  if (!certificateArn?.startsWith('arn:aws:acm:us-east-1:')) {
    throw new Error(
      "Context 'domainName' needs 'certificateArn': an ACM certificate in us-east-1 (CloudFront).",
    );
  }
  return {
    name,
    certificateArn,
    hostedZoneId: contextString('hostedZoneId'),
    zoneName: contextString('zoneName'),
  };
}

const account = process.env.CDK_DEFAULT_ACCOUNT;
// WAF for CloudFront exists only in us-east-1: a stack of its own there, referenced across regions.
const waf =
  contextString('waf') === 'true'
    ? new EdgeWafStack(app, `Dogu-${stage}-waf`, {
        stage,
        requestsPer5MinutesPerIp: contextPositiveInteger('wafRequestsPer5Minutes'),
        env: { account, region: 'us-east-1' },
        crossRegionReferences: true,
      })
    : undefined;

new DoguStack(app, `Dogu-${stage}`, {
  stage,
  loginTokenSeconds: contextPositiveInteger('loginTokenSeconds'),
  functionRoleKinds: (contextString('functionRoleKinds') ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean),
  connectorResources: {
    athenaWorkgroups: list('athenaWorkgroups'),
    glueDatabases: list('glueDatabases'),
    dataBuckets: list('dataBuckets'),
  },
  alarmEmail: contextString('alarmEmail'),
  network: networkSettings(),
  domain: domainSettings(),
  webAclArn: waf?.webAcl.attrArn ?? contextString('webAclArn'),
  ...(waf ? { crossRegionReferences: true } : {}),
  workerConcurrency: contextWholeNumber('workerConcurrency'),
  auditAnchorRetentionDays: contextPositiveInteger('auditAnchorRetentionDays'),
  rateLimitPerMinute: contextWholeNumber('rateLimitPerMinute'),
  env: {
    // The account of the credentials the CDK CLI runs with; unset (no credentials) synthesizes
    // an account-agnostic template, which is enough for `cdk synth`.
    account,
    // Not CDK_DEFAULT_REGION: the CLI sets it to us-east-1 whenever no region is configured, so
    // a laptop without a region would silently deploy a second Dogu there. Choose explicitly.
    region,
  },
});

// cdk-nag's AwsSolutions checks: synth fails on any finding without a written reason (infra/nag.ts).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
