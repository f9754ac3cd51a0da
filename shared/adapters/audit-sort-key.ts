/**
 * How every audit log adapter orders a project's entries: by `<at>#<id>`, the time as
 * `Date.toISOString()` writes it (fixed width, so text order is time order). Paging cursors carry
 * that key, in the same form on DynamoDB and in the embedded store's SQLite file, so a cursor stays
 * valid across them.
 */
import type { AuditEntry } from '../domain/audit.ts';
import { DoguError } from '../domain/errors.ts';
import { decodeSortKeyCursor, encodeSortKeyCursor } from './dynamodb/sort-key-cursor.ts';

export const defaultAuditPageSize = 100;
export const maxAuditPageSize = 1000;

export const auditSortKey = (entry: Pick<AuditEntry, 'at' | 'id'>) => `${entry.at}#${entry.id}`;

/** A sort key as `toISOString()` writes the time. */
const sortKeyShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[\s\S]+$/;
/** DynamoDB's limit for a sort key, in bytes; its base64url JSON cursor is a little over 4/3 of it. */
const maxSortKeyBytes = 1024;

export const encodeAuditCursor = encodeSortKeyCursor;

export const decodeAuditCursor = (cursor: string) =>
  decodeSortKeyCursor(cursor, {
    maxLength: 1500,
    isValidSortKey: (sk) => sortKeyShape.test(sk) && Buffer.byteLength(sk) <= maxSortKeyBytes,
  });

export function clampAuditLimit(limit: number | undefined, fallback: number): number {
  return Math.min(Math.max(limit ?? fallback, 1), maxAuditPageSize);
}

/** Keys sort as text: a time written differently would sort in the wrong place. */
export function checkAuditTime(at: string): void {
  const time = new Date(at);
  if (Number.isNaN(time.getTime()) || time.toISOString() !== at)
    throw new Error(`Audit entry time '${at}' is not written as Date.toISOString() writes it.`);
}

/** A query's `from`/`to` as a sort key's time; a 400 naming the parameter when it is no time. */
export function canonicalAuditTime(value: string, parameter: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new DoguError('bad_request', `'${parameter}' must be an ISO 8601 time.`, { extra: { parameter } });
  return time.toISOString();
}

/**
 * Inclusive bounds on `<at>#<id>`: from `from` itself to anything at `to` (`$` sorts right after
 * `#`), and no later than the cursor. Undefined when nothing can match.
 */
export function auditSortKeyRange(
  from: string | undefined,
  to: string | undefined,
  position: string | undefined,
): { lower?: string; upper?: string } | undefined {
  const lower = from === undefined ? undefined : canonicalAuditTime(from, 'from');
  let upper = to === undefined ? undefined : `${canonicalAuditTime(to, 'to')}$`;
  if (position !== undefined && (upper === undefined || position < upper)) upper = position;
  if (lower !== undefined && upper !== undefined && lower > upper) return undefined;
  return { lower, upper };
}

/** Only the fields of an entry: never storage attributes, nor anything else a stored item carries. */
export function auditEntryOf(item: Record<string, unknown>): AuditEntry {
  const { id, projectId, at, actor, origin, event, target, environmentId, outcome, details, chain } =
    item as unknown as AuditEntry;
  return {
    id,
    projectId,
    at,
    actor: { kind: actor.kind, id: actor.id, email: actor.email },
    ...(origin ? { origin: { sourceIp: origin.sourceIp, userAgent: origin.userAgent } } : {}),
    event,
    target: { type: target.type, id: target.id },
    ...(environmentId === undefined ? {} : { environmentId }),
    outcome,
    ...(details === undefined ? {} : { details }),
    ...(chain === undefined
      ? {}
      : { chain: { seq: Number(chain.seq), prevHash: chain.prevHash, hash: chain.hash } }),
  };
}
