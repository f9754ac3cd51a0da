/**
 * Keeps definitions (projects, environments, memberships, data sources,
 * actions) in memory so the execution path does not read the store on every
 * request. Writes made through this store evict what they change, so in the
 * embedded runtime (one process per data directory) the cache is exact. On
 * AWS other containers may write: entries also expire after `ttlMs`.
 */
import type { UserGroup } from '../domain/definitions/governance.ts';
import type { MasterDataList } from '../domain/definitions/master-data.ts';
import type { Action, DataSource, Environment, Membership, Project } from '../domain/model.ts';
import type { Store, StoredSecret } from '../domain/ports.ts';
import type { ActionVersion, Publication } from '../domain/versions.ts';
import { CachingVersionedDocuments } from './caching-versioned-documents.ts';
import { DelegatingStore } from './delegating-store.ts';
import { TimedCache } from './timed-cache.ts';

export class CachingStore extends DelegatingStore {
  private readonly cache: TimedCache;
  private readonly cachedActionVersions: CachingVersionedDocuments<ActionVersion, Publication>;

  constructor(inner: Store, ttlMs: number, now: () => number = Date.now) {
    super(inner);
    this.cache = new TimedCache(ttlMs, now);
    this.cachedActionVersions = new CachingVersionedDocuments(
      inner.actionVersions,
      this.cache,
      'action',
      (record) => record.actionId,
    );
  }

  /** How many definitions are held, and the most it holds (the runtime's metrics show it). */
  stats(): { size: number; max: number } {
    return this.cache.stats();
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cache.cached(key, load);
  }

  private evictAfter<T>(key: string, write: Promise<T>): Promise<T> {
    return this.cache.evictAfter(key, write);
  }

  /** The version an environment runs, and that version, are read by every run. */
  override get actionVersions(): Store['actionVersions'] {
    return this.cachedActionVersions;
  }

  override getProject(projectId: string): Promise<Project | undefined> {
    return this.cached(`project/${projectId}`, () => super.getProject(projectId));
  }
  override getEnvironment(projectId: string, environmentId: string): Promise<Environment | undefined> {
    return this.cached(`env/${projectId}/${environmentId}`, () =>
      super.getEnvironment(projectId, environmentId),
    );
  }
  override getAction(projectId: string, actionId: string): Promise<Action | undefined> {
    return this.cached(`action/${projectId}/${actionId}`, () => super.getAction(projectId, actionId));
  }
  override getDataSource(projectId: string, dataSourceId: string): Promise<DataSource | undefined> {
    return this.cached(`ds/${projectId}/${dataSourceId}`, () => super.getDataSource(projectId, dataSourceId));
  }
  override getMembership(projectId: string, principalId: string): Promise<Membership | undefined> {
    return this.cached(`member/${projectId}/${principalId}`, () =>
      super.getMembership(projectId, principalId),
    );
  }

  override createProject(project: Project): Promise<void> {
    return this.evictAfter(`project/${project.id}`, super.createProject(project));
  }
  override updateProject(project: Project): Promise<void> {
    return this.evictAfter(`project/${project.id}`, super.updateProject(project));
  }
  override createEnvironment(environment: Environment): Promise<void> {
    return this.evictAfter(
      `env/${environment.projectId}/${environment.id}`,
      super.createEnvironment(environment),
    );
  }
  override updateEnvironment(environment: Environment): Promise<void> {
    return this.evictAfter(
      `env/${environment.projectId}/${environment.id}`,
      super.updateEnvironment(environment),
    );
  }
  override putMembership(membership: Membership): Promise<void> {
    return this.evictAfter(
      `member/${membership.projectId}/${membership.principalId}`,
      super.putMembership(membership),
    );
  }
  /** A removed member must lose access at once, not when the cached membership expires. */
  /** Which groups a principal is in: asked by every authorization, so cached; group writes evict the project's. */
  override listUserGroupsOfPrincipal(projectId: string, principalId: string): Promise<UserGroup[]> {
    return this.cached(`groupsOf/${projectId}/${principalId}`, () =>
      super.listUserGroupsOfPrincipal(projectId, principalId),
    );
  }
  override async saveUserGroup(group: UserGroup, expectedVersion: number): Promise<boolean> {
    try {
      return await super.saveUserGroup(group, expectedVersion);
    } finally {
      this.evictPrefix(`groupsOf/${group.projectId}/`);
    }
  }
  override async deleteUserGroup(projectId: string, groupId: string): Promise<boolean> {
    try {
      return await super.deleteUserGroup(projectId, groupId);
    } finally {
      this.evictPrefix(`groupsOf/${projectId}/`);
    }
  }
  private evictPrefix(prefix: string): void {
    this.cache.evictPrefix(prefix);
  }

