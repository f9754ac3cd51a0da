/**
 * Anchoring (decision 0182): every project's chain head, written somewhere the store's own
 * administrators cannot rewrite (an S3 bucket with Object Lock in compliance mode on AWS, an
 * append-only file beside the data directory in the embedded runtime). Rewriting the log then means
 * recomputing every hash after the change, and the anchored head would no longer match.
 */
import type { AuditLog, ChainHead } from '../audit.ts';

export interface AnchorRecord {
  /** ISO 8601: when the heads were read. */
  anchoredAt: string;
  heads: ChainHead[];
}

/** Where anchors go (adapters: local/audit-anchor-file.ts, shared/adapters/aws/s3-audit-anchor.ts). */
export interface AnchorSink {
  write(record: AnchorRecord): Promise<void>;
}

/** Reads every head and writes them as one record; none when no project has a chain yet. */
export async function anchorHeads(
  audit: Pick<AuditLog, 'heads'>,
  sink: AnchorSink,
  now: Date,
): Promise<AnchorRecord | undefined> {
  const heads = [...(await audit.heads())].sort((a, b) => (a.projectId < b.projectId ? -1 : 1));
  if (heads.length === 0) return undefined;
  const record = { anchoredAt: now.toISOString(), heads };
  await sink.write(record);
  return record;
}
