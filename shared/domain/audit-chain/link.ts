/**
 * The hash chain of a project's audit log (decision 0180). Each entry carries `chain`: its place
 * (`seq`, from 1), the hash of the entry before it (`prevHash`; the first holds `genesisHash`) and
 * its own `hash`: SHA-256, hex, over the canonical JSON (RFC 8785) of the whole entry with `chain`
 * holding only `seq` and `prevHash`. Every field of the entry is covered, so changing any of them,
 * or the order, breaks the chain from there on.
 */
import { createHash } from 'node:crypto';
import type { AuditEntry, ChainHead, ChainLink } from '../audit.ts';
import { canonicalJson } from './canonical-json.ts';

/** The `prevHash` of a project's first chained entry: 64 zeros, the same for every project. */
export const genesisHash = '0'.repeat(64);

/** The text that is hashed: the entry without its own hash. */
export function hashedText(entry: AuditEntry, seq: number, prevHash: string): string {
  const { chain: _ignored, ...fields } = entry;
  return canonicalJson({ ...fields, chain: { seq, prevHash } });
}

export function entryHash(entry: AuditEntry, seq: number, prevHash: string): string {
  return createHash('sha256')
    .update(hashedText(entry, seq, prevHash), 'utf8')
    .digest('hex');
}

/** The entry as it joins the chain after `head` (none yet: it is the first). */
export function linkAfter(
  head: Pick<ChainHead, 'seq' | 'hash'> | undefined,
  entry: AuditEntry,
): AuditEntry & {
  chain: ChainLink;
} {
  const seq = (head?.seq ?? 0) + 1;
  const prevHash = head?.hash ?? genesisHash;
  return { ...entry, chain: { seq, prevHash, hash: entryHash(entry, seq, prevHash) } };
}

export function headOf(entry: AuditEntry & { chain: ChainLink }): ChainHead {
  return {
    projectId: entry.projectId,
    seq: entry.chain.seq,
    hash: entry.chain.hash,
    entryId: entry.id,
    at: entry.at,
  };
}
