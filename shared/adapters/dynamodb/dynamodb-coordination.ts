/**
 * Leases and one-time markers on the table: a lease is a conditional put that a running one refuses
 * (a lease that ran out is taken over); a marker is a put that fails when it exists.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AlreadyExistsError, type Coordination } from '../../domain/ports.ts';
import { TableRecords } from './table-records.ts';
import { keys, tableSchema } from './table-schema.ts';

export class DynamoDbCoordination implements Coordination {
  private readonly records: TableRecords;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.records = new TableRecords(client, tableName);
  }

  async claimMarker(name: string, at: string): Promise<boolean> {
    try {
      await this.records.create(keys.marker(name), 'marker', { name, at });
      return true;
    } catch (error) {
      if (error instanceof AlreadyExistsError) return false;
      throw error;
    }
  }
  async hasMarker(name: string): Promise<boolean> {
    return (await this.records.get(keys.marker(name))) !== undefined;
  }
  acquireLock(name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    return this.records.putIf(
      keys.lock(name),
      'lock',
      // `ttl` (seconds) lets DynamoDB remove a lease its holder never gave back, a day after it ran out.
      {
        name,
        holder,
        expiresAt: now.getTime() + ttlMs,
        [tableSchema.timeToLiveAttribute]: Math.floor((now.getTime() + ttlMs) / 1000) + 86_400,
      },
      // Free, or the holder's lease ran out (it crashed or stalled): take it over.
      {
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': now.getTime() },
      },
    );
  }
  async releaseLock(name: string, holder: string): Promise<void> {
    try {
      await this.records.client.send(
        new DeleteCommand({
          TableName: this.records.tableName,
          Key: keys.lock(name),
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    } catch (error) {
      // Our lease ran out and someone else holds it now: theirs is not ours to release.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
