/**
 * The audit anchor sink on AWS: the anchor bucket (DOGU_AUDIT_ANCHOR_BUCKET). Only the anchoring
 * function composes it, so only its role may write there (infra/constructs/audit-anchor.ts). The
 * embedded runtime anchors to a file itself (local/audit-anchor-file.ts) and never serves this.
 */
import type { AnchorSink } from '../../domain/audit-chain/anchor.ts';
import type { ServiceGroup } from '../services.ts';

export const auditAnchorBucketEnv = 'DOGU_AUDIT_ANCHOR_BUCKET';

export const auditAnchor: ServiceGroup<{ anchorSink: AnchorSink }> = {
  name: 'audit-anchor',
  pick() {
    throw new Error('The embedded runtime anchors the audit chain to a file (local/audit-anchor-file.ts).');
  },
  async createOnAws() {
    const { requiredEnv } = await import('../aws-core.ts');
    const bucket = requiredEnv(auditAnchorBucketEnv);
    const [{ S3Client }, { s3AnchorSink }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      import('../../adapters/aws/s3-audit-anchor.ts'),
    ]);
    return { anchorSink: s3AnchorSink(new S3Client({}), bucket) };
  },
};
