/**
 * The authorization server's records for MCP clients (shared/domain/agents/oauth-store.ts) on the
 * one table, one partition each, with `ttl` so DynamoDB deletes them after they expire. Until it
 * does (up to about two days, and never in the embedded runtime's store) a read past `expiresAt`
 * answers nothing. Single use (codes, refresh tokens, pending requests) is a conditional write.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type {
  AuthorizationCodeRecord,
  GrantRecord,
  OAuthClientRecord,
  OAuthStore,
  PendingAuthorization,
  RefreshTokenRecord,
} from '../../domain/agents/oauth/store.ts';

const key = (kind: string, id: string) => ({ pk: `OAUTH${kind}#${id}`, sk: `#OAUTH${kind}` });
const clientKey = (clientId: string) => key('CLIENT', clientId);
const requestKey = (requestId: string) => key('REQUEST', requestId);
const codeKey = (codeHash: string) => key('CODE', codeHash);
const grantKey = (grantId: string) => key('GRANT', grantId);
const refreshKey = (tokenHash: string) => key('REFRESH', tokenHash);

function recordOf<T extends { expiresAt: number }>(
  item: Record<string, unknown> | undefined,
  now: number,
): T | undefined {
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, type: _type, ttl: _ttl, ...record } = item;
  return (record as T).expiresAt > now ? (record as T) : undefined;
}

export class DynamoDbOAuthStore implements OAuthStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async put(keyOf: { pk: string; sk: string }, type: string, record: { expiresAt: number }) {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keyOf, type, ...record, ttl: record.expiresAt },
      }),
    );
  }

  private async get<T extends { expiresAt: number }>(keyOf: { pk: string; sk: string }, now: number) {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: keyOf, ConsistentRead: true }),
    );
    return recordOf<T>(Item, now);
  }

  /** Sets `usedAt` unless set: `first` says whether this call set it. */
  private async markUsed<T extends { expiresAt: number }>(
    keyOf: { pk: string; sk: string },
    now: number,
    extra: Record<string, unknown> = {},
  ): Promise<{ record: T; first: boolean } | undefined> {
    const names = Object.keys(extra);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keyOf,
          UpdateExpression: `SET usedAt = :now${names.map((name) => `, #${name} = :${name}`).join('')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAt > :now',
          ...(names.length
            ? { ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])) }
            : {}),
          ExpressionAttributeValues: {
            ':now': now,
            ...Object.fromEntries(names.map((name) => [`:${name}`, extra[name]])),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const record = recordOf<T>(Attributes, now);
      return record ? { record, first: true } : undefined;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const record = await this.get<T>(keyOf, now);
      return record ? { record, first: false } : undefined;
    }
  }

  putClient(client: OAuthClientRecord) {
    return this.put(clientKey(client.clientId), 'oauthClient', client);
  }

  getClient(clientId: string, now: number) {
    return this.get<OAuthClientRecord>(clientKey(clientId), now);
  }

  putPendingAuthorization(request: PendingAuthorization) {
    return this.put(requestKey(request.requestId), 'oauthRequest', request);
  }

  getPendingAuthorization(requestId: string, now: number) {
    return this.get<PendingAuthorization>(requestKey(requestId), now);
  }

  async takePendingAuthorization(requestId: string, now: number) {
    const { Attributes } = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: requestKey(requestId), ReturnValues: 'ALL_OLD' }),
    );
    return recordOf<PendingAuthorization>(Attributes, now);
  }

  putCode(code: AuthorizationCodeRecord) {
    return this.put(codeKey(code.codeHash), 'oauthCode', code);
  }

  async redeemCode(codeHash: string, grantId: string, now: number) {
    const used = await this.markUsed<AuthorizationCodeRecord>(codeKey(codeHash), now, { grantId });
    return used && { code: used.record, first: used.first };
  }

  putGrant(grant: GrantRecord) {
    return this.put(grantKey(grant.grantId), 'oauthGrant', grant);
  }

  getGrant(grantId: string, now: number) {
    return this.get<GrantRecord>(grantKey(grantId), now);
  }

  async deleteGrant(grantId: string) {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: grantKey(grantId) }));
  }

  putRefreshToken(token: RefreshTokenRecord) {
    return this.put(refreshKey(token.tokenHash), 'oauthRefresh', token);
  }

  async spendRefreshToken(tokenHash: string, now: number) {
    const used = await this.markUsed<RefreshTokenRecord>(refreshKey(tokenHash), now);
    return used && { token: used.record, first: used.first };
  }

  getRefreshToken(tokenHash: string, now: number) {
    return this.get<RefreshTokenRecord>(refreshKey(tokenHash), now);
  }
}
