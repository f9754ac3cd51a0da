/**
 * Service accounts and trust policies on the table (shared/domain/identity/model.ts): each account
 * claims its e-mail address with a conditional put, and policies are indexed by issuer (gsi1) for
 * the token exchange.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { IdentityStore, ServiceAccount, TrustPolicy } from '../../domain/identity/model.ts';
import { AlreadyExistsError } from '../../domain/ports.ts';
import { TableRecords } from './table-records.ts';
import { keys, tableSchema } from './table-schema.ts';

export class DynamoDbIdentityStore implements IdentityStore {
  private readonly records: TableRecords;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.records = new TableRecords(client, tableName);
  }

  getServiceAccount(projectId: string, serviceAccountId: string) {
    // Consistent: token checks must see a revocation or deletion as soon as it is written.
    return this.records.getConsistently<ServiceAccount>(keys.serviceAccount(projectId, serviceAccountId));
  }
  async getServiceAccountByEmail(email: string): Promise<ServiceAccount | undefined> {
    const claim = await this.records.getConsistently<EmailClaim>(keys.serviceAccountEmail(email));
    return claim && this.getServiceAccount(claim.projectId, claim.serviceAccountId);
  }
  async listServiceAccounts(projectId: string): Promise<ServiceAccount[]> {
    const accounts = await this.records.listConsistently<ServiceAccount>(projectId, 'SA#');
    return accounts.sort((a, b) => a.name.localeCompare(b.name));
  }
  /**
   * New accounts first claim their e-mail address (a conditional put, so of two concurrent creations
   * one wins), then write the account. Updates never resurrect a deleted account and never lower
   * `tokenGeneration`, so a revocation cannot be undone by a concurrent save.
   */
  async saveServiceAccount(account: ServiceAccount, isNew: boolean): Promise<void> {
    const key = keys.serviceAccount(account.projectId, account.id);
    if (isNew) {
      await this.claimServiceAccountEmail(account);
      await this.records.create(key, 'serviceAccount', account);
      return;
    }
    const saved = await this.records.putIf(key, 'serviceAccount', account, {
      ConditionExpression: 'attribute_exists(pk) AND tokenGeneration <= :generation',
      ExpressionAttributeValues: { ':generation': account.tokenGeneration },
    });
    if (!saved) throw new Error(`Service account ${account.id} was deleted or revoked while being saved.`);
  }
  private async claimServiceAccountEmail(account: ServiceAccount) {
    const claimKey = keys.serviceAccountEmail(account.email);
    const claim: EmailClaim = { projectId: account.projectId, serviceAccountId: account.id };
    try {
      await this.records.create(claimKey, 'serviceAccountEmail', claim);
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      const holder = await this.records.getConsistently<EmailClaim>(claimKey);
      if (!holder || (await this.getServiceAccount(holder.projectId, holder.serviceAccountId))) throw error;
      // A crash between the two writes (or during a deletion) left a claim without its account.
      await this.records.client.send(
        new PutCommand({
          TableName: this.records.tableName,
          Item: { ...claimKey, type: 'serviceAccountEmail', ...claim },
          ConditionExpression: 'serviceAccountId = :stale',
          ExpressionAttributeValues: { ':stale': holder.serviceAccountId },
        }),
      );
    }
  }
  /** Deletes the account, then its e-mail claim (a claim left by a crash is taken over on reuse). */
  async deleteServiceAccount(projectId: string, serviceAccountId: string): Promise<boolean> {
    const account = await this.getServiceAccount(projectId, serviceAccountId);
    if (!(await this.records.remove(keys.serviceAccount(projectId, serviceAccountId)))) return false;
    if (account) {
      try {
        await this.records.client.send(
          new DeleteCommand({
            TableName: this.records.tableName,
            Key: keys.serviceAccountEmail(account.email),
            ConditionExpression: 'serviceAccountId = :id',
            ExpressionAttributeValues: { ':id': serviceAccountId },
          }),
        );
      } catch (error) {
        // Someone already reuses the address: the claim is theirs now.
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    return true;
  }

  getTrustPolicy(projectId: string, policyId: string) {
    return this.records.getConsistently<TrustPolicy>(keys.trustPolicy(projectId, policyId));
  }
  async listTrustPolicies(projectId: string, serviceAccountId: string): Promise<TrustPolicy[]> {
    const policies = await this.records.listConsistently<TrustPolicy>(projectId, 'TRUSTPOLICY#');
    return policies.filter((p) => p.serviceAccountId === serviceAccountId).sort(byMatchingOrder);
  }
  /** gsi1 (eventually consistent): a policy saved a moment ago may be missing for that moment. */
  async listTrustPoliciesByIssuer(issuer: string): Promise<TrustPolicy[]> {
    const policies: TrustPolicy[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.records.client.send(
        new QueryCommand({
          TableName: this.records.tableName,
          IndexName: tableSchema.indexes[0].name,
          KeyConditionExpression: 'gsi1pk = :issuer',
          ExpressionAttributeValues: { ':issuer': `TRUSTISSUER#${issuer}` },
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        if (item.type !== 'trustPolicy') continue;
        const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...policy } = item;
        policies.push(policy as TrustPolicy);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return policies;
  }
  saveTrustPolicy(policy: TrustPolicy) {
    return this.records.put(
      keys.trustPolicy(policy.projectId, policy.id),
      'trustPolicy',
      policy,
      keys.trustPolicyByIssuer(policy.issuer, policy.createdAt, policy.projectId, policy.id),
    );
  }
  deleteTrustPolicy(projectId: string, policyId: string) {
    return this.records.remove(keys.trustPolicy(projectId, policyId));
  }
}

interface EmailClaim {
  projectId: string;
  serviceAccountId: string;
}

/** Oldest first, ties by project and id: the order gsi1 returns and the token exchange tries. */
const byMatchingOrder = (a: TrustPolicy, b: TrustPolicy) =>
  compareText(a.createdAt, b.createdAt) || compareText(a.projectId, b.projectId) || compareText(a.id, b.id);
/** By code unit, as DynamoDB orders (ASCII) sort keys; localeCompare would fold case. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
