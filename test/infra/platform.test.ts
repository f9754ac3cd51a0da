/**
 * What a platform team reviewing the stack checks (issue 26 item 4), over templates synthesized as
 * `cdk synth` makes them (cdk.json's context): the recommended feature flags pinned, and TLS 1.2 the
 * minimum wherever the certificate is ours (the default *.cloudfront.net one is documented).
 * One synthesis of each variant for the whole file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { CURRENTLY_RECOMMENDED_FLAGS } from 'aws-cdk-lib/cx-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { DoguStack } from '../../infra/dogu-stack.ts';
import { repoRoot } from '../../infra/paths.ts';
import { cdkJsonContext } from '../support/cdk-context.ts';

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}

const env = { account: '123456789012', region: 'ap-northeast-1' };
const domain = {
  name: 'tools.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c',
};
let plain: DoguStack;
let withDomain: DoguStack;
const templates = new Map<DoguStack, Record<string, Resource>>();
const ofType = (stack: DoguStack, type: string) =>
  Object.values(templates.get(stack)!).filter((r) => r.Type === type);

beforeAll(() => {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] },
  });
  plain = new DoguStack(app, 'Dogu-plain', { stage: 'plain', env });
  withDomain = new DoguStack(app, 'Dogu-domain', { stage: 'domain', env, domain });
  for (const stack of [plain, withDomain]) {
    templates.set(stack, Template.fromStack(stack).toJSON().Resources as Record<string, Resource>);
  }
}, 180_000);

describe('CDK feature flags', () => {
  it('cdk.json pins every flag aws-cdk-lib recommends, with the recommended value', () => {
    const recommended = Object.entries(CURRENTLY_RECOMMENDED_FLAGS);
    expect(recommended.length).toBeGreaterThan(80);
    const pinned = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')).context as Record<
      string,
      unknown
    >;
    for (const [flag, value] of recommended) expect(pinned[flag], flag).toEqual(value);
    // Nothing else hides among them: every key is a flag (or CDK's own context).
    expect(Object.keys(pinned).filter((key) => !(key in CURRENTLY_RECOMMENDED_FLAGS))).toEqual([]);
  });

  it('the stack synthesizes under them without a warning', () => {
    for (const stack of [plain, withDomain]) {
      expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
      expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
    }
  });
});

describe('TLS', () => {
  const viewerCertificate = (stack: DoguStack) => {
    const [distribution] = ofType(stack, 'AWS::CloudFront::Distribution');
    return (distribution!.Properties.DistributionConfig as { ViewerCertificate?: Record<string, unknown> })
      .ViewerCertificate;
  };

  it('with our certificate (a custom domain) viewers need TLS 1.2 or newer', () => {
    expect(viewerCertificate(withDomain)).toEqual({
      AcmCertificateArn: domain.certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it("without one CloudFront's default certificate is used, and docs/deploy.md says it accepts TLS 1.0", () => {
    const certificate = viewerCertificate(plain);
    expect(certificate === undefined || certificate.CloudFrontDefaultCertificate === true).toBe(true);
    const deploy = readFileSync(join(repoRoot, 'docs', 'deploy.md'), 'utf8');
    expect(deploy).toMatch(/default certificate also accepts \*\*TLS 1\.0 and 1\.1\*\*/);
    expect(deploy).toMatch(/fixed at `TLSv1`/);
  });

  it('CloudFront talks to every origin of ours over TLS 1.2 only', () => {
    for (const stack of [plain, withDomain]) {
      const [distribution] = ofType(stack, 'AWS::CloudFront::Distribution');
      const origins = (
        distribution!.Properties.DistributionConfig as {
          Origins: { CustomOriginConfig?: { OriginProtocolPolicy: string; OriginSSLProtocols: string[] } }[];
        }
      ).Origins.flatMap((o) => (o.CustomOriginConfig ? [o.CustomOriginConfig] : []));
      expect(origins.length).toBeGreaterThanOrEqual(2);
      for (const origin of origins) {
        expect(origin.OriginProtocolPolicy).toBe('https-only');
        expect(origin.OriginSSLProtocols).toEqual(['TLSv1.2']);
      }
    }
  });
});
