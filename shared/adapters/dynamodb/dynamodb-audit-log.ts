/**
 * The audit log on the one DynamoDB table (docs/data-model.md, "Audit log";
 * decision 12). Entries of a project share the partition `AUDIT#<projectId>`
 * and sort by `<at>#<id>`, so newest-first pages and time ranges are key
 * conditions. An actor's entries are also indexed in gsi1, so "what did this
 * person do" reads only that person's entries; event and target filters are
 * FilterExpressions (they cost the reads of the entries they skip).
 *
 * Append-only: an entry is written once with a conditional put and this code
 * never updates or deletes one.
 */
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry, AuditLog, AuditQuery } from '../../domain/audit.ts';
import { DoguError } from '../../domain/errors.ts';
import { AlreadyExistsError } from '../../domain/ports.ts';
import { writeInBatches } from './batch-write.ts';
import { putIf } from './conditional-put.ts';
import { decodeSortKeyCursor, encodeSortKeyCursor as encodeCursor } from './sort-key-cursor.ts';

export const defaultAuditPageSize = 100;
export const maxAuditPageSize = 1000;

/** How much one list call may read; defaults suit production, tests make them small. */
export interface AuditReadBudget {
  /** Items one filtered DynamoDB page evaluates: many, so a selective filter needs few round trips. */
  filteredScanSize: number;
  /**
   * Pages one list call reads at most. A very selective filter over a long log then answers a
   * short page with a cursor instead of reading the whole partition in one request.
   */
  maxPagesPerCall: number;
}

const defaultBudget: AuditReadBudget = { filteredScanSize: 1000, maxPagesPerCall: 10 };

const auditPartition = (projectId: string) => `AUDIT#${projectId}`;
const actorPartition = (projectId: string, actorId: string) => `AUDITACTOR#${projectId}#${actorId}`;
const sortKeyOf = (entry: Pick<AuditEntry, 'at' | 'id'>) => `${entry.at}#${entry.id}`;
/** A sort key as `toISOString()` writes the time: fixed width, so text order is time order. */
const sortKeyShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[\s\S]+$/;
/** DynamoDB's limit for a sort key, in bytes; its base64url JSON cursor is a little over 4/3 of it. */
const maxSortKeyBytes = 1024;

export class DynamoDbAuditLog implements AuditLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly budget: AuditReadBudget = defaultBudget,
  ) {}

  /**
   * Writes entries already made elsewhere (the embedded runtime's journal) in batches. An entry
   * written twice (a replay after a crash) is the same item with the same content: no condition needed.
   */
  async appendMany(entries: AuditEntry[]): Promise<void> {
    const unique = [...new Map(entries.map((e) => [e.id, e])).values()];
    await writeInBatches(
      this.client,
      this.tableName,
      unique.map((entry) => ({ PutRequest: { Item: itemOf(entry) } })),
      'audit entries',
    );
  }

  /** AlreadyExistsError if an entry with this time and id exists: entries are never replaced. */
  async append(entry: AuditEntry): Promise<void> {
    const written = await putIf(this.client, this.tableName, itemOf(entry), {
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    if (!written) throw new AlreadyExistsError(`audit entry ${entry.id}`);
  }

  async list(query: AuditQuery): Promise<{ entries: AuditEntry[]; nextCursor?: string }> {
    const limit = Math.min(Math.max(query.limit ?? defaultAuditPageSize, 1), maxAuditPageSize);
    // The cursor is the sort key of the last entry returned (or evaluated); the next page is what
    // lies strictly before it. Narrowing the key range, rather than passing DynamoDB an
    // ExclusiveStartKey, means no cursor can make DynamoDB refuse the query.
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const range = sortKeyRange(query.from, query.to, position);
    if (!range) return { entries: [] };
    const filter = filterOf(query);
    const keyCondition = keyConditionOf(query, range);

    const entries: AuditEntry[] = [];
    let startKey: Record<string, unknown> | undefined;
    for (let pages = 1; ; pages++) {
      const remaining = limit - entries.length;
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          ...(query.actorId === undefined ? {} : { IndexName: 'gsi1' }),
          KeyConditionExpression: keyCondition.expression,
          ...(filter ? { FilterExpression: filter.expression } : {}),
          ExpressionAttributeNames: { ...keyCondition.names, ...filter?.names },
          ExpressionAttributeValues: { ...keyCondition.values, ...filter?.values },
          ScanIndexForward: false,
          // DynamoDB applies Limit before the filter. Unfiltered, read one more than needed (two
          // with a cursor: the entry at the cursor itself is skipped) to learn whether more exist.
          Limit: filter ? this.budget.filteredScanSize : remaining + 2,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        // The entry at the cursor was on the previous page. The project check guards against an
        // actor partition shared by ids containing '#' ('a#b' + 'c' and 'a' + 'b#c').
        if (item.sk === position || item.projectId !== query.projectId) continue;
        if (entries.length === limit)
          return { entries, nextCursor: encodeCursor(sortKeyOf(entries.at(-1)!)) };
        entries.push(entryOf(item));
      }
      startKey = page.LastEvaluatedKey;
      if (!startKey) return { entries };
      if (entries.length === limit) return { entries, nextCursor: encodeCursor(sortKeyOf(entries.at(-1)!)) };
      if (pages === this.budget.maxPagesPerCall)
        return { entries, nextCursor: encodeCursor(String(startKey.sk)) };
    }
  }
}

