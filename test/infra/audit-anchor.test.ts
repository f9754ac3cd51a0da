/**
 * Audit anchoring on AWS (decision 0182): the synthesized bucket cannot have an anchor overwritten
 * or deleted (Object Lock in COMPLIANCE mode by default, versioning on, retention from context), an
 * hourly rule runs the anchoring function, whose own role may only put anchors; and the function's
 * sink sends exactly one PutObject, asserted with aws-sdk-client-mock.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnchorRetentionDays } from '../../infra/constructs/audit-anchor.ts';
import { DoguStack } from '../../infra/dogu-stack.ts';
import { s3AnchorSink } from '../../shared/adapters/aws/s3-audit-anchor.ts';
import type { ChainHead } from '../../shared/domain/audit.ts';
import { anchorHeads } from '../../shared/domain/audit-chain/anchor.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
const env = { account: '123456789012', region: 'ap-northeast-1' };
let plain: Resources;
let sevenYears: Resources;

beforeAll(() => {
  const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new DoguStack(app, 'Dogu-anchor', { stage: 'anchor', env });
  const longer = new DoguStack(app, 'Dogu-anchor-long', {
    stage: 'long',
    env,
    auditAnchorRetentionDays: 2555,
  });
  plain = Template.fromStack(stack).toJSON().Resources as Resources;
  sevenYears = Template.fromStack(longer).toJSON().Resources as Resources;
}, 300_000);

const anchorBucket = (resources: Resources) => {
  const buckets = Object.entries(resources).filter(
    ([, r]) => r.Type === 'AWS::S3::Bucket' && r.Properties.ObjectLockEnabled === true,
  );
  expect(buckets).toHaveLength(1);
  return buckets[0]!;
};

describe('the anchor bucket', () => {
  it('locks every object in COMPLIANCE mode by default, versioned, private, kept with the stack gone', () => {
    const [, bucket] = anchorBucket(plain);
    expect(bucket.Properties.ObjectLockConfiguration).toEqual({
      ObjectLockEnabled: 'Enabled',
      Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: defaultAnchorRetentionDays } },
    });
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect((bucket as unknown as { DeletionPolicy: string }).DeletionPolicy).toBe('Retain');
  });

  it('takes its retention from context auditAnchorRetentionDays', () => {
    expect(anchorBucket(sevenYears)[1].Properties.ObjectLockConfiguration).toMatchObject({
      Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 2555 } },
    });
  });

  it('is written hourly by one function whose role may put anchors and nothing else there', () => {
    const [bucketId] = anchorBucket(plain);
    const functions = Object.entries(plain).filter(
      ([, r]) =>
        r.Type === 'AWS::Lambda::Function' &&
        JSON.stringify(r.Properties.Environment ?? {}).includes('DOGU_AUDIT_ANCHOR_BUCKET'),
    );
    expect(functions).toHaveLength(1);
    const [functionId, fn] = functions[0]!;
    const rules = Object.values(plain).filter(
      (r) => r.Type === 'AWS::Events::Rule' && JSON.stringify(r.Properties.Targets).includes(functionId),
    );
    expect(rules.map((r) => r.Properties.ScheduleExpression)).toEqual(['rate(1 hour)']);
    // Statements naming the bucket: only its role's, only putting objects under audit-anchors/.
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const naming = Object.values(plain).filter(
      (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.PolicyDocument).includes(bucketId),
    );
    expect(naming).toHaveLength(1);
    expect(naming[0]!.Properties.Roles).toEqual([{ Ref: roleId }]);
    const statements = (
      naming[0]!.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }
    ).Statement.filter((s) => JSON.stringify(s.Resource).includes(bucketId));
    const actions = statements.flatMap((s) => [s.Action].flat() as string[]);
    expect(actions).toEqual(['s3:PutObject']);
    expect(JSON.stringify(statements.map((s) => s.Resource))).toContain('/audit-anchors/*');
  });
});

describe('the anchor function sink', () => {
  it('sends exactly one PutObject with every head, under a time-named key, checksummed', async () => {
    const s3 = mockClient(S3Client);
    s3.on(PutObjectCommand).resolves({});
    const heads: ChainHead[] = [
      { projectId: 'shop', seq: 12, hash: 'b'.repeat(64), entryId: 'aud_12', at: '2026-11-28T06:00:00.000Z' },
      { projectId: 'crm', seq: 3, hash: 'a'.repeat(64), entryId: 'aud_3', at: '2026-11-28T05:00:00.000Z' },
    ];
    const now = new Date('2026-11-28T07:00:00.000Z');
    const record = await anchorHeads(
      { heads: async () => heads },
      s3AnchorSink(new S3Client({}), 'anchors'),
      now,
    );
    const calls = s3.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Bucket: 'anchors',
      Key: 'audit-anchors/2026-11-28T07:00:00.000Z.json',
      Body: JSON.stringify({ anchoredAt: '2026-11-28T07:00:00.000Z', heads: [heads[1], heads[0]] }),
      ContentType: 'application/json',
      ChecksumAlgorithm: 'SHA256',
    });
    expect(record?.heads.map((h) => h.projectId)).toEqual(['crm', 'shop']);
    // No chain yet: nothing is written.
    s3.reset();
    expect(
      await anchorHeads({ heads: async () => [] }, s3AnchorSink(new S3Client({}), 'anchors'), now),
    ).toBeUndefined();
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    s3.restore();
  });
});
