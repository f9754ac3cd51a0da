/**
 * Compares a config file with what the project holds and decides, per resource, create, update or
 * unchanged — and which PUT requests make it so, in an order a fresh project accepts in one go.
 * Each top-level key of the file has its planner; this module puts their results together.
 */
import type { Path } from './path.ts';
import { planActionGroups } from './plan-action-groups.ts';
import { planActions } from './plan-actions.ts';
import { planSecrets, planVariables } from './plan-configuration.ts';
import { cronJobId, cronJobIds, planCronJobs } from './plan-cron-jobs.ts';
import { planDataSources } from './plan-data-sources.ts';
import { planMasterData } from './plan-master-data.ts';
import { membersByEmail, planMembers } from './plan-members.ts';
import {
  fileRuleKey,
  notificationTargetIds,
  planNotifications,
  ruleInFileTerms,
} from './plan-notifications.ts';
import { applyProtection } from './plan-protection.ts';
import { planPublications } from './plan-publications.ts';
import { planServiceAccounts, serviceAccountIdsByEmail } from './plan-service-accounts.ts';
import {
  type Environment,
  type Plan,
  type PlanInput,
  type PlannerResult,
  type PlanProblem,
  phases,
  type ResourceKind,
} from './plan-types.ts';
import { planUserGroups } from './plan-user-groups.ts';
import { planViewPublications, planViews } from './plan-views.ts';
import type { ProjectState } from './project-state.ts';
import type { ConfigFile } from './schema.ts';

export type * from './plan-types.ts';

const planners: ((input: PlanInput) => PlannerResult)[] = [
  planVariables,
  planSecrets,
  planMasterData,
  planDataSources,
  planActions,
  planMembers,
  planUserGroups,
  planServiceAccounts,
  planActionGroups,
  planViews,
  planPublications,
  planViewPublications,
  planCronJobs,
  planNotifications,
];

export function buildPlan(
  config: ConfigFile,
  state: ProjectState,
  env: Environment,
  projectId: string,
): Plan {
  const input = { config, state, env, projectId };
  const results = planners.map((planner) => planner(input));
  const planned = results.flatMap((r) => r.planned);
  const protection = applyProtection(input, planned);
  // Nothing is written for a resource that is unchanged or still lacks a write-only value.
  const writes = planned.flatMap(({ resource, writes }) =>
    resource.change === 'unchanged' || resource.writeOnly.some((w) => w.status === 'missing')
      ? []
      : writes.map(({ phase, step }) => ({ phase, step: { resource, ...step } })),
  );
  return {
    projectId,
    resources: planned.map((p) => p.resource),
    steps: phases.flatMap((phase) => writes.filter((w) => w.phase === phase).map((w) => w.step)),
    notInFile: notInFile(config, state),
    problems: [
      ...missingEnvironments(config, state, projectId),
      ...results.flatMap((r) => r.problems),
      ...protection,
    ],
    ids: {
      principals: new Map([
        ...[...membersByEmail(state.members)].map(([email, m]) => [email, m.principalId] as const),
        ...serviceAccountIdsByEmail(state),
      ]),
      cronJobs: cronJobIds(state),
      notificationTargets: notificationTargetIds(state),
    },
  };
}

/** The environments a file names: apply reads their variables and secrets too. */
export function environmentsNamedIn(config: ConfigFile): string[] {
  return [
    ...new Set([
      ...Object.keys(config.variables),
      ...Object.keys(config.secrets),
      ...config.dataSources.flatMap((d) => Object.keys(d.environments)),
      ...Object.keys(config.publications),
      ...Object.keys(config.viewPublications),
      ...config.cronJobs.map((j) => j.environment),
      ...config.notifications.rules.flatMap((r) => (r.subject.environment ? [r.subject.environment] : [])),
    ]),
  ];
}

function missingEnvironments(config: ConfigFile, state: ProjectState, projectId: string): PlanProblem[] {
  return state.missingEnvironments.map((environmentId) => ({
    path: firstMention(config, environmentId),
    message: `environment '${environmentId}' does not exist in project '${projectId}'`,
    at: 'key',
  }));
}

