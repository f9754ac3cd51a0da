/**
 * cdk-nag's AwsSolutions checks over the stack as `cdk synth` makes it (cdk.json's feature flags;
 * infra/app.ts adds the same plugin): zero unacknowledged errors and warnings, in the default configuration and with VPC,
 * domain and WAF on. A control stack with a careless bucket proves the checks run at all.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { EdgeWafStack } from '../../infra/constructs/edge-waf.ts';
import { DoguStack, type DoguStackProps } from '../../infra/dogu-stack.ts';
import { wildcardReasons } from '../../infra/nag.ts';
import { cdkJsonContext } from '../support/cdk-context.ts';

interface Violation {
  ruleName: string;
  severity: string;
  violatingConstructs: { constructPath: string }[];
}

const env = { account: '123456789012', region: 'ap-northeast-1' };
const outDirs: string[] = [];

afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

/** Synthesizes an app with the AwsSolutions plugin; returns every violation it reports. */
function violationsOf(build: (app: App) => void): Violation[] {
  const outdir = mkdtempSync(join(tmpdir(), 'dogu-nag-'));
  outDirs.push(outdir);
  const app = new App({
    outdir,
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] },
  });
  build(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
    return [];
  } catch (error) {
    expect(String(error)).toMatch(/Validation ?failed/i);
    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: Violation[] }[];
    };
    return report.pluginReports.flatMap((p) => p.violations);
  }
}

const summary = (violations: Violation[]) =>
  violations.flatMap((v) =>
    v.violatingConstructs.map((c) => `${v.severity} ${v.ruleName} ${c.constructPath}`),
  );

describe('cdk-nag AwsSolutions', () => {
  it('runs: a bucket without logs, TLS enforcement or encryption settings is reported', () => {
    const violations = violationsOf((app) => {
      const stack = new Stack(app, 'Control', { env });
      new Bucket(stack, 'Careless');
    });
    expect(violations.map((v) => v.ruleName)).toEqual(expect.arrayContaining(['AwsSolutions-S1']));
  });

  const configurations: Record<string, Omit<DoguStackProps, 'stage'>> = {
    'the default production stack': {},
    // `cdk synth` without credentials: ARNs carry <AWS::AccountId> placeholders.
    'an account-agnostic synth': { env: { region: env.region } },
    'a created VPC with interface endpoints, a custom domain and an alarm e-mail': {
      network: { mode: 'created', interfaceEndpoints: true },
      alarmEmail: 'ops@example.com',
      domain: {
        name: 'tools.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e',
        hostedZoneId: 'Z0123456789ABCDEF',
        zoneName: 'example.com',
      },
    },
    'an existing VPC and the connector rights of Athena': {
      network: { mode: 'existing', vpcId: 'vpc-0abc', subnetIds: ['subnet-0aaa'] },
      functionRoleKinds: ['athena'],
      connectorResources: { glueDatabases: ['sales'], dataBuckets: ['corp-data', 'corp-athena-results'] },
    },
  };

  for (const [name, props] of Object.entries(configurations)) {
    it(`finds no unacknowledged error or warning in ${name}`, () => {
      const violations = violationsOf((app) => {
        new DoguStack(app, 'Dogu-production', { stage: 'production', env, ...props });
      });
      expect(summary(violations)).toEqual([]);
    }, 120_000);
  }

  it('finds none with the WAF stack in us-east-1 attached across regions', () => {
    const violations = violationsOf((app) => {
      const waf = new EdgeWafStack(app, 'Dogu-production-waf', {
        stage: 'production',
        env: { ...env, region: 'us-east-1' },
        crossRegionReferences: true,
      });
      new DoguStack(app, 'Dogu-production', {
        stage: 'production',
        env,
        webAclArn: waf.webAcl.attrArn,
        crossRegionReferences: true,
      });
    });
    expect(summary(violations)).toEqual([]);
  }, 120_000);

  it('still reports a wildcard nobody gave a reason for (s3:* on every resource)', () => {
    const violations = violationsOf((app) => {
      const stack = new DoguStack(app, 'Dogu-production', { stage: 'production', env });
      stack.functionsByHandler
        .get('health')!
        .addToRolePolicy(new PolicyStatement({ actions: ['s3:*'], resources: ['*'] }));
    });
    expect(summary(violations)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^error AwsSolutions-IAM5\[Action::s3:\*\] /),
        expect.stringMatching(/^error AwsSolutions-IAM5\[Resource::\*\] /),
      ]),
    );
  }, 120_000);

  it('gives every acknowledged kind of wildcard a reason', () => {
    for (const [pattern, reason] of wildcardReasons) {
      expect(reason.length, String(pattern)).toBeGreaterThan(40);
    }
  });
});
