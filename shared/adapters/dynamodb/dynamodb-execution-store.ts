/**
 * Execution records on the table: one item per run (indexed by action for its history) and, while
 * a run with a deadline is running, a live-run marker the sweeper finds overdue runs by.
 */
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Execution } from '../../domain/model.ts';
import type { ExecutionStore } from '../../domain/ports.ts';
import type { WriteRequests } from './batch-write.ts';
import { TableRecords } from './table-records.ts';
import { keys, liveExecutionShards, tableSchema } from './table-schema.ts';

const executionIndex = (execution: Execution) => ({
  gsi1pk: `ACTION#${execution.projectId}#${execution.actionId}`,
  gsi1sk: `${execution.startedAt}#${execution.id}`,
});

/** Days a live-run marker outlives its deadline before DynamoDB's TTL removes a forgotten one. */
const liveMarkerDays = 7;

/** An execution's item and, when it has a deadline, its live-run marker put or deleted. */
function executionWrites(execution: Execution): WriteRequests {
  const item = {
    PutRequest: {
      Item: {
        ...keys.execution(execution.id),
        ...executionIndex(execution),
        type: 'execution',
        ...execution,
      },
    },
  };
  if (!execution.deadlineAt) return [item];
  const marker = keys.liveExecution(execution.id, execution.deadlineAt);
  if (execution.status !== 'running') return [item, { DeleteRequest: { Key: marker } }];
  const ttl = Math.floor(new Date(execution.deadlineAt).getTime() / 1000) + liveMarkerDays * 86_400;
  return [
    item,
    {
      PutRequest: {
        Item: {
          ...marker,
          type: 'liveExecution',
          executionId: execution.id,
          projectId: execution.projectId,
          [tableSchema.timeToLiveAttribute]: ttl,
        },
      },
    },
  ];
}

export class DynamoDbExecutionStore implements ExecutionStore {
  private readonly records: TableRecords;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.records = new TableRecords(client, tableName);
  }

  async putExecution(execution: Execution): Promise<void> {
    if (!execution.deadlineAt) {
      await this.records.put(keys.execution(execution.id), 'execution', execution, executionIndex(execution));
      return;
    }
    // With its live-run marker (put while running, deleted once final): one request for both.
    await this.records.writeMany(executionWrites(execution), 'execution');
  }

  async putExecutions(executions: Execution[]): Promise<void> {
    // One id twice in a batch is refused, so keep the latest.
    const latest = [...new Map(executions.map((e) => [e.id, e])).values()];
    await this.records.writeMany(latest.flatMap(executionWrites), 'executions');
  }

  /**
   * Executions still `running` whose deadline is before `deadlineBefore` (ISO), oldest deadline first:
   * one Query per marker partition, then the records themselves (decision 0056).
   */
  async listOverdueExecutions(deadlineBefore: string): Promise<Execution[]> {
    const markers: { executionId: string }[] = [];
    for (let shard = 0; shard < liveExecutionShards; shard++) {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await this.records.client.send(
          new QueryCommand({
            TableName: this.records.tableName,
            KeyConditionExpression: 'pk = :pk AND sk < :before',
            ExpressionAttributeValues: { ':pk': `LIVEEXEC#${shard}`, ':before': deadlineBefore },
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        markers.push(...((page.Items ?? []) as { executionId: string }[]));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
    const found: Execution[] = [];
    for (const { executionId } of markers) {
      const execution = await this.getExecution(executionId);
      if (execution?.status === 'running') found.push(execution);
    }
    return found;
  }
  getExecution(executionId: string): Promise<Execution | undefined> {
    return this.records.get<Execution>(keys.execution(executionId));
  }
}