/** The first place the file names an environment, to point at. */
function firstMention(config: ConfigFile, environmentId: string): Path {
  if (environmentId in config.variables) return ['variables', environmentId];
  if (environmentId in config.secrets) return ['secrets', environmentId];
  const index = config.dataSources.findIndex((d) => environmentId in d.environments);
  if (index >= 0) return ['dataSources', index, 'environments', environmentId];
  if (environmentId in config.publications) return ['publications', environmentId];
  if (environmentId in config.viewPublications) return ['viewPublications', environmentId];
  const job = config.cronJobs.findIndex((j) => j.environment === environmentId);
  if (job >= 0) return ['cronJobs', job, 'environment'];
  const rule = config.notifications.rules.findIndex((r) => r.subject.environment === environmentId);
  return rule >= 0 ? ['notifications', 'rules', rule, 'subject', 'environment'] : [];
}

/** What the project has and the file does not mention: listed, never deleted. */
function notInFile(config: ConfigFile, state: ProjectState): Plan['notInFile'] {
  const byId = <T extends { id: string }>(items: T[]) => items.sort((a, b) => a.id.localeCompare(b.id));
  const absent = (
    kind: ResourceKind,
    present: Iterable<string>,
    inFile: Set<string>,
    key: (id: string) => string = (id) => id,
  ) => byId([...present].filter((id) => !inFile.has(key(id))).map((id) => ({ kind, id })));
  const perEnvironment = (kind: 'variable' | 'secret', present: Map<string, Map<string, unknown>>) => {
    const inFile = kind === 'variable' ? config.variables : config.secrets;
    const ids = [...present].flatMap(([environmentId, names]) =>
      [...names.keys()].map((n) => `${environmentId}.${n}`),
    );
    const named = Object.entries(inFile).flatMap(([environmentId, names]) =>
      Object.keys(names).map((n) => `${environmentId}.${n}`),
    );
    return absent(kind, ids, new Set(named));
  };
  return [
    ...absent('masterData', state.masterData.keys(), new Set(config.masterData.map((m) => m.id))),
    ...absent('dataSource', state.dataSources.keys(), new Set(config.dataSources.map((d) => d.id))),
    ...absent('action', state.actions.keys(), new Set(config.actions.map((a) => a.id))),
    ...perEnvironment('variable', state.variables),
    ...perEnvironment('secret', state.secrets),
    ...absent(
      'member',
      // Direct members that are users; service accounts belong to a later key of their own.
      [...membersByEmail(state.members).values()].flatMap((m) => (m.role && m.email ? [m.email] : [])),
      new Set(config.members.map((m) => m.email.toLowerCase())),
      (email) => email.toLowerCase(),
    ),
    ...absent('userGroup', state.userGroups.keys(), new Set(config.userGroups.map((g) => g.id))),
    ...absent(
      'serviceAccount',
      state.serviceAccounts.keys(),
      new Set(config.serviceAccounts.map((a) => a.name)),
    ),
    ...absent(
      'trustPolicy',
      [...state.serviceAccounts.values()].flatMap((a) => a.trustPolicies.map((p) => `${a.name}.${p.id}`)),
      new Set(config.serviceAccounts.flatMap((a) => a.trustPolicies.map((p) => `${a.name}.${p.id}`))),
    ),
    ...absent('actionGroup', state.actionGroups.keys(), new Set(config.actionGroups.map((g) => g.id))),
    ...absent('view', state.views.keys(), new Set(config.views.map((v) => v.id))),
    ...absent(
      'publication',
      [...state.publications].flatMap(([environmentId, pins]) =>
        [...pins.keys()].map((actionId) => `${environmentId}.${actionId}`),
      ),
      new Set(
        Object.entries(config.publications).flatMap(([environmentId, pins]) =>
          Object.keys(pins).map((actionId) => `${environmentId}.${actionId}`),
        ),
      ),
    ),
    ...absent(
      'viewPublication',
      [...state.viewPublications].flatMap(([environmentId, pins]) =>
        [...pins.keys()].map((viewId) => `${environmentId}.${viewId}`),
      ),
      new Set(
        Object.entries(config.viewPublications).flatMap(([environmentId, pins]) =>
          Object.keys(pins).map((viewId) => `${environmentId}.${viewId}`),
        ),
      ),
    ),
    ...absent(
      'cronJob',
      [...state.cronJobs].flatMap(([environmentId, jobs]) =>
        jobs.map((j) => cronJobId(environmentId, j.name)),
      ),
      new Set(config.cronJobs.map((j) => cronJobId(j.environment, j.name))),
    ),
    ...absent(
      'notificationTarget',
      state.notifications.targets.map((t) => t.name),
      new Set(config.notifications.targets.map((t) => t.name)),
    ),
    ...absent(
      'notificationRule',
      state.notifications.rules.map((r) => ruleInFileTerms(r, state).key),
      new Set(config.notifications.rules.map(fileRuleKey)),
    ),
  ];
}
