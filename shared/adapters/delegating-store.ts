/** Forwards every Store call; decorators override only what they change. */
import type { ActionGroup, UserGroup } from '../domain/definitions/governance.ts';
import type { MasterDataList } from '../domain/definitions/master-data.ts';
import type { View } from '../domain/definitions/view.ts';
import type { Action, DataSource, Environment, Membership, Project, User } from '../domain/model.ts';
import type { Store, StoredSecret } from '../domain/ports.ts';

export class DelegatingStore implements Store {
  constructor(protected readonly inner: Store) {}

  get actionVersions(): Store['actionVersions'] {
    return this.inner.actionVersions;
  }
  get viewVersions(): Store['viewVersions'] {
    return this.inner.viewVersions;
  }

  getProject(projectId: string): Promise<Project | undefined> {
    return this.inner.getProject(projectId);
  }
  getEnvironment(projectId: string, environmentId: string): Promise<Environment | undefined> {
    return this.inner.getEnvironment(projectId, environmentId);
  }
  getAction(projectId: string, actionId: string): Promise<Action | undefined> {
    return this.inner.getAction(projectId, actionId);
  }
  getDataSource(projectId: string, dataSourceId: string): Promise<DataSource | undefined> {
    return this.inner.getDataSource(projectId, dataSourceId);
  }
  getMembership(projectId: string, principalId: string): Promise<Membership | undefined> {
    return this.inner.getMembership(projectId, principalId);
  }
  createProject(project: Project): Promise<void> {
    return this.inner.createProject(project);
  }
  updateProject(project: Project): Promise<void> {
    return this.inner.updateProject(project);
  }
  createEnvironment(environment: Environment): Promise<void> {
    return this.inner.createEnvironment(environment);
  }
  updateEnvironment(environment: Environment): Promise<void> {
    return this.inner.updateEnvironment(environment);
  }
  putMembership(membership: Membership): Promise<void> {
    return this.inner.putMembership(membership);
  }
  listMembershipsOfPrincipal(principalId: string): Promise<Membership[]> {
    return this.inner.listMembershipsOfPrincipal(principalId);
  }
  putDataSource(dataSource: DataSource): Promise<void> {
    return this.inner.putDataSource(dataSource);
  }
  putAction(action: Action): Promise<void> {
    return this.inner.putAction(action);
  }
  listEnvironments(projectId: string): Promise<Environment[]> {
    return this.inner.listEnvironments(projectId);
  }
  listDataSources(projectId: string): Promise<DataSource[]> {
    return this.inner.listDataSources(projectId);
  }
  deleteDataSource(projectId: string, dataSourceId: string): Promise<boolean> {
    return this.inner.deleteDataSource(projectId, dataSourceId);
  }
  listActions(projectId: string): Promise<Action[]> {
    return this.inner.listActions(projectId);
  }
  saveAction(action: Action, expectedVersion: number): Promise<boolean> {
    return this.inner.saveAction(action, expectedVersion);
  }
  deleteAction(projectId: string, actionId: string): Promise<boolean> {
    return this.inner.deleteAction(projectId, actionId);
  }
  listVariables(projectId: string, environmentId: string): Promise<Record<string, string>> {
    return this.inner.listVariables(projectId, environmentId);
  }
  putVariable(projectId: string, environmentId: string, name: string, value: string): Promise<void> {
    return this.inner.putVariable(projectId, environmentId, name, value);
  }
  deleteVariable(projectId: string, environmentId: string, name: string): Promise<boolean> {
    return this.inner.deleteVariable(projectId, environmentId, name);
  }
  listSecrets(projectId: string, environmentId: string): Promise<Record<string, StoredSecret>> {
    return this.inner.listSecrets(projectId, environmentId);
  }
  putSecret(projectId: string, environmentId: string, name: string, secret: StoredSecret): Promise<void> {
    return this.inner.putSecret(projectId, environmentId, name, secret);
  }
  deleteSecret(projectId: string, environmentId: string, name: string): Promise<boolean> {
    return this.inner.deleteSecret(projectId, environmentId, name);
  }

  getMasterData(projectId: string, masterDataId: string): Promise<MasterDataList | undefined> {
    return this.inner.getMasterData(projectId, masterDataId);
  }
  listMasterData(projectId: string): Promise<MasterDataList[]> {
    return this.inner.listMasterData(projectId);
  }
  putMasterData(list: MasterDataList): Promise<void> {
    return this.inner.putMasterData(list);
  }
  deleteMasterData(projectId: string, masterDataId: string): Promise<boolean> {
    return this.inner.deleteMasterData(projectId, masterDataId);
  }
  listConfigurationNames(projectId: string) {
    return this.inner.listConfigurationNames(projectId);
  }
  getUserByEmail(email: string): Promise<User | undefined> {
    return this.inner.getUserByEmail(email);
  }
  createUser(user: User): Promise<User> {
    return this.inner.createUser(user);
  }

  // Members, user groups, action groups
  listMemberships(projectId: string): Promise<Membership[]> {
    return this.inner.listMemberships(projectId);
  }
  deleteMembership(projectId: string, principalId: string): Promise<boolean> {
    return this.inner.deleteMembership(projectId, principalId);
  }
  getUsers(userIds: readonly string[]): Promise<User[]> {
    return this.inner.getUsers(userIds);
  }
  getUserGroup(projectId: string, groupId: string): Promise<UserGroup | undefined> {
    return this.inner.getUserGroup(projectId, groupId);
  }
  listUserGroups(projectId: string): Promise<UserGroup[]> {
    return this.inner.listUserGroups(projectId);
  }
  listUserGroupsOfPrincipal(projectId: string, principalId: string): Promise<UserGroup[]> {
    return this.inner.listUserGroupsOfPrincipal(projectId, principalId);
  }
  saveUserGroup(group: UserGroup, expectedVersion: number): Promise<boolean> {
    return this.inner.saveUserGroup(group, expectedVersion);
  }
  deleteUserGroup(projectId: string, groupId: string): Promise<boolean> {
    return this.inner.deleteUserGroup(projectId, groupId);
  }
  getActionGroup(projectId: string, groupId: string): Promise<ActionGroup | undefined> {
    return this.inner.getActionGroup(projectId, groupId);
  }
  listActionGroups(projectId: string): Promise<ActionGroup[]> {
    return this.inner.listActionGroups(projectId);
  }
  saveActionGroup(group: ActionGroup, expectedVersion: number): Promise<boolean> {
    return this.inner.saveActionGroup(group, expectedVersion);
  }
  deleteActionGroup(projectId: string, groupId: string): Promise<boolean> {
    return this.inner.deleteActionGroup(projectId, groupId);
  }

  // Service accounts and trust policies

  getView(projectId: string, viewId: string): Promise<View | undefined> {
    return this.inner.getView(projectId, viewId);
  }
  listViews(projectId: string): Promise<View[]> {
    return this.inner.listViews(projectId);
  }
  saveView(view: View, expectedVersion: number): Promise<boolean> {
    return this.inner.saveView(view, expectedVersion);
  }
  deleteView(projectId: string, viewId: string): Promise<boolean> {
    return this.inner.deleteView(projectId, viewId);
  }
}