  override deleteMembership(projectId: string, principalId: string): Promise<boolean> {
    return this.evictAfter(
      `member/${projectId}/${principalId}`,
      super.deleteMembership(projectId, principalId),
    );
  }
  override putDataSource(dataSource: DataSource): Promise<void> {
    return this.evictAfter(`ds/${dataSource.projectId}/${dataSource.id}`, super.putDataSource(dataSource));
  }
  override putAction(action: Action): Promise<void> {
    return this.evictAfter(`action/${action.projectId}/${action.id}`, super.putAction(action));
  }
  override async saveAction(action: Action, expectedVersion: number): Promise<boolean> {
    try {
      return await super.saveAction(action, expectedVersion);
    } finally {
      this.cache.evict(`action/${action.projectId}/${action.id}`);
    }
  }
  override deleteAction(projectId: string, actionId: string): Promise<boolean> {
    return this.evictAfter(`action/${projectId}/${actionId}`, super.deleteAction(projectId, actionId));
  }
  override deleteDataSource(projectId: string, dataSourceId: string): Promise<boolean> {
    return this.evictAfter(
      `ds/${projectId}/${dataSourceId}`,
      super.deleteDataSource(projectId, dataSourceId),
    );
  }

  override getMasterData(projectId: string, masterDataId: string): Promise<MasterDataList | undefined> {
    return this.cached(`master/${projectId}/${masterDataId}`, () =>
      super.getMasterData(projectId, masterDataId),
    );
  }
  override putMasterData(list: MasterDataList): Promise<void> {
    return this.evictAfter(`master/${list.projectId}/${list.id}`, super.putMasterData(list));
  }
  override deleteMasterData(projectId: string, masterDataId: string): Promise<boolean> {
    return this.evictAfter(
      `master/${projectId}/${masterDataId}`,
      super.deleteMasterData(projectId, masterDataId),
    );
  }

  override listVariables(projectId: string, environmentId: string): Promise<Record<string, string>> {
    return this.cached(`vars/${projectId}/${environmentId}`, () =>
      super.listVariables(projectId, environmentId),
    );
  }
  override putVariable(projectId: string, environmentId: string, name: string, value: string): Promise<void> {
    return this.evictAfter(
      `vars/${projectId}/${environmentId}`,
      super.putVariable(projectId, environmentId, name, value),
    );
  }
  override deleteVariable(projectId: string, environmentId: string, name: string): Promise<boolean> {
    return this.evictAfter(
      `vars/${projectId}/${environmentId}`,
      super.deleteVariable(projectId, environmentId, name),
    );
  }
  override listSecrets(projectId: string, environmentId: string): Promise<Record<string, StoredSecret>> {
    return this.cached(`secrets/${projectId}/${environmentId}`, () =>
      super.listSecrets(projectId, environmentId),
    );
  }
  override putSecret(
    projectId: string,
    environmentId: string,
    name: string,
    secret: StoredSecret,
  ): Promise<void> {
    return this.evictAfter(
      `secrets/${projectId}/${environmentId}`,
      super.putSecret(projectId, environmentId, name, secret),
    );
  }
  override deleteSecret(projectId: string, environmentId: string, name: string): Promise<boolean> {
    return this.evictAfter(
      `secrets/${projectId}/${environmentId}`,
      super.deleteSecret(projectId, environmentId, name),
    );
  }
}
