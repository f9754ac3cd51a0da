import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, type PutCommandInput } from '@aws-sdk/lib-dynamodb';

export type PutCondition = Pick<
  PutCommandInput,
  'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

/**
 * A put under a condition; false when the condition does not hold (someone else wrote first), so
 * callers decide what a lost race means instead of catching DynamoDB's exception.
 */
export async function putIf(
  client: DynamoDBDocumentClient,
  tableName: string,
  item: Record<string, unknown>,
  condition: PutCondition,
): Promise<boolean> {
  try {
    await client.send(new PutCommand({ TableName: tableName, Item: item, ...condition }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
