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
 *
 * Each project's entries form a hash chain (decision 0180). Its head item
 * (`AUDITHEAD#<projectId>`, `HEAD`) says the latest place and hash; an append
 * moves it on with a conditional put (the place it read must still be the
 * head), then writes the entry. Two appends that read the same head cannot
 * both move it: the loser reads the new head and links after it, so the chain
 * never forks, however many functions append at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type {
  AuditEntry,
  AuditLog,
  AuditQuery,
  ChainHead,
  ChainLink,
  ChainPage,
  ChainPageQuery,
} from '../../domain/audit.ts';
import { headOf, linkAfter } from '../../domain/audit-chain/link.ts';
import { AlreadyExistsError } from '../../domain/ports.ts';
import {
  checkAuditTime as checkTime,
  clampAuditLimit,
  decodeAuditCursor as decodeCursor,
  defaultAuditPageSize,
  encodeAuditCursor as encodeCursor,
  auditEntryOf as entryOf,
  maxAuditPageSize,
  auditSortKey as sortKeyOf,
  auditSortKeyRange as sortKeyRange,
} from '../audit-sort-key.ts';
import { writeInBatches } from './batch-write.ts';
import { putIf } from './conditional-put.ts';

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
/**
 * Upper case, so never a project's partition (project ids are lower case, `_deployment` too), and
 * under `AUDIT#` so the audit-only write right of read-only functions covers them.
 */
const headKey = (projectId: string) => ({ pk: `AUDIT#HEAD#${projectId}`, sk: 'HEAD' });
/** Every project with a chain, one item each, written when its chain begins: what anchoring reads. */
const chainsPartition = 'AUDIT#CHAINS';
/** Appends racing for one project's head: each lost race costs one read and one write. */
const maxHeadAttempts = 50;
const actorPartition = (projectId: string, actorId: string) => `AUDITACTOR#${projectId}#${actorId}`;