/** Only the fields of an entry: never the key attributes, nor anything else an item may carry. */
function entryOf(item: Record<string, unknown>): AuditEntry {
  const { id, projectId, at, actor, origin, event, target, environmentId, outcome, details } =
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
  };
}

const isCanonicalTime = (at: string) => {
  const time = new Date(at);
  return !Number.isNaN(time.getTime()) && time.toISOString() === at;
};

interface SortKeyRange {
  lower?: string;
  upper?: string;
}

/**
 * Inclusive bounds on `<at>#<id>`: from `from` itself to anything at `to` (`$` sorts right after
 * `#`), and no later than the cursor. Undefined when nothing can match.
 */
function sortKeyRange(from: string | undefined, to: string | undefined, position: string | undefined) {
  const lower = from === undefined ? undefined : canonicalTime(from, 'from');
  let upper = to === undefined ? undefined : `${canonicalTime(to, 'to')}$`;
  if (position !== undefined && (upper === undefined || position < upper)) upper = position;
  if (lower !== undefined && upper !== undefined && lower > upper) return undefined;
  return { lower, upper } satisfies SortKeyRange;
}

function canonicalTime(value: string, parameter: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new DoguError('bad_request', `'${parameter}' must be an ISO 8601 time.`, { extra: { parameter } });
  return time.toISOString();
}

function keyConditionOf(query: AuditQuery, range: SortKeyRange) {
  const [partitionKey, sortKey] = query.actorId === undefined ? ['pk', 'sk'] : ['gsi1pk', 'gsi1sk'];
  const partition =
    query.actorId === undefined
      ? auditPartition(query.projectId)
      : actorPartition(query.projectId, query.actorId);
  const { lower, upper } = range;
  const values: Record<string, string> = { ':pk': partition };
  if (lower !== undefined) values[':lower'] = lower;
  if (upper !== undefined) values[':upper'] = upper;
  const sortCondition =
    lower !== undefined && upper !== undefined
      ? '#sk BETWEEN :lower AND :upper'
      : lower !== undefined
        ? '#sk >= :lower'
        : upper !== undefined
          ? '#sk <= :upper'
          : undefined;
  // DynamoDB refuses names an expression does not use.
  const names: Record<string, string> = { '#pk': partitionKey };
  if (sortCondition === undefined) return { expression: '#pk = :pk', names, values };
  names['#sk'] = sortKey;
  return { expression: `#pk = :pk AND ${sortCondition}`, names, values };
}

/** Event (exact, or a prefix ending in '.') and target filters, applied after DynamoDB reads. */
function filterOf(query: AuditQuery) {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  if (query.event !== undefined) {
    names['#event'] = 'event';
    values[':event'] = query.event;
    conditions.push(query.event.endsWith('.') ? 'begins_with(#event, :event)' : '#event = :event');
  }
  if (query.targetId !== undefined) {
    names['#target'] = 'target';
    names['#targetId'] = 'id';
    values[':targetId'] = query.targetId;
    conditions.push('#target.#targetId = :targetId');
  }
  return conditions.length === 0 ? undefined : { expression: conditions.join(' AND '), names, values };
}

const decodeCursor = (cursor: string) =>
  decodeSortKeyCursor(cursor, {
    maxLength: 1500,
    isValidSortKey: (sk) => sortKeyShape.test(sk) && Buffer.byteLength(sk) <= maxSortKeyBytes,
  });

function itemOf(entry: AuditEntry): Record<string, unknown> {
  if (!isCanonicalTime(entry.at)) {
    // Keys sort as text; a differently written time would sort in the wrong place.
    throw new Error(`Audit entry time '${entry.at}' is not written as Date.toISOString() writes it.`);
  }
  const sk = sortKeyOf(entry);
  return {
    pk: auditPartition(entry.projectId),
    sk,
    gsi1pk: actorPartition(entry.projectId, entry.actor.id),
    gsi1sk: sk,
    type: 'audit',
    ...entry,
  };
}
