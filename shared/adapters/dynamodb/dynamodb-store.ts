/**
 * Store on one DynamoDB table through lib-dynamodb. Uses only operations that
 * DynamoDB and dynalite both support: uniqueness comes from conditional puts,
 * never from transactions.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ActionGroup, UserGroup } from '../../domain/definitions/governance.ts';
import type { MasterDataList } from '../../domain/definitions/master-data.ts';
import type { View } from '../../domain/definitions/view.ts';
import type { ServiceAccount, TrustPolicy } from '../../domain/identity/model.ts';
import type {
  Action,
  DataSource,
  Environment,
  Execution,
  Membership,
  Project,
  User,
} from '../../domain/model.ts';
import { AlreadyExistsError, type Store, type StoredSecret } from '../../domain/ports.ts';
import type { ReviewRequest, ReviewStatus } from '../../domain/reviews.ts';
import type { ActionVersion, Publication } from '../../domain/versions.ts';
import type { ViewPublication, ViewVersion } from '../../domain/views/store.ts';
import { backoffBeforeRetry, type WriteRequests, writeInBatches } from './batch-write.ts';
import { type PutCondition, putIf } from './conditional-put.ts';
import { keys, liveExecutionShards, tableSchema } from './table-schema.ts';

type Key = { pk: string; sk: string };

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

export class DynamoDbStore implements Store {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async get<T>(key: Key): Promise<T | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: key }));
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = Item;
    return record as T;
  }

  private async put(key: Key, type: string, record: object, extra: Record<string, string> = {}) {
    await this.client.send(
      new PutCommand({ TableName: this.tableName, Item: { ...key, ...extra, type, ...record } }),
    );
  }

  /** A put that fails with AlreadyExistsError instead of overwriting. */
  private async create(key: Key, type: string, record: object, extra: Record<string, string> = {}) {
    const created = await putIf(
      this.client,
      this.tableName,
      { ...key, ...extra, type, ...record },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    );
    if (!created) throw new AlreadyExistsError(`${type} ${key.pk}`);
  }

  getProject(projectId: string) {
    return this.get<Project>(keys.project(projectId));
  }
  getEnvironment(projectId: string, environmentId: string) {
    return this.get<Environment>(keys.environment(projectId, environmentId));
  }
  getAction(projectId: string, actionId: string) {
    return this.get<Action>(keys.action(projectId, actionId));
  }
  getDataSource(projectId: string, dataSourceId: string) {
    return this.get<DataSource>(keys.dataSource(projectId, dataSourceId));
  }
  getMembership(projectId: string, principalId: string) {
    return this.get<Membership>(keys.membership(projectId, principalId));
  }

  createProject(project: Project) {
    return this.create(keys.project(project.id), 'project', project);
  }
  async updateProject(project: Project): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.project(project.id), type: 'project', ...project },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }
  createEnvironment(environment: Environment) {
    return this.create(keys.environment(environment.projectId, environment.id), 'environment', environment);
  }
  async updateEnvironment(environment: Environment): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.environment(environment.projectId, environment.id),
          type: 'environment',
          ...environment,
        },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }
  putMembership(membership: Membership) {
    return this.put(keys.membership(membership.projectId, membership.principalId), 'membership', membership, {
      gsi1pk: `PRINCIPAL#${membership.principalId}`,
      gsi1sk: `PROJECT#${membership.projectId}`,
    });
  }
  async listMembershipsOfPrincipal(principalId: string): Promise<Membership[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: tableSchema.indexes[0].name,
        KeyConditionExpression: 'gsi1pk = :principal AND begins_with(gsi1sk, :project)',
        ExpressionAttributeValues: { ':principal': `PRINCIPAL#${principalId}`, ':project': 'PROJECT#' },
      }),
    );
    return Items.filter((i) => i.type === 'membership').map((i) => ({
      projectId: i.projectId as string,
      principalId: i.principalId as string,
      role: i.role as Membership['role'],
    }));
  }
  putDataSource(dataSource: DataSource) {
    return this.put(keys.dataSource(dataSource.projectId, dataSource.id), 'dataSource', dataSource);
  }
  putAction(action: Action) {
    return this.put(keys.action(action.projectId, action.id), 'action', action);
  }

  /** Every item of a project whose sort key starts with `prefix`, across pages. */
  private async queryProject<T>(projectId: string, prefix: string): Promise<(T & { sk: string })[]> {
    const items: (T & { sk: string })[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': prefix },
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const { pk: _pk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
        items.push(record as T & { sk: string });
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return items;
  }

  private async remove(key: Key): Promise<boolean> {
    const { Attributes } = await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: key, ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }

  async listEnvironments(projectId: string): Promise<Environment[]> {
    return (await this.queryProject<Environment>(projectId, 'ENV#')).map(({ sk: _sk, ...e }) => e);
  }
  async listDataSources(projectId: string): Promise<DataSource[]> {
    return (await this.queryProject<DataSource>(projectId, 'DATASOURCE#')).map(
      ({ sk: _sk, ...d }) => d as DataSource,
    );
  }
  deleteDataSource(projectId: string, dataSourceId: string) {
    return this.remove(keys.dataSource(projectId, dataSourceId));
  }
  async listActions(projectId: string): Promise<Action[]> {
    return (await this.queryProject<Action>(projectId, 'ACTION#')).map(({ sk: _sk, ...a }) => a as Action);
  }
  saveAction(action: Action, expectedVersion: number): Promise<boolean> {
    return this.putVersioned(keys.action(action.projectId, action.id), 'action', action, expectedVersion);
  }
  deleteAction(projectId: string, actionId: string) {
    return this.remove(keys.action(projectId, actionId));
  }

  // Review requests
  createReview(review: ReviewRequest) {
    return this.create(keys.review(review.projectId, review.id), 'review', review);
  }
  getReview(projectId: string, reviewId: string) {
    return this.get<ReviewRequest>(keys.review(projectId, reviewId));
  }
  async listReviews(projectId: string): Promise<ReviewRequest[]> {
    // Ids are UUIDv7: sorting by id is sorting by time.
    const items = await this.queryProject<ReviewRequest>(projectId, 'REVIEW#');
    return items.map(({ sk: _sk, ...r }) => r).sort((a, b) => (a.id < b.id ? 1 : -1));
  }
  updateReview(review: ReviewRequest, expected: ReviewStatus): Promise<boolean> {
    return this.putIf(keys.review(review.projectId, review.id), 'review', review, {
      ConditionExpression: '#status = :expected',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':expected': expected },
    });
  }

  // Action versions and publications
  createActionVersion(version: ActionVersion) {
    return this.create(
      keys.actionVersion(version.projectId, version.actionId, version.version),
      'actionVersion',
      version,
    );
  }
  getActionVersion(projectId: string, actionId: string, version: number) {
    return this.get<ActionVersion>(keys.actionVersion(projectId, actionId, version));
  }
  async listActionVersions(projectId: string, actionId: string): Promise<ActionVersion[]> {
    const items = await this.queryProject<ActionVersion>(projectId, `ACTIONVER#${actionId}#`);
    return items.map(({ sk: _sk, ...v }) => v).sort((a, b) => b.version - a.version);
  }
  getPublication(projectId: string, actionId: string, environmentId: string) {
    return this.get<Publication>(keys.publication(projectId, actionId, environmentId));
  }
  async listPublications(projectId: string, actionId: string): Promise<Publication[]> {
    return (await this.queryProject<Publication>(projectId, `PUBLICATION#${actionId}#`)).map(
      ({ sk: _sk, ...p }) => p,
    );
  }
  putPublication(publication: Publication) {
    return this.put(
      keys.publication(publication.projectId, publication.actionId, publication.environmentId),
      'publication',
      publication,
    );
  }
  deletePublication(projectId: string, actionId: string, environmentId: string) {
    return this.remove(keys.publication(projectId, actionId, environmentId));
  }

  getMasterData(projectId: string, masterDataId: string) {
    return this.get<MasterDataList>(keys.masterData(projectId, masterDataId));
  }
  async listMasterData(projectId: string): Promise<MasterDataList[]> {
    return (await this.queryProject<MasterDataList>(projectId, 'MASTER#')).map(({ sk: _sk, ...m }) => m);
  }
  putMasterData(list: MasterDataList) {
    return this.put(keys.masterData(list.projectId, list.id), 'masterData', list);
  }
  deleteMasterData(projectId: string, masterDataId: string) {
    return this.remove(keys.masterData(projectId, masterDataId));
  }

  async listVariables(projectId: string, environmentId: string): Promise<Record<string, string>> {
    const items = await this.queryProject<{ name: string; value: string }>(
      projectId,
      `VAR#${environmentId}#`,
    );
    return Object.fromEntries(items.map((item) => [item.name, item.value]));
  }
  putVariable(projectId: string, environmentId: string, name: string, value: string) {
    return this.put(keys.variable(projectId, environmentId, name), 'variable', {
      environmentId,
      name,
      value,
    });
  }
  deleteVariable(projectId: string, environmentId: string, name: string) {
    return this.remove(keys.variable(projectId, environmentId, name));
  }
  async listSecrets(projectId: string, environmentId: string): Promise<Record<string, StoredSecret>> {
    const items = await this.queryProject<StoredSecret & { name: string }>(
      projectId,
      `SECRET#${environmentId}#`,
    );
    return Object.fromEntries(
      items.map(({ name, ciphertext, updatedAt }) => [name, { ciphertext, updatedAt }]),
    );
  }
  putSecret(projectId: string, environmentId: string, name: string, secret: StoredSecret) {
    return this.put(keys.secret(projectId, environmentId, name), 'secret', {
      environmentId,
      name,
      ...secret,
    });
  }
  deleteSecret(projectId: string, environmentId: string, name: string) {
    return this.remove(keys.secret(projectId, environmentId, name));
  }
  async listConfigurationNames(projectId: string) {
    const [variables, secrets] = await Promise.all([
      this.queryProject<{ environmentId: string; name: string }>(projectId, 'VAR#'),
      this.queryProject<{ environmentId: string; name: string }>(projectId, 'SECRET#'),
    ]);
    return [
      ...variables.map((v) => ({ kind: 'variable' as const, environmentId: v.environmentId, name: v.name })),
      ...secrets.map((v) => ({ kind: 'secret' as const, environmentId: v.environmentId, name: v.name })),
    ];
  }

  async getUserByEmail(email: string): Promise<User | undefined> {
    const claim = await this.get<{ userId: string }>(keys.userEmail(email));
    return claim ? this.get<User>(keys.user(claim.userId)) : undefined;
  }

  async createUser(user: User): Promise<User> {
    // The e-mail claim is the uniqueness guard: of two concurrent sign-ups one wins.
    try {
      await this.create(keys.userEmail(user.email), 'userEmail', { userId: user.id });
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      const claim = await this.get<{ userId: string }>(keys.userEmail(user.email));
      const existing = claim && (await this.get<User>(keys.user(claim.userId)));
      if (existing || !claim) throw error;
      // A crash between the two writes left a claim without its user: finish that sign-up.
      user = { ...user, id: claim.userId };
    }
    await this.put(keys.user(user.id), 'user', user);
    return user;
  }

  async putExecution(execution: Execution) {
    if (!execution.deadlineAt) {
      await this.put(keys.execution(execution.id), 'execution', execution, executionIndex(execution));
      return;
    }
    // With its live-run marker (put while running, deleted once final): one request for both.
    await writeInBatches(this.client, this.tableName, executionWrites(execution), 'execution');
  }

  async putExecutions(executions: Execution[]): Promise<void> {
    // One id twice in a batch is refused, so keep the latest.
    const latest = [...new Map(executions.map((e) => [e.id, e])).values()];
    await writeInBatches(this.client, this.tableName, latest.flatMap(executionWrites), 'executions');
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
        const page = await this.client.send(
          new QueryCommand({
            TableName: this.tableName,
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
  getExecution(executionId: string) {
    return this.get<Execution>(keys.execution(executionId));
  }

  async claimMarker(name: string, at: string): Promise<boolean> {
    try {
      await this.create(keys.marker(name), 'marker', { name, at });
      return true;
    } catch (error) {
      if (error instanceof AlreadyExistsError) return false;
      throw error;
    }
  }
  async hasMarker(name: string): Promise<boolean> {
    return (await this.get(keys.marker(name))) !== undefined;
  }

  // Members, user groups, action groups
  /** Like `get`, but reads the latest write (a read-modify-write must start from it). */
  private async getConsistently<T>(key: Key): Promise<T | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = Item;
    return record as T;
  }

  /** Every record of a project under a sort key prefix, read consistently, across pages. */
  private async queryProjectConsistently<T>(projectId: string, prefix: string): Promise<T[]> {
    const records: T[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': prefix },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
        records.push(record as T);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return records;
  }

  /** BatchGetItem in chunks of 100, retrying what DynamoDB leaves unprocessed. */
  private async getMany<T>(itemKeys: Key[]): Promise<T[]> {
    const records: T[] = [];
    for (let i = 0; i < itemKeys.length; i += 100) {
      let pending: Record<string, unknown>[] = itemKeys.slice(i, i + 100);
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB left keys unprocessed after retries.');
        if (attempt > 0) await backoffBeforeRetry(attempt);
        const result = await this.client.send(
          new BatchGetCommand({
            RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } },
          }),
        );
        for (const item of result.Responses?.[this.tableName] ?? []) {
          const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
          records.push(record as T);
        }
        pending = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    }
    return records;
  }

  private writeMany(requests: WriteRequests): Promise<void> {
    return writeInBatches(this.client, this.tableName, requests);
  }

  /** A put conditional on the stored `version` (0: the item must not exist); false on conflict. */
  private putVersioned(key: Key, type: string, record: { version: number }, expectedVersion: number) {
    return this.putIf(
      key,
      type,
      record,
      expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':expected': expectedVersion },
          },
    );
  }

  private putIf(key: Key, type: string, record: object, condition: PutCondition): Promise<boolean> {
    return putIf(this.client, this.tableName, { ...key, type, ...record }, condition);
  }

  listMemberships(projectId: string) {
    return this.queryProjectConsistently<Membership>(projectId, 'MEMBER#');
  }
  deleteMembership(projectId: string, principalId: string) {
    return this.remove(keys.membership(projectId, principalId));
  }
  async getUsers(userIds: readonly string[]): Promise<User[]> {
    return this.getMany<User>([...new Set(userIds)].map((id) => keys.user(id)));
  }

  acquireLock(name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    return this.putIf(
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
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
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

  getUserGroup(projectId: string, groupId: string) {
    return this.get<UserGroup>(keys.userGroup(projectId, groupId));
  }
  listUserGroups(projectId: string) {
    return this.queryProjectConsistently<UserGroup>(projectId, 'UGROUP#');
  }
  async listUserGroupsOfPrincipal(projectId: string, principalId: string): Promise<UserGroup[]> {
    const index = await this.queryProjectConsistently<{ groupId: string }>(
      projectId,
      `PRINCIPALGROUP#${principalId}#`,
    );
    if (index.length === 0) return [];
    const groups = await this.getMany<UserGroup>(index.map((i) => keys.userGroup(projectId, i.groupId)));
    // The group item is the truth; an index item a crash or a lost race left behind grants nothing.
    return groups.filter((g) => g.members.includes(principalId)).sort((a, b) => a.id.localeCompare(b.id));
  }
  /**
   * Index items of new members are written before the group and those of removed members deleted
   * after it, so the index always covers the group item (a left-over is filtered on read).
   */
  async saveUserGroup(group: UserGroup, expectedVersion: number): Promise<boolean> {
    const { projectId, id } = group;
    const previous =
      expectedVersion === 0
        ? undefined
        : await this.getConsistently<UserGroup>(keys.userGroup(projectId, id));
    if ((previous?.version ?? 0) !== expectedVersion) return false;
    const before = new Set(previous?.members ?? []);
    const after = new Set(group.members);
    await this.writeMany(
      group.members
        .filter((p) => !before.has(p))
        .map((principalId) => ({
          PutRequest: {
            Item: {
              ...keys.principalGroup(projectId, principalId, id),
              type: 'principalGroup',
              principalId,
              groupId: id,
            },
          },
        })),
    );
    if (!(await this.putVersioned(keys.userGroup(projectId, id), 'userGroup', group, expectedVersion)))
      return false;
    await this.writeMany(
      [...before]
        .filter((p) => !after.has(p))
        .map((p) => ({ DeleteRequest: { Key: keys.principalGroup(projectId, p, id) } })),
    );
    return true;
  }
  async deleteUserGroup(projectId: string, groupId: string): Promise<boolean> {
    const group = await this.getConsistently<UserGroup>(keys.userGroup(projectId, groupId));
    if (!(await this.remove(keys.userGroup(projectId, groupId)))) return false;
    await this.writeMany(
      (group?.members ?? []).map((p) => ({
        DeleteRequest: { Key: keys.principalGroup(projectId, p, groupId) },
      })),
    );
    return true;
  }

  getActionGroup(projectId: string, groupId: string) {
    return this.get<ActionGroup>(keys.actionGroup(projectId, groupId));
  }
  listActionGroups(projectId: string) {
    return this.queryProjectConsistently<ActionGroup>(projectId, 'AGROUP#');
  }
  saveActionGroup(group: ActionGroup, expectedVersion: number) {
    return this.putVersioned(
      keys.actionGroup(group.projectId, group.id),
      'actionGroup',
      group,
      expectedVersion,
    );
  }
  deleteActionGroup(projectId: string, groupId: string) {
    return this.remove(keys.actionGroup(projectId, groupId));
  }

  // Views: head, immutable versions, publications (shared/domain/views/store.ts)
  getView(projectId: string, viewId: string) {
    return this.get<View>(keys.view(projectId, viewId));
  }
  async listViews(projectId: string): Promise<View[]> {
    return (await this.queryProject<View>(projectId, 'VIEW#')).map(({ sk: _sk, ...v }) => v as View);
  }
  saveView(view: View, expectedVersion: number) {
    return this.putVersioned(keys.view(view.projectId, view.id), 'view', view, expectedVersion);
  }
  async deleteView(projectId: string, viewId: string): Promise<boolean> {
    if (!(await this.remove(keys.view(projectId, viewId)))) return false;
    // Versions and publications go with the head, so a view made again with this id starts afresh.
    const [versions, publications] = await Promise.all([
      this.queryProject<ViewVersion>(projectId, `VIEWVER#${viewId}#`),
      this.queryProject<ViewPublication>(projectId, `VIEWPUB#${viewId}#`),
    ]);
    await this.writeMany(
      [...versions, ...publications].map(({ sk }) => ({
        DeleteRequest: { Key: { pk: `PROJECT#${projectId}`, sk } },
      })),
    );
    return true;
  }
  createViewVersion(version: ViewVersion) {
    return this.create(
      keys.viewVersion(version.projectId, version.viewId, version.version),
      'viewVersion',
      version,
    );
  }
  getViewVersion(projectId: string, viewId: string, version: number) {
    return this.get<ViewVersion>(keys.viewVersion(projectId, viewId, version));
  }
  async listViewVersions(projectId: string, viewId: string): Promise<ViewVersion[]> {
    const items = await this.queryProject<ViewVersion>(projectId, `VIEWVER#${viewId}#`);
    return items.map(({ sk: _sk, ...v }) => v).sort((a, b) => b.version - a.version);
  }
  getViewPublication(projectId: string, viewId: string, environmentId: string) {
    return this.get<ViewPublication>(keys.viewPublication(projectId, viewId, environmentId));
  }
  async listViewPublications(projectId: string, viewId: string): Promise<ViewPublication[]> {
    return (await this.queryProject<ViewPublication>(projectId, `VIEWPUB#${viewId}#`)).map(
      ({ sk: _sk, ...p }) => p,
    );
  }
  putViewPublication(publication: ViewPublication) {
    return this.put(
      keys.viewPublication(publication.projectId, publication.viewId, publication.environmentId),
      'viewPublication',
      publication,
    );
  }
  deleteViewPublication(projectId: string, viewId: string, environmentId: string) {
    return this.remove(keys.viewPublication(projectId, viewId, environmentId));
  }

  // Service accounts and trust policies
  getServiceAccount(projectId: string, serviceAccountId: string) {
    // Consistent: token checks must see a revocation or deletion as soon as it is written.
    return this.getConsistently<ServiceAccount>(keys.serviceAccount(projectId, serviceAccountId));
  }
  async getServiceAccountByEmail(email: string): Promise<ServiceAccount | undefined> {
    const claim = await this.getConsistently<EmailClaim>(keys.serviceAccountEmail(email));
    return claim && this.getServiceAccount(claim.projectId, claim.serviceAccountId);
  }
  async listServiceAccounts(projectId: string): Promise<ServiceAccount[]> {
    const accounts = await this.queryProjectConsistently<ServiceAccount>(projectId, 'SA#');
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
      await this.create(key, 'serviceAccount', account);
      return;
    }
    const saved = await this.putIf(key, 'serviceAccount', account, {
      ConditionExpression: 'attribute_exists(pk) AND tokenGeneration <= :generation',
      ExpressionAttributeValues: { ':generation': account.tokenGeneration },
    });
    if (!saved) throw new Error(`Service account ${account.id} was deleted or revoked while being saved.`);
  }
  private async claimServiceAccountEmail(account: ServiceAccount) {
    const claimKey = keys.serviceAccountEmail(account.email);
    const claim: EmailClaim = { projectId: account.projectId, serviceAccountId: account.id };
    try {
      await this.create(claimKey, 'serviceAccountEmail', claim);
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      const holder = await this.getConsistently<EmailClaim>(claimKey);
      if (!holder || (await this.getServiceAccount(holder.projectId, holder.serviceAccountId))) throw error;
      // A crash between the two writes (or during a deletion) left a claim without its account.
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
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
    if (!(await this.remove(keys.serviceAccount(projectId, serviceAccountId)))) return false;
    if (account) {
      try {
        await this.client.send(
          new DeleteCommand({
            TableName: this.tableName,
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
    return this.getConsistently<TrustPolicy>(keys.trustPolicy(projectId, policyId));
  }
  async listTrustPolicies(projectId: string, serviceAccountId: string): Promise<TrustPolicy[]> {
    const policies = await this.queryProjectConsistently<TrustPolicy>(projectId, 'TRUSTPOLICY#');
    return policies.filter((p) => p.serviceAccountId === serviceAccountId).sort(byMatchingOrder);
  }
  /** gsi1 (eventually consistent): a policy saved a moment ago may be missing for that moment. */
  async listTrustPoliciesByIssuer(issuer: string): Promise<TrustPolicy[]> {
    const policies: TrustPolicy[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
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
    return this.put(
      keys.trustPolicy(policy.projectId, policy.id),
      'trustPolicy',
      policy,
      keys.trustPolicyByIssuer(policy.issuer, policy.createdAt, policy.projectId, policy.id),
    );
  }
  deleteTrustPolicy(projectId: string, policyId: string) {
    return this.remove(keys.trustPolicy(projectId, policyId));
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
