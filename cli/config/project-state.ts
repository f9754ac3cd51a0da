/** What a project holds now, read through the management API: the "before" side of every diff. */
import type {
  ManagementApi,
  StoredAction,
  StoredCronJob,
  StoredGroup,
  StoredMember,
  StoredNotifications,
  StoredResource,
  StoredSecret,
  StoredServiceAccount,
  StoredTrustPolicy,
} from './management-api.ts';
import { ProblemError, viewPath } from './management-api.ts';

export interface ProjectState {
  dataSources: Map<string, StoredResource>;
  actions: Map<string, StoredAction>;
  masterData: Map<string, StoredResource>;
  /** Per environment: name → value. */
  variables: Map<string, Map<string, string>>;
  /** Per environment: name → when it was last set (values never leave the service). */
  secrets: Map<string, Map<string, StoredSecret>>;
  /** Direct members and principals in user groups, as `GET /members` lists them. */
  members: StoredMember[];
  userGroups: Map<string, StoredGroup>;
  actionGroups: Map<string, StoredGroup>;
  /** Views with their definitions (one request per view: the list has summaries only). */
  views: Map<string, StoredResource>;
  /** By name (ids differ between installations), each with its trust policies. */
  serviceAccounts: Map<string, StoredServiceAccount & { trustPolicies: StoredTrustPolicy[] }>;
  /** Per environment: action id → the version published there. */
  publications: Map<string, Map<string, number>>;
  /** Per environment: view id → the version published there. */
  viewPublications: Map<string, Map<string, number>>;
  /** Per environment: its cron jobs, as listed (names should be unique, but the service does not enforce it). */
  cronJobs: Map<string, StoredCronJob[]>;
  /** The protected environments: only published versions run there (docs/governance.md). */
  protectedEnvironments: Set<string>;
  /** Notification targets (by id, as stored), rules and the network policy. */
  notifications: StoredNotifications;
  /** Environments asked for that the project does not have. */
  missingEnvironments: string[];
}

/**
 * Reads data sources, actions, master data lists, members, user and action groups, service accounts
 * with their trust policies (one request per account), notification settings, the publications
 * of every action (one request per action: the API has no list of a project's publications), and the variables, secrets and cron jobs of every environment the data sources
 * name plus `moreEnvironments` (the API has no list of environments: see docs/config.md).
 */
export async function readProjectState(
  api: ManagementApi,
  moreEnvironments: Iterable<string>,
): Promise<ProjectState> {
  const [
    dataSources,
    actions,
    masterData,
    members,
    userGroups,
    actionGroups,
    serviceAccounts,
    viewList,
    environmentList,
    notifications,
  ] = await Promise.all([
    api.listDataSources(),
    api.listActions(),
    api.listMasterData(),
    api.listMembers(),
    api.listUserGroups(),
    api.listActionGroups(),
    api.listServiceAccounts(),
    api.listViews(),
    api.listEnvironments(),
    api.notifications(),
  ]);
  const [versions, trustPolicies, views] = await Promise.all([
    Promise.all(actions.map((a) => api.actionVersions(a.id))),
    Promise.all(serviceAccounts.map((a) => api.listTrustPolicies(a.id))),
    Promise.all(viewList.map(async (v) => (await api.get(viewPath(v.id))) as StoredResource | undefined)),
  ]);
  const viewVersions = await Promise.all(viewList.map((v) => api.viewVersions(v.id)));
  const viewPublications = new Map<string, Map<string, number>>();
  viewList.forEach((view, i) => {
    for (const { environmentId, version } of viewVersions[i]!.publications) {
      if (!viewPublications.has(environmentId)) viewPublications.set(environmentId, new Map());
      viewPublications.get(environmentId)!.set(view.id, version);
    }
  });
  const publications = new Map<string, Map<string, number>>();
  actions.forEach((action, i) => {
    for (const { environmentId, version } of versions[i]!.publications) {
      if (!publications.has(environmentId)) publications.set(environmentId, new Map());
      publications.get(environmentId)!.set(action.id, version);
    }
  });
  const environments = new Set(moreEnvironments);
  for (const dataSource of dataSources) {
    for (const environmentId of Object.keys((dataSource.environments as object | undefined) ?? {})) {
      environments.add(environmentId);
    }
  }
  const state: ProjectState = {
    dataSources: new Map(dataSources.map((d) => [d.id, d])),
    actions: new Map(actions.map((a) => [a.id, a])),
    masterData: new Map(masterData.map((m) => [m.id, m])),
    members,
    userGroups: new Map(userGroups.map((g) => [g.id, g])),
    actionGroups: new Map(actionGroups.map((g) => [g.id, g])),
    // A view deleted between the list and its read is simply not there.
    views: new Map(views.flatMap((v) => (v ? [[v.id, v] as const] : []))),
    serviceAccounts: new Map(
      serviceAccounts.map((a, i) => [a.name, { ...a, trustPolicies: trustPolicies[i]! }] as const),
    ),
    publications,
    viewPublications,
    notifications,
    variables: new Map(),
    secrets: new Map(),
    cronJobs: new Map(),
    protectedEnvironments: new Set(environmentList.filter((e) => e.protected).map((e) => e.id)),
    missingEnvironments: [],
  };
  await Promise.all(
    [...environments].sort().map(async (environmentId) => {
      try {
        const [variables, secrets, cronJobs] = await Promise.all([
          api.listVariables(environmentId),
          api.listSecrets(environmentId),
          api.listCronJobs(environmentId),
        ]);
        state.variables.set(environmentId, new Map(variables.map((v) => [v.name, v.value])));
        state.secrets.set(environmentId, new Map(secrets.map((s) => [s.name, s])));
        state.cronJobs.set(environmentId, cronJobs);
      } catch (error) {
        // The project itself was readable above, so a 404 here means the environment does not exist.
        if (error instanceof ProblemError && error.status === 404)
          state.missingEnvironments.push(environmentId);
        else throw error;
      }
    }),
  );
  state.missingEnvironments.sort();
  return state;
}