export class DynamoDbAuditLog implements AuditLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly budget: AuditReadBudget = defaultBudget,
  ) {}

  /**
   * Writes entries already linked elsewhere (the embedded runtime's journal links them in memory,
   * one process owning its data directory) in batches, then moves each project's head item to the
   * latest of them. An entry written twice (a replay after a crash) is the same item with the same
   * content: no condition needed; a head never moves back (batches are stored in parallel).
   */
  async appendMany(entries: AuditEntry[]): Promise<void> {
    const unique = [...new Map(entries.map((e) => [e.id, e])).values()];
    await writeInBatches(
      this.client,
      this.tableName,
      unique.map((entry) => ({ PutRequest: { Item: itemOf(entry) } })),
      'audit entries',
    );
    const heads = new Map<string, ChainHead>();
    for (const entry of unique) {
      if (!entry.chain) continue;
      if (entry.chain.seq === 1) await this.register(entry.projectId);
      const known = heads.get(entry.projectId);
      if (!known || known.seq < entry.chain.seq) heads.set(entry.projectId, headOf(entry as Linked));
    }
    for (const head of heads.values()) {
      await putIf(this.client, this.tableName, headItemOf(head), {
        ConditionExpression: 'attribute_not_exists(pk) OR #seq < :seq',
        ExpressionAttributeNames: { '#seq': 'seq' },
        ExpressionAttributeValues: { ':seq': head.seq },
      });
    }
  }

  /**
   * Links the entry after the project's head and writes it; AlreadyExistsError if an entry with
   * this time and id exists: entries are never replaced. The head moves first: a process that
   * dies between the two writes leaves a place with no entry, which verification reports as
   * removed (the entry is indeed lost; the recorder has logged it), never an unseen gap.
   */
  async append(entry: AuditEntry): Promise<void> {
    const { chain: _given, ...fields } = entry;
    checkTime(fields.at);
    const existing = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: auditPartition(fields.projectId), sk: sortKeyOf(fields) },
        ConsistentRead: true,
        ProjectionExpression: 'pk',
      }),
    );
    if (existing.Item) throw new AlreadyExistsError(`audit entry ${fields.id}`);
    for (let attempt = 1; ; attempt++) {
      const head = await this.head(fields.projectId);
      const linked = linkAfter(head, fields);
      if (await this.moveHead(head, headOf(linked))) {
        if (!head) await this.register(fields.projectId);
        const written = await putIf(this.client, this.tableName, itemOf(linked), {
          ConditionExpression: 'attribute_not_exists(pk)',
        });
        if (!written) throw new AlreadyExistsError(`audit entry ${fields.id}`);
        return;
      }
      if (attempt === maxHeadAttempts) {
        throw new Error(`The audit chain of ${fields.projectId} stayed busy for ${attempt} attempts.`);
      }
      // Someone else appended first: a short random wait spreads the next attempts.
      await sleep(Math.random() * Math.min(50, 2 * attempt));
    }
  }

  /** The head as it is now (a strongly consistent read). */
  async head(projectId: string): Promise<ChainHead | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: headKey(projectId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      projectId,
      seq: Number(Item.seq),
      hash: String(Item.hash),
      entryId: String(Item.entryId),
      at: String(Item.at),
    };
  }

  /** Every project's head (anchoring): the chains' list, then their heads. */
  async heads(): Promise<ChainHead[]> {
    const projects: string[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': chainsPartition },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) projects.push(String(item.sk));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    const heads = await Promise.all(projects.map((projectId) => this.head(projectId)));
    return heads.filter((head) => head !== undefined);
  }

  /** Lists the project among those with a chain; written again by a racing genesis, harmlessly. */
  private async register(projectId: string): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: chainsPartition, sk: projectId, type: 'audit_chain' },
      }),
    );
  }

  /** Moves the head from `from` (none: the chain's start) to `to`; false if someone moved it first. */
  private moveHead(from: ChainHead | undefined, to: ChainHead): Promise<boolean> {
    return putIf(
      this.client,
      this.tableName,
      headItemOf(to),
      from
        ? {
            ConditionExpression: '#seq = :seq AND #hash = :hash',
            ExpressionAttributeNames: { '#seq': 'seq', '#hash': 'hash' },
            ExpressionAttributeValues: { ':seq': from.seq, ':hash': from.hash },
          }
        : { ConditionExpression: 'attribute_not_exists(pk)' },
    );
  }

  /**
   * Every entry of a project oldest first (time, then id), as stored, for verification: strongly
   * consistent reads, so an entry appended a moment ago is there. The cursor is the sort key of
   * the last entry returned.
   */
  async chainPage(query: ChainPageQuery): Promise<ChainPage> {
    const limit = clampAuditLimit(query.limit, maxAuditPageSize);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const [page, head] = await Promise.all([
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: after === undefined ? '#pk = :pk' : '#pk = :pk AND #sk > :after',
          ExpressionAttributeNames: { '#pk': 'pk', ...(after === undefined ? {} : { '#sk': 'sk' }) },
          ExpressionAttributeValues: {
            ':pk': auditPartition(query.projectId),
            ...(after === undefined ? {} : { ':after': after }),
          },
          ScanIndexForward: true,
          ConsistentRead: true,
          Limit: limit,
        }),
      ),
      this.head(query.projectId),
    ]);
    const entries = (page.Items ?? []).map(entryOf);
    const last = page.Items?.at(-1);
    return {
      entries,
      ...(page.LastEvaluatedKey && last ? { nextCursor: encodeCursor(String(last.sk)) } : {}),
      ...(head ? { head } : {}),
    };
  }

  async list(query: AuditQuery): Promise<{ entries: AuditEntry[]; nextCursor?: string }> {
    const limit = clampAuditLimit(query.limit, defaultAuditPageSize);
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

type Linked = AuditEntry & { chain: ChainLink };

function headItemOf(head: ChainHead): Record<string, unknown> {
  return { ...headKey(head.projectId), type: 'audit_head', ...head };
}

interface SortKeyRange {
  lower?: string;
  upper?: string;
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

function itemOf(entry: AuditEntry): Record<string, unknown> {
  checkTime(entry.at);
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
