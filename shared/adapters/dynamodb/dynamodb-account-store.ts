/**
 * Accounts, invitations and the single sign-on provider on the one table. Accounts share one
 * partition (`ACCOUNTS`), so the administrators' list is one Query; a team's accounts fit easily.
 */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type {
  Account,
  AccountStore,
  InvitationRecord,
  SsoProviderSettings,
} from '../../domain/accounts/model.ts';
import { putIf } from './conditional-put.ts';

const accountKey = (userId: string) => ({ pk: 'ACCOUNTS', sk: `ACCOUNT#${userId}` });
const invitationKey = (tokenHash: string) => ({ pk: `INVITATION#${tokenHash}`, sk: '#INVITATION' });
const ssoProviderKey = { pk: 'DEPLOYMENT', sk: 'SSO_PROVIDER' };

function recordOf<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, type: _type, ...record } = item;
  return record as T;
}

export class DynamoDbAccountStore implements AccountStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async get<T>(key: { pk: string; sk: string }): Promise<T | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
    );
    return Item ? recordOf<T>(Item) : undefined;
  }

  getAccount(userId: string) {
    return this.get<Account>(accountKey(userId));
  }

  async listAccounts(): Promise<Account[]> {
    const accounts: Account[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': 'ACCOUNTS', ':prefix': 'ACCOUNT#' },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) accounts.push(recordOf<Account>(item));
      start = page.LastEvaluatedKey;
    } while (start);
    return accounts;
  }

  saveAccount(account: Account, expectedVersion: number): Promise<boolean> {
    return putIf(
      this.client,
      this.tableName,
      { ...accountKey(account.userId), type: 'account', ...account },
      expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#version = :expected',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':expected': expectedVersion },
          },
    );
  }

  getInvitation(tokenHash: string) {
    return this.get<InvitationRecord>(invitationKey(tokenHash));
  }

  async putInvitation(record: InvitationRecord): Promise<void> {
    await putIf(
      this.client,
      this.tableName,
      { ...invitationKey(record.tokenHash), type: 'invitation', ...record },
      {},
    );
  }

  getSsoProvider() {
    return this.get<SsoProviderSettings>(ssoProviderKey);
  }

  async putSsoProvider(settings: SsoProviderSettings): Promise<void> {
    await putIf(this.client, this.tableName, { ...ssoProviderKey, type: 'ssoProvider', ...settings }, {});
  }

  async deleteSsoProvider(): Promise<boolean> {
    const { Attributes } = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: ssoProviderKey, ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }
}
