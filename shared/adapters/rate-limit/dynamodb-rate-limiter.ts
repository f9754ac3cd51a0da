/**
 * The rate limiter on AWS: many Lambda containers serve one client, so the count lives in the table,
 * one item per client and minute (`RATE#<client>`), incremented atomically and expired by TTL.
 * One write per authenticated request (about 1.25 USD per million on demand; docs/deploy.md).
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type ClientRateLimiter, type RateDecision, windowOf } from '../../domain/rate-limit.ts';

/** The partition prefix the read-only functions' roles may update (infra/constructs/function-roles.ts). */
export const ratePartitionPrefix = 'RATE#';
/** Epoch seconds after which DynamoDB deletes the item (the table's TTL attribute). */
export const rateTtlAttribute = 'ttl';

export class DynamoDbRateLimiter implements ClientRateLimiter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly perMinute: number,
  ) {}

  async take(clientId: string, nowMs: number): Promise<RateDecision> {
    const { start, end } = windowOf(nowMs);
    const result = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: `${ratePartitionPrefix}${clientId}`, sk: `#${new Date(start).toISOString()}` },
        UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :expires)',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': rateTtlAttribute },
        ExpressionAttributeValues: { ':one': 1, ':expires': Math.ceil(end / 1000) + 3600 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const count = Number(result.Attributes?.count ?? 1);
    return {
      allowed: count <= this.perMinute,
      retryAfterSeconds: Math.max(1, Math.ceil((end - nowMs) / 1000)),
    };
  }
}
