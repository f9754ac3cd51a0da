import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';

export type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

/** BatchWriteItem's limit on requests per call. */
const batchSize = 25;
/** Sends per batch before giving up: DynamoDB leaves items unprocessed while a partition is throttled. */
const maxAttempts = 10;

/**
 * Waits before retry `attempt` (1, 2, …): exponential, capped at a second, so a throttled table gets
 * room without one call stalling for long.
 */
export const backoffBeforeRetry = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));

/**
 * BatchWriteItem in batches of 25, retrying what DynamoDB leaves unprocessed with backoff. `what`
 * names the items in the error when some are still unprocessed after the last attempt. A batch may
 * not hold one key twice: callers with possible repeats keep only the latest first.
 */
export async function writeInBatches(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequests,
  what = 'writes',
): Promise<void> {
  for (let i = 0; i < requests.length; i += batchSize) {
    let pending = requests.slice(i, i + batchSize);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === maxAttempts) throw new Error(`DynamoDB left ${what} unprocessed after retries.`);
      if (attempt > 0) await backoffBeforeRetry(attempt);
      const result = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] ?? [];
    }
  }
}
