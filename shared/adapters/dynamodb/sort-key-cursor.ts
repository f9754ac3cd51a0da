import { DoguError } from '../../domain/errors.ts';

/**
 * Paging cursors that carry the sort key of the last item a page returned, as base64url JSON. The
 * next page narrows its key condition to before that key, so a cursor never reaches DynamoDB as an
 * ExclusiveStartKey; decoding still refuses anything this service could not have written.
 */
export const encodeSortKeyCursor = (sortKey: string) =>
  Buffer.from(JSON.stringify({ sk: sortKey })).toString('base64url');

export interface SortKeyCursorRules {
  /** Longest cursor accepted, in characters: about 4/3 of the longest sort key plus the JSON around it. */
  maxLength: number;
  /** Whether a decoded sort key is one the listing writes. */
  isValidSortKey: (sortKey: string) => boolean;
}

export function decodeSortKeyCursor(cursor: string, rules: SortKeyCursorRules): string {
  const refuse = () =>
    new DoguError('bad_request', "'cursor' is not one this endpoint returned; list again without it.", {
      extra: { parameter: 'cursor' },
    });
  if (cursor.length === 0 || cursor.length > rules.maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw refuse();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  const sk = (decoded as { sk?: unknown } | null)?.sk;
  if (typeof sk !== 'string' || !rules.isValidSortKey(sk)) throw refuse();
  return sk;
}
