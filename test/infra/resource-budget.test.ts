/**
 * Room to grow (issue 26, decision 0165): every variant of the stack stays at or under 300
 * resources per template (CloudFormation refuses more than 500), and 100 more routes still
 * synthesize under 500. The counts are of the synthesized templates (`cdk synth` with cdk.json's
 * context), the main stack and its nested `Routes` stack each; docs/deploy.md lists them.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { EdgeWafStack } from '../../infra/constructs/edge-waf.ts';
import { deployableHandlers, deployableRoutes } from '../../infra/deployable-routes.ts';
import { DoguStack, type DoguStackProps } from '../../infra/dogu-stack.ts';
import type { Route } from '../../shared/http/routes.ts';
import { cdkJsonContext } from '../support/cdk-context.ts';
import { deployedRoutes } from '../support/deployed-routes.ts';

/** The project's own ceiling per template; CloudFormation's is 500. */
const budget = 300;
const cloudFormationLimit = 500;

const env = { account: '123456789012', region: 'ap-northeast-1' };
const domain = {
  name: 'tools.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c',
  hostedZoneId: 'Z0123456789ABCDEF',
  zoneName: 'example.com',
};

/** Every configuration docs/deploy.md describes, the largest (everything on) among them. */
const variants: Record<string, (app: App) => Omit<DoguStackProps, 'stage'>> = {
  default: () => ({}),
  'account-agnostic synth': () => ({ env: { region: env.region } }),
  'alarm e-mail': () => ({ alarmEmail: 'ops@example.com' }),
  'existing VPC': () => ({
    network: { mode: 'existing', vpcId: 'vpc-0abc', subnetIds: ['subnet-0aaa', 'subnet-0bbb'] },
    workerConcurrency: 0,
  }),
  'existing VPC, interface endpoints, Athena rights': () => ({
    network: { mode: 'existing', vpcId: 'vpc-0abc', subnetIds: ['subnet-0aaa'], interfaceEndpoints: true },
    functionRoleKinds: ['athena'],
    connectorResources: { glueDatabases: ['sales'], dataBuckets: ['corp-data', 'corp-athena-results'] },
  }),
  'created VPC (1 NAT gateway)': () => ({ network: { mode: 'created' } }),
  'everything on: created VPC, 2 NAT gateways, interface endpoints, domain, WAF, alarm e-mail': (app) => {
    const waf = new EdgeWafStack(app, 'Dogu-production-waf', {
      stage: 'production',
      env: { ...env, region: 'us-east-1' },
      crossRegionReferences: true,
    });
    return {
      network: { mode: 'created', natGateways: 2, interfaceEndpoints: true },
      domain,
      webAclArn: waf.webAcl.attrArn,
      crossRegionReferences: true,
      alarmEmail: 'ops@example.com',
      workerConcurrency: 25,
    };
  },
};
const largest = 'everything on: created VPC, 2 NAT gateways, interface endpoints, domain, WAF, alarm e-mail';

const resourceCount = (stack: Stack) => Object.keys(Template.fromStack(stack).toJSON().Resources).length;

/** Each template of an app (stacks and nested stacks) with its resource count. */
function countsOf(app: App): Record<string, number> {
  const stacks = app.node.findAll().filter((c): c is Stack => Stack.isStack(c));
  return Object.fromEntries(stacks.map((stack) => [stack.node.path, resourceCount(stack)]));
}

function synth(name: string, routes?: readonly Route[]): { app: App; stack: DoguStack } {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] },
  });
  const props = variants[name]!(app);
  const stack = new DoguStack(app, 'Dogu-production', {
    stage: 'production',
    env,
    ...props,
    ...(routes ? { routes } : {}),
  });
  return { app, stack };
}

/**
 * 100 routes as a table might grow in the worst case for the route keys: each under a top-level
 * path of its own, so none shares a route resource with another (the handlers are existing ones,
 * whose modules decide their roles).
 */
function grownTable(): Route[] {
  const handlers = deployableHandlers();
  const extra = Array.from(
    { length: 100 },
    (_, i): Route => ({
      name: `grown${i}`,
      method: i % 2 === 0 ? 'GET' : 'POST',
      path: `/grown-${i}/items/{itemId}`,
      handler: handlers[i % handlers.length]!,
      auth: 'bearer',
    }),
  );
  const table = deployableRoutes();
  // `$default` stays the last entry, as in the table.
  return [...table.slice(0, -1), ...extra, ...table.slice(-1)];
}

const counts = new Map<string, Record<string, number>>();

beforeAll(() => {
  for (const name of Object.keys(variants)) counts.set(name, countsOf(synth(name).app));
}, 300_000);

describe('resource budget', () => {
  it.each(Object.keys(variants))('keeps every template of "%s" at or under 300 resources', (name) => {
    const templates = counts.get(name)!;
    // The main stack and its Routes stack (and the WAF stack where it is on).
    expect(Object.keys(templates).length).toBeGreaterThanOrEqual(2);
    for (const [path, count] of Object.entries(templates)) {
      expect(count, `${name}: ${path}`).toBeLessThanOrEqual(budget);
    }
  });

  it('puts the routes in the nested stack: the main stack holds one ($default)', () => {
    const { stack } = synth('default');
    const routes = deployedRoutes(stack);
    expect(routes.filter((r) => r.stack === 'main').map((r) => r.key)).toEqual(['$default']);
    expect(resourceCount(stack.httpApi.routesStack)).toBe(routes.length - 1);
  });

  it('synthesizes 100 more routes under 500 per template, the main stack unchanged', () => {
    const before = counts.get(largest)!;
    const { app, stack } = synth(largest, grownTable());
    const after = countsOf(app);
    const main = stack.node.path;
    const nested = stack.httpApi.routesStack.node.path;
    // Each of these routes costs one route resource (no subtree to share), all of them in the nested stack.
    expect(after[nested]).toBe(before[nested]! + 100);
    expect(after[main]).toBe(before[main]);
    for (const [path, count] of Object.entries(after)) {
      expect(count, path).toBeLessThan(cloudFormationLimit);
    }
    // Every grown route is reachable: its own route key, to its handler.
    const keys = deployedRoutes(stack);
    for (const i of [0, 1, 57, 99]) {
      expect(keys).toContainEqual(expect.objectContaining({ key: `ANY /grown-${i}/${'{proxy+}'}` }));
    }
  }, 120_000);
});
