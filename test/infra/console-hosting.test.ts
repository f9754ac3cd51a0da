/**
 * The console's AWS hosting: a private bucket read only by CloudFront (origin access control),
 * the SPA fallback, API paths routed to the HTTP API uncached with cookies, the two-pass upload
 * (immutable assets, revalidated index.html), and DOGU_PUBLIC_URL set to the distribution.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPathPatterns,
  ConsoleHosting,
  spaFallback,
  viewerAddressHeader,
} from '../../infra/console-hosting.ts';
import { deployableRoutes } from '../../infra/deployable-routes.ts';
import { consoleCsp } from '../../shared/http/console-policies.ts';

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
}

interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  ViewerProtocolPolicy: string;
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  AllowedMethods?: string[];
  FunctionAssociations?: { EventType: string }[];
  Compress?: boolean;
}

interface Origin {
  Id: string;
  DomainName: unknown;
  OriginAccessControlId?: unknown;
  S3OriginConfig?: unknown;
  CustomOriginConfig?: { OriginProtocolPolicy: string };
}

interface DistributionConfig {
  DefaultRootObject?: string;
  CustomErrorResponses?: unknown;
  Origins: Origin[];
  DefaultCacheBehavior: Behavior;
  CacheBehaviors: Behavior[];
}

/** Managed CloudFront policies (AWS documentation, "Use managed cache/origin request policies"). */
const cachingDisabled = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const cachingOptimized = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const allViewerExceptHost = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let distDir: string;

function synth(options: { retain?: boolean } = {}) {
  const stack = new Stack(new App(), 'ConsoleTest', {
    env: { account: '123456789012', region: 'ap-northeast-1' },
  });
  const api = new HttpApi(stack, 'Api');
  const fn = new LambdaFunction(stack, 'Handler', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => ({})'),
    environment: { DOGU_PUBLIC_URL: 'https://api.example' },
  });
  const hosting = new ConsoleHosting(stack, 'Console', {
    httpApi: api,
    publicUrlFor: [fn],
    distDir,
    ...(options.retain ? { retain: true } : {}),
  });
  const template = Template.fromStack(stack);
  return { stack, template, hosting, apiId: stack.getLogicalId(api.node.defaultChild as never) };
}

const resources = (template: Template, type: string) =>
  Object.entries(template.findResources(type) as Record<string, Resource>);
const only = (template: Template, type: string) => {
  const found = resources(template, type);
  expect(found).toHaveLength(1);
  return found[0]!;
};

let template: Template;
let apiId: string;

