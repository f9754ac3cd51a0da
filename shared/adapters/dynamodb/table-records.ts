/**
 * Records on the one DynamoDB table, as every store adapter of it reads and writes them: an item is
 * its key, its `type` and the record's own fields; reads give back the record without the key
 * attributes. Uniqueness and optimistic versions come from conditional puts, never transactions
 * (dynalite has none).
 */
import {
  BatchGetCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { AlreadyExistsError } from '../../domain/ports.ts';
import { backoffBeforeRetry, type WriteRequests, writeInBatches } from './batch-write.ts';
import { type PutCondition, putIf } from './conditional-put.ts';

export type Key = { pk: string; sk: string };

/** The record an item holds: the item without its key, index and type attributes. */
export function recordOf<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
  return record as T;
}

export class TableRecords {
  constructor(
    readonly client: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  async get<T>(key: Key, consistent = false): Promise<T | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: key,
        ...(consistent ? { ConsistentRead: true } : {}),
      }),
    );
    return Item ? recordOf<T>(Item) : undefined;
  }

  /** Like `get`, but reads the latest write (a read-modify-write must start from it). */
  getConsistently<T>(key: Key): Promise<T | undefined> {
    return this.get<T>(key, true);
  }

  async put(key: Key, type: string, record: object, extra: Record<string, string> = {}): Promise<void> {
    await this.client.send(
      new PutCommand({ TableName: this.tableName, Item: { ...key, ...extra, type, ...record } }),
    );
  }

  /** A put that fails with AlreadyExistsError instead of overwriting. */
  async create(key: Key, type: string, record: object, extra: Record<string, string> = {}): Promise<void> {
    const created = await this.putIf(
      key,
      type,
      { ...extra, ...record },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    );
    if (!created) throw new AlreadyExistsError(`${type} ${key.pk}`);
  }

  putIf(key: Key, type: string, record: object, condition: PutCondition): Promise<boolean> {
    return putIf(this.client, this.tableName, { ...key, type, ...record }, condition);
  }

  /** A put conditional on the stored `version` (0: the item must not exist); false on conflict. */
  putVersioned(
    key: Key,
    type: string,
    record: { version: number },
    expectedVersion: number,
  ): Promise<boolean> {
    return this.putIf(
      key,
      type,
      record,
      expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':expected': expectedVersion },
          },
    );
  }

  /** False when there was nothing to delete. */
  async remove(key: Key): Promise<boolean> {
    const { Attributes } = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: key, ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }

  /**
   * Every record of a project whose sort key starts with `prefix`, across pages, with its sort key
   * (callers that delete what they listed need it).
   */
  async queryProject<T>(
    projectId: string,
    prefix: string,
    consistent = false,
  ): Promise<(T & { sk: string })[]> {
    const records: (T & { sk: string })[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': prefix },
          ...(consistent ? { ConsistentRead: true } : {}),
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        records.push({ ...recordOf<T>(item), sk: item.sk as string });
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return records;
  }

  /** The records of a project under a sort key prefix, without their sort keys. */
  async listProject<T>(projectId: string, prefix: string): Promise<T[]> {
    return (await this.queryProject<T>(projectId, prefix)).map(({ sk: _sk, ...record }) => record as T);
  }

  /** Like `listProject`, but reads the latest writes (counts and read-modify-writes need them). */
  async listConsistently<T>(projectId: string, prefix: string): Promise<T[]> {
    return (await this.queryProject<T>(projectId, prefix, true)).map(({ sk: _sk, ...record }) => record as T);
  }

  /** BatchGetItem in chunks of 100, read consistently, retrying what DynamoDB leaves unprocessed. */
  async getMany<T>(itemKeys: Key[]): Promise<T[]> {
    const records: T[] = [];
    for (let i = 0; i < itemKeys.length; i += 100) {
      let pending: Record<string, unknown>[] = itemKeys.slice(i, i + 100);
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB left keys unprocessed after retries.');
        if (attempt > 0) await backoffBeforeRetry(attempt);
        const result = await this.client.send(
          new BatchGetCommand({
            RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } },
          }),
        );
        for (const item of result.Responses?.[this.tableName] ?? []) records.push(recordOf<T>(item));
        pending = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    }
    return records;
  }

  writeMany(requests: WriteRequests, what?: string): Promise<void> {
    return writeInBatches(this.client, this.tableName, requests, what);
  }
}
