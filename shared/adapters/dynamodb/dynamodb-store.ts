/**
 * The definitions store on one DynamoDB table through lib-dynamodb (records: table-records.ts;
 * versions and publications: dynamodb-versioned-documents.ts). Uses only operations that DynamoDB
 * and dynalite both support: uniqueness comes from conditional puts, never from transactions.
 */
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ActionGroup, UserGroup } from '../../domain/definitions/governance.ts';
import type { MasterDataList } from '../../domain/definitions/master-data.ts';
import type { View } from '../../domain/definitions/view.ts';
import type { Action, DataSource, Environment, Membership, Project, User } from '../../domain/model.ts';
import { AlreadyExistsError, type Store, type StoredSecret } from '../../domain/ports.ts';
import type { VersionedDocuments } from '../../domain/versioned-documents.ts';
import type { ActionVersion, Publication } from '../../domain/versions.ts';
import type { ViewPublication, ViewVersion } from '../../domain/views/store.ts';
import { actionLayout, DynamoDbVersionedDocuments, viewLayout } from './dynamodb-versioned-documents.ts';
import { TableRecords } from './table-records.ts';
import { keys, tableSchema } from './table-schema.ts';

export class DynamoDbStore implements Store {
  private readonly records: TableRecords;
  readonly actionVersions: VersionedDocuments<ActionVersion, Publication>;
  readonly viewVersions: VersionedDocuments<ViewVersion, ViewPublication>;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.records = new TableRecords(client, tableName);
    this.actionVersions = new DynamoDbVersionedDocuments(this.records, actionLayout);
    this.viewVersions = new DynamoDbVersionedDocuments(this.records, viewLayout);
  }

  getProject(projectId: string) {
    return this.records.get<Project>(keys.project(projectId));
  }
  getEnvironment(projectId: string, environmentId: string) {
    return this.records.get<Environment>(keys.environment(projectId, environmentId));
  }
  getAction(projectId: string, actionId: string) {
    return this.records.get<Action>(keys.action(projectId, actionId));
  }
  getDataSource(projectId: string, dataSourceId: string) {
    return this.records.get<DataSource>(keys.dataSource(projectId, dataSourceId));
  }
  getMembership(projectId: string, principalId: string) {
    return this.records.get<Membership>(keys.membership(projectId, principalId));
  }

  createProject(project: Project) {
    return this.records.create(keys.project(project.id), 'project', project);
  }
  async updateProject(project: Project): Promise<void> {
    await this.records.client.send(
      new PutCommand({
        TableName: this.records.tableName,
        Item: { ...keys.project(project.id), type: 'project', ...project },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }
  createEnvironment(environment: Environment) {
    return this.records.create(
      keys.environment(environment.projectId, environment.id),
      'environment',
      environment,
    );
  }
  async updateEnvironment(environment: Environment): Promise<void> {
    await this.records.client.send(
      new PutCommand({
        TableName: this.records.tableName,
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
    return this.records.put(
      keys.membership(membership.projectId, membership.principalId),
      'membership',
      membership,
      {
        gsi1pk: `PRINCIPAL#${membership.principalId}`,
        gsi1sk: `PROJECT#${membership.projectId}`,
      },
    );
  }
  async listMembershipsOfPrincipal(principalId: string): Promise<Membership[]> {
    const { Items = [] } = await this.records.client.send(
      new QueryCommand({
        TableName: this.records.tableName,
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
    return this.records.put(keys.dataSource(dataSource.projectId, dataSource.id), 'dataSource', dataSource);
  }
  putAction(action: Action) {
    return this.records.put(keys.action(action.projectId, action.id), 'action', action);
  }

  async listEnvironments(projectId: string): Promise<Environment[]> {
    return this.records.listProject<Environment>(projectId, 'ENV#');
  }
  async listDataSources(projectId: string): Promise<DataSource[]> {
    return this.records.listProject<DataSource>(projectId, 'DATASOURCE#');
  }
  deleteDataSource(projectId: string, dataSourceId: string) {
    return this.records.remove(keys.dataSource(projectId, dataSourceId));
  }
  async listActions(projectId: string): Promise<Action[]> {
    return this.records.listProject<Action>(projectId, 'ACTION#');
  }
  saveAction(action: Action, expectedVersion: number): Promise<boolean> {
    return this.records.putVersioned(
      keys.action(action.projectId, action.id),
      'action',
      action,
      expectedVersion,
    );
  }
  deleteAction(projectId: string, actionId: string) {
    return this.records.remove(keys.action(projectId, actionId));
  }

  getMasterData(projectId: string, masterDataId: string) {
    return this.records.get<MasterDataList>(keys.masterData(projectId, masterDataId));
  }
  async listMasterData(projectId: string): Promise<MasterDataList[]> {
    return this.records.listProject<MasterDataList>(projectId, 'MASTER#');
  }
  putMasterData(list: MasterDataList) {
    return this.records.put(keys.masterData(list.projectId, list.id), 'masterData', list);
  }
  deleteMasterData(projectId: string, masterDataId: string) {
    return this.records.remove(keys.masterData(projectId, masterDataId));
  }

  async listVariables(projectId: string, environmentId: string): Promise<Record<string, string>> {
    const items = await this.records.queryProject<{ name: string; value: string }>(
      projectId,
      `VAR#${environmentId}#`,
    );
    return Object.fromEntries(items.map((item) => [item.name, item.value]));
  }
  putVariable(projectId: string, environmentId: string, name: string, value: string) {
    return this.records.put(keys.variable(projectId, environmentId, name), 'variable', {
      environmentId,
      name,
      value,
    });
  }
  deleteVariable(projectId: string, environmentId: string, name: string) {
    return this.records.remove(keys.variable(projectId, environmentId, name));
  }
  async listSecrets(projectId: string, environmentId: string): Promise<Record<string, StoredSecret>> {
    const items = await this.records.queryProject<StoredSecret & { name: string }>(
      projectId,
      `SECRET#${environmentId}#`,
    );
    return Object.fromEntries(
      items.map(({ name, ciphertext, updatedAt }) => [name, { ciphertext, updatedAt }]),
    );
  }
  putSecret(projectId: string, environmentId: string, name: string, secret: StoredSecret) {
    return this.records.put(keys.secret(projectId, environmentId, name), 'secret', {
      environmentId,
      name,
      ...secret,
    });
  }
  deleteSecret(projectId: string, environmentId: string, name: string) {
    return this.records.remove(keys.secret(projectId, environmentId, name));
  }
  async listConfigurationNames(projectId: string) {
    const [variables, secrets] = await Promise.all([
      this.records.queryProject<{ environmentId: string; name: string }>(projectId, 'VAR#'),
      this.records.queryProject<{ environmentId: string; name: string }>(projectId, 'SECRET#'),
    ]);
    return [
      ...variables.map((v) => ({ kind: 'variable' as const, environmentId: v.environmentId, name: v.name })),
      ...secrets.map((v) => ({ kind: 'secret' as const, environmentId: v.environmentId, name: v.name })),
    ];
  }

  async getUserByEmail(email: string): Promise<User | undefined> {
    const claim = await this.records.get<{ userId: string }>(keys.userEmail(email));
    return claim ? this.records.get<User>(keys.user(claim.userId)) : undefined;
  }

  async createUser(user: User): Promise<User> {
    // The e-mail claim is the uniqueness guard: of two concurrent sign-ups one wins.
    try {
      await this.records.create(keys.userEmail(user.email), 'userEmail', { userId: user.id });
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      const claim = await this.records.get<{ userId: string }>(keys.userEmail(user.email));
      const existing = claim && (await this.records.get<User>(keys.user(claim.userId)));
      if (existing || !claim) throw error;
      // A crash between the two writes left a claim without its user: finish that sign-up.
      user = { ...user, id: claim.userId };
    }
    await this.records.put(keys.user(user.id), 'user', user);
    return user;
  }

  listMemberships(projectId: string) {
    return this.records.listConsistently<Membership>(projectId, 'MEMBER#');
  }
  deleteMembership(projectId: string, principalId: string) {
    return this.records.remove(keys.membership(projectId, principalId));
  }
  async getUsers(userIds: readonly string[]): Promise<User[]> {
    return this.records.getMany<User>([...new Set(userIds)].map((id) => keys.user(id)));
  }

  getUserGroup(projectId: string, groupId: string) {
    return this.records.get<UserGroup>(keys.userGroup(projectId, groupId));
  }
  listUserGroups(projectId: string) {
    return this.records.listConsistently<UserGroup>(projectId, 'UGROUP#');
  }
  async listUserGroupsOfPrincipal(projectId: string, principalId: string): Promise<UserGroup[]> {
    const index = await this.records.listConsistently<{ groupId: string }>(
      projectId,
      `PRINCIPALGROUP#${principalId}#`,
    );
    if (index.length === 0) return [];
    const groups = await this.records.getMany<UserGroup>(
      index.map((i) => keys.userGroup(projectId, i.groupId)),
    );
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
        : await this.records.getConsistently<UserGroup>(keys.userGroup(projectId, id));
    if ((previous?.version ?? 0) !== expectedVersion) return false;
    const before = new Set(previous?.members ?? []);
    const after = new Set(group.members);
    await this.records.writeMany(
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
    if (
      !(await this.records.putVersioned(keys.userGroup(projectId, id), 'userGroup', group, expectedVersion))
    )
      return false;
    await this.records.writeMany(
      [...before]
        .filter((p) => !after.has(p))
        .map((p) => ({ DeleteRequest: { Key: keys.principalGroup(projectId, p, id) } })),
    );
    return true;
  }
  async deleteUserGroup(projectId: string, groupId: string): Promise<boolean> {
    const group = await this.records.getConsistently<UserGroup>(keys.userGroup(projectId, groupId));
    if (!(await this.records.remove(keys.userGroup(projectId, groupId)))) return false;
    await this.records.writeMany(
      (group?.members ?? []).map((p) => ({
        DeleteRequest: { Key: keys.principalGroup(projectId, p, groupId) },
      })),
    );
    return true;
  }

  getActionGroup(projectId: string, groupId: string) {
    return this.records.get<ActionGroup>(keys.actionGroup(projectId, groupId));
  }
  listActionGroups(projectId: string) {
    return this.records.listConsistently<ActionGroup>(projectId, 'AGROUP#');
  }
  saveActionGroup(group: ActionGroup, expectedVersion: number) {
    return this.records.putVersioned(
      keys.actionGroup(group.projectId, group.id),
      'actionGroup',
      group,
      expectedVersion,
    );
  }
  deleteActionGroup(projectId: string, groupId: string) {
    return this.records.remove(keys.actionGroup(projectId, groupId));
  }

  // Views: head, immutable versions, publications (shared/domain/views/store.ts)
  getView(projectId: string, viewId: string) {
    return this.records.get<View>(keys.view(projectId, viewId));
  }
  async listViews(projectId: string): Promise<View[]> {
    return this.records.listProject<View>(projectId, 'VIEW#');
  }
  saveView(view: View, expectedVersion: number) {
    return this.records.putVersioned(keys.view(view.projectId, view.id), 'view', view, expectedVersion);
  }
  async deleteView(projectId: string, viewId: string): Promise<boolean> {
    if (!(await this.records.remove(keys.view(projectId, viewId)))) return false;
    // Versions and publications go with the head, so a view made again with this id starts afresh.
    await this.viewVersions.deleteAll(projectId, viewId);
    return true;
  }
}
