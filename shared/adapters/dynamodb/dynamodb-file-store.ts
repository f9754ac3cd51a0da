/**
 * File version records and upload tokens on the one table (docs/data-model.md). The bytes of a
 * version are not here: they are in the blob store (items are limited to 400 KB).
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type {
  FileVersion,
  FileVersionStore,
  UploadToken,
  UploadTokenStore,
} from '../../domain/files/model.ts';
import { AlreadyExistsError } from '../../domain/ports.ts';
import { putIf } from './conditional-put.ts';
import { keys, tableSchema } from './table-schema.ts';

type Item = Record<string, unknown>;
const recordOf = <T>(item: Item): T => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
  return record as T;
};

export class DynamoDbFileStore implements FileVersionStore, UploadTokenStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createFileVersion(version: FileVersion): Promise<void> {
    const key = keys.fileVersion(version.projectId, version.dataSourceId, version.environmentId, version.id);
    const written = await putIf(
      this.client,
      this.tableName,
      { ...key, type: 'fileVersion', ...version },
      {
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    );
    if (!written) throw new AlreadyExistsError(`file version ${version.id}`);
  }

  async getFileVersion(projectId: string, dataSourceId: string, environmentId: string, versionId: string) {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.fileVersion(projectId, dataSourceId, environmentId, versionId),
        ConsistentRead: true,
      }),
    );
    return Item ? recordOf<FileVersion>(Item) : undefined;
  }

  /** Newest first, read consistently: an upload is followed at once. */
  async listFileVersions(projectId: string, dataSourceId: string, environmentId: string) {
    const prefix = keys.fileVersion(projectId, dataSourceId, environmentId, '').sk;
    const versions: FileVersion[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': prefix },
          ScanIndexForward: false,
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      versions.push(...(page.Items ?? []).map((i) => recordOf<FileVersion>(i)));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return versions;
  }

  async deleteFileVersion(projectId: string, dataSourceId: string, environmentId: string, versionId: string) {
    return this.remove(keys.fileVersion(projectId, dataSourceId, environmentId, versionId));
  }

  async createUploadToken(token: UploadToken): Promise<void> {
    const written = await putIf(this.client, this.tableName, this.tokenItem(token), {
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    if (!written) throw new AlreadyExistsError(`upload token ${token.id}`);
  }

  replaceUploadToken(token: UploadToken): Promise<boolean> {
    return putIf(this.client, this.tableName, this.tokenItem(token), {
      ConditionExpression: 'attribute_exists(pk)',
    });
  }

  async getUploadToken(projectId: string, tokenId: string) {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.uploadToken(projectId, tokenId),
        ConsistentRead: true,
      }),
    );
    return Item ? recordOf<UploadToken>(Item) : undefined;
  }

  /** The index gives the project; the item itself is then read consistently (rotation is immediate). */
  async findUploadToken(tokenId: string) {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: tableSchema.indexes[0].name,
        KeyConditionExpression: 'gsi1pk = :id',
        ExpressionAttributeValues: { ':id': keys.uploadTokenById(tokenId).gsi1pk },
      }),
    );
    const projectId = Items.find((i) => i.type === 'uploadToken')?.projectId;
    return typeof projectId === 'string' ? this.getUploadToken(projectId, tokenId) : undefined;
  }

  async listUploadTokens(projectId: string) {
    const tokens: UploadToken[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': 'UPLOADTOKEN#' },
          ExclusiveStartKey,
        }),
      );
      tokens.push(...(page.Items ?? []).map((i) => recordOf<UploadToken>(i)));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return tokens;
  }

  deleteUploadToken(projectId: string, tokenId: string) {
    return this.remove(keys.uploadToken(projectId, tokenId));
  }

  async touchUploadToken(projectId: string, tokenId: string, at: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.uploadToken(projectId, tokenId),
        UpdateExpression: 'SET lastUsedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  }

  private tokenItem(token: UploadToken): Item {
    return {
      ...keys.uploadToken(token.projectId, token.id),
      ...keys.uploadTokenById(token.id),
      type: 'uploadToken',
      ...token,
    };
  }

  private async remove(key: Record<string, string>): Promise<boolean> {
    const { Attributes } = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: key, ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }
}
