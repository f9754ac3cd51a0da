/**
 * Notification settings, deliveries and subject states on the one table (docs/data-model.md,
 * "Notifications"). A delivery carries gsi1 keys only while it is unfinished (pending or sending):
 * the due index is exactly the queue of attempts to make, and finishing a delivery drops it.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NotificationDelivery, NotificationSettings } from '../../domain/notifications/model.ts';
import type { NotificationStore } from '../../domain/notifications/ports.ts';
import { putIf } from './conditional-put.ts';
import { decodeSortKeyCursor, encodeSortKeyCursor } from './sort-key-cursor.ts';
import { tableSchema } from './table-schema.ts';

type Item = Record<string, unknown>;

export const notificationKeys = {
  settings: (projectId: string) => ({ pk: `PROJECT#${projectId}`, sk: '#NOTIFYSETTINGS' }),
  subjectState: (projectId: string, subjectKey: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `NOTIFYSTATE#${subjectKey}`,
  }),
  /** Delivery ids are UUIDv7: one project's log is one partition, newest last. */
  delivery: (projectId: string, deliveryId: string) => ({ pk: `NOTIFYLOG#${projectId}`, sk: deliveryId }),
  due: (nextAttemptAt: string, deliveryId: string) => ({
    gsi1pk: 'NOTIFYDUE',
    gsi1sk: `${nextAttemptAt}#${deliveryId}`,
  }),
};

const unfinished = new Set(['pending', 'sending']);

export class DynamoDbNotificationStore implements NotificationStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getSettings(projectId: string) {
    return this.get<NotificationSettings>(notificationKeys.settings(projectId));
  }

  saveSettings(settings: NotificationSettings, expectedVersion: number): Promise<boolean> {
    return putIf(
      this.client,
      this.tableName,
      { ...notificationKeys.settings(settings.projectId), type: 'notificationSettings', ...settings },
      expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#version = :expected',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':expected': expectedVersion },
          },
    );
  }

  async createDelivery(delivery: NotificationDelivery): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: deliveryItem(delivery),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  updateDelivery(delivery: NotificationDelivery, expectedVersion: number): Promise<boolean> {
    return putIf(this.client, this.tableName, deliveryItem(delivery), {
      ConditionExpression: '#version = :expected',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':expected': expectedVersion },
    });
  }

  getDelivery(projectId: string, deliveryId: string) {
    return this.get<NotificationDelivery>(notificationKeys.delivery(projectId, deliveryId));
  }

  async listDeliveries(projectId: string, query: { limit: number; cursor?: string }) {
    const before = query.cursor
      ? decodeSortKeyCursor(query.cursor, {
          maxLength: 200,
          isValidSortKey: (sk) => /^[a-z]+_[0-9a-f]{32}$/.test(sk),
        })
      : undefined;
    const page = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: before ? 'pk = :pk AND sk < :before' : 'pk = :pk',
        ExpressionAttributeValues: {
          ':pk': notificationKeys.delivery(projectId, '').pk,
          ...(before ? { ':before': before } : {}),
        },
        ScanIndexForward: false,
        Limit: query.limit,
        ConsistentRead: true,
      }),
    );
    const deliveries = (page.Items ?? []).map((item) => recordOf<NotificationDelivery>(item));
    const last = deliveries.at(-1);
    return {
      deliveries,
      ...(page.LastEvaluatedKey && last ? { cursor: encodeSortKeyCursor(last.id) } : {}),
    };
  }

  async listDueDeliveries(before: string, limit: number): Promise<NotificationDelivery[]> {
    const page = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: tableSchema.indexes[0].name,
        KeyConditionExpression: 'gsi1pk = :due AND gsi1sk <= :before',
        ExpressionAttributeValues: { ':due': 'NOTIFYDUE', ':before': `${before}#~` },
        Limit: limit,
      }),
    );
    // The index is eventually consistent: read each record itself before acting on it.
    const records = await Promise.all(
      (page.Items ?? []).map((item) => this.getDelivery(String(item.projectId), String(item.id))),
    );
    return records.filter(
      (record): record is NotificationDelivery =>
        record !== undefined && unfinished.has(record.status) && (record.nextAttemptAt ?? '') <= before,
    );
  }

  async nextDueTime(): Promise<string | undefined> {
    const page = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: tableSchema.indexes[0].name,
        KeyConditionExpression: 'gsi1pk = :due',
        ExpressionAttributeValues: { ':due': 'NOTIFYDUE' },
        Limit: 1,
      }),
    );
    const first = page.Items?.[0];
    return first ? String(first.gsi1sk).split('#')[0] : undefined;
  }

  async getSubjectFailing(projectId: string, subjectKey: string): Promise<boolean> {
    const state = await this.get<{ failing: boolean }>(notificationKeys.subjectState(projectId, subjectKey));
    return state?.failing ?? false;
  }

  async putSubjectFailing(projectId: string, subjectKey: string, failing: boolean): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...notificationKeys.subjectState(projectId, subjectKey), type: 'notificationState', failing },
      }),
    );
  }

  private async get<T>(key: { pk: string; sk: string }): Promise<T | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
    );
    return Item ? recordOf<T>(Item) : undefined;
  }
}

function deliveryItem(delivery: NotificationDelivery): Item {
  return {
    ...notificationKeys.delivery(delivery.projectId, delivery.id),
    ...(unfinished.has(delivery.status) && delivery.nextAttemptAt
      ? notificationKeys.due(delivery.nextAttemptAt, delivery.id)
      : {}),
    type: 'notificationDelivery',
    ...delivery,
  };
}

function recordOf<T>(item: Item): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
  return record as T;
}