beforeAll(() => {
  distDir = mkdtempSync(join(tmpdir(), 'dogu-console-dist-'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  ({ template, apiId } = synth());
});
afterAll(() => rmSync(distDir, { recursive: true, force: true }));

describe('console hosting (S3 + CloudFront)', () => {
  it('keeps the bucket private, encrypted and TLS-only, readable only by this distribution', () => {
    const [bucketId, bucket] = only(template, 'AWS::S3::Bucket');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(JSON.stringify(bucket.Properties.BucketEncryption)).toContain('AES256');
    const [, policy] = only(template, 'AWS::S3::BucketPolicy');
    const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] })
      .Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const [distributionId] = only(template, 'AWS::CloudFront::Distribution');
    const cloudFrontRead = statements.find(
      (s) => JSON.stringify(s.Principal) === JSON.stringify({ Service: 'cloudfront.amazonaws.com' }),
    )!;
    expect(cloudFrontRead.Effect).toBe('Allow');
    expect(cloudFrontRead.Action).toBe('s3:GetObject');
    expect(JSON.stringify(cloudFrontRead.Condition)).toContain(distributionId);
    expect(JSON.stringify(cloudFrontRead.Resource)).toContain(bucketId);
    only(template, 'AWS::CloudFront::OriginAccessControl');
  });

  it('serves the bucket by default over HTTPS with the SPA fallback on viewer requests', () => {
    const [, distribution] = only(template, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig as DistributionConfig;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined();
    const s3Origin = config.Origins.find((o) => o.S3OriginConfig)!;
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    const byDefault = config.DefaultCacheBehavior;
    expect(byDefault.TargetOriginId).toBe(s3Origin.Id);
    expect(byDefault.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(byDefault.CachePolicyId).toBe(cachingOptimized);
    // CloudFront compresses (brotli/gzip, keyed on Accept-Encoding by CachingOptimized) and adds Vary.
    expect(byDefault.Compress).toBe(true);
    expect(byDefault.FunctionAssociations).toHaveLength(1);
    expect(byDefault.FunctionAssociations?.[0]?.EventType).toBe('viewer-request');
    const codes = resources(template, 'AWS::CloudFront::Function').map(([, f]) => f.Properties.FunctionCode);
    expect(codes.sort()).toEqual([spaFallback, viewerAddressHeader].sort());
  });

  it('the fallback gives index.html for page paths and leaves files alone', () => {
    const rewrite = (uri: string) =>
      (
        runInNewContext(`${spaFallback}; handler({ request: { uri: ${JSON.stringify(uri)} } })`) as {
          uri: string;
        }
      ).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/p/demo/e/development/actions/find-orders')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/favicon.ico')).toBe('/favicon.ico');
  });

  it('covers every deployed route with an API path (the API answers only through CloudFront, decision 0172)', () => {
    // CloudFront's path patterns: `*` matches any characters, `?` one.
    const matchers = apiPathPatterns.map(
      (pattern) =>
        new RegExp(
          `^${pattern
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/\?/g, '.')}$`,
        ),
    );
    const uncovered = deployableRoutes()
      .filter((route) => route.path !== '$default')
      .map((route) => route.path.replace(/\{[^}]+\}/g, 'x'))
      .filter((path) => !matchers.some((m) => m.test(path)));
    expect(uncovered).toEqual([]);
    expect(matchers.some((m) => m.test('/index.html'))).toBe(false);
  });

  it('routes every API path to the HTTP API, uncached, all methods, cookies and headers but not Host', () => {
    const [, distribution] = only(template, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig as DistributionConfig;
    const apiOrigin = config.Origins.find((o) => o.CustomOriginConfig)!;
    expect(apiOrigin.CustomOriginConfig!.OriginProtocolPolicy).toBe('https-only');
    expect(apiOrigin.DomainName).toEqual({
      'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }] }],
    });
    const behaviors = config.CacheBehaviors.filter((b) => b.PathPattern !== '/view-frame.html');
    expect(behaviors.map((b) => b.PathPattern).sort()).toEqual([...apiPathPatterns].sort());
    for (const behavior of behaviors) {
      expect(behavior.TargetOriginId, behavior.PathPattern).toBe(apiOrigin.Id);
      expect(behavior.CachePolicyId).toBe(cachingDisabled);
      expect(behavior.OriginRequestPolicyId).toBe(allViewerExceptHost);
      expect(behavior.ViewerProtocolPolicy).toBe('https-only');
      expect([...(behavior.AllowedMethods ?? [])].sort()).toEqual(
        ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].sort(),
      );
      // The viewer's address for the audit, set by CloudFront (decision 0053).
      expect(behavior.FunctionAssociations, behavior.PathPattern).toHaveLength(1);
      expect(behavior.FunctionAssociations?.[0]?.EventType).toBe('viewer-request');
    }
  });

  it("the API function sets the viewer's address and overrides one the client sent", () => {
    const run = (headers: Record<string, { value: string }>) =>
      (
        runInNewContext(
          `${viewerAddressHeader}; handler({ viewer: { ip: '203.0.113.7' }, request: { uri: '/api/x', headers: ${JSON.stringify(headers)} } })`,
        ) as { headers: Record<string, { value: string }> }
      ).headers;
    expect(run({})['x-dogu-viewer-ip']).toEqual({ value: '203.0.113.7' });
    expect(run({ 'x-dogu-viewer-ip': { value: '10.0.0.1' } })['x-dogu-viewer-ip']).toEqual({
      value: '203.0.113.7',
    });
    // The host the viewer asked for (the MCP endpoint's OAuth origin), never one the client names.
    const hosted = run({
      host: { value: 'tools.example.com' },
      'x-dogu-viewer-host': { value: 'evil.example' },
    });
    expect(hosted['x-dogu-viewer-host']).toEqual({ value: 'tools.example.com' });
    expect(run({ 'x-dogu-viewer-host': { value: 'evil.example' } })['x-dogu-viewer-host']).toBeUndefined();
  });

  it('uploads hashed assets immutable for a year, then index.html uncached with an invalidation', () => {
    const deployments = resources(template, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties);
    expect(deployments).toHaveLength(2);
    const assets = deployments.find(
      (d) => JSON.stringify(d.Exclude) === '["index.html","view-frame.html","*.br","*.gz"]',
    )!;
    expect(assets.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(assets.Prune).toBe(false);
    expect(assets.DistributionId).toBeUndefined();
    const index = deployments.find((d) => JSON.stringify(d.Include) === '["index.html","view-frame.html"]')!;
    expect(index.Exclude).toEqual(['*']);
    expect(index.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(index.DistributionPaths).toEqual(['/index.html', '/', '/view-frame.html']);
    expect(index.DistributionId).toBeDefined();
  });

  it('sends the console CSP on pages and the code-view frame its own policy (decision 0048)', () => {
    const [, distribution] = only(template, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig as DistributionConfig;
    const policies = resources(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const policyOf = (ref: unknown) => {
      const id = (ref as { Ref: string }).Ref;
      const found = policies.find(([policyId]) => policyId === id)!;
      return (
        found[1].Properties.ResponseHeadersPolicyConfig as {
          SecurityHeadersConfig: {
            ContentSecurityPolicy: { ContentSecurityPolicy: string };
            FrameOptions: { FrameOption: string };
          };
        }
      ).SecurityHeadersConfig;
    };
    const pages = policyOf(
      (config.DefaultCacheBehavior as unknown as { ResponseHeadersPolicyId: unknown })
        .ResponseHeadersPolicyId,
    );
    expect(pages.ContentSecurityPolicy.ContentSecurityPolicy).toBe(consoleCsp);
    expect(pages.ContentSecurityPolicy.ContentSecurityPolicy).not.toContain('unsafe-eval');
    expect(pages.FrameOptions.FrameOption).toBe('DENY');
    const frameBehavior = config.CacheBehaviors.find((b) => b.PathPattern === '/view-frame.html')!;
    expect(frameBehavior.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
    const frame = policyOf(
      (frameBehavior as unknown as { ResponseHeadersPolicyId: unknown }).ResponseHeadersPolicyId,
    );
    expect(frame.ContentSecurityPolicy.ContentSecurityPolicy).toContain("connect-src 'none'");
    expect(frame.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'self'");
    expect(frame.FrameOptions.FrameOption).toBe('SAMEORIGIN');
  });

  it("sets the functions' DOGU_PUBLIC_URL to the distribution, so console SSO sees one origin", () => {
    const [distributionId] = only(template, 'AWS::CloudFront::Distribution');
    const handler = resources(template, 'AWS::Lambda::Function').find(([id]) => id.startsWith('Handler'))!;
    const variables = (handler[1].Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.DOGU_PUBLIC_URL).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]],
    });
  });

  it('deletes the bucket with the stack outside production and keeps it in production', () => {
    expect(only(template, 'AWS::S3::Bucket')[1].DeletionPolicy).toBe('Delete');
    const production = synth({ retain: true }).template;
    expect(only(production, 'AWS::S3::Bucket')[1].DeletionPolicy).toBe('Retain');
    expect(resources(production, 'Custom::S3AutoDeleteObjects')).toHaveLength(0);
  });

  it('refuses to synthesize without a console build, saying how to make one', () => {
    const empty = mkdtempSync(join(tmpdir(), 'dogu-console-empty-'));
    try {
      const stack = new Stack(new App(), 'Missing');
      expect(
        () => new ConsoleHosting(stack, 'Console', { httpApi: new HttpApi(stack, 'Api'), distDir: empty }),
      ).toThrow(/console build is missing: .*index\.html\. Run `npm run build:web` first\./);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
