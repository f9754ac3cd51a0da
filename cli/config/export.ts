/**
 * A project as a config file: what `dogu apply` would leave unchanged. Stable order (by id and
 * name), no server-only fields, no defaults, and write-only values as references to environment
 * variables: the names a given file already uses for them (decision 0140), else names derived from
 * where they belong.
 */
import { stringify } from 'yaml';
import { isDeepEqual } from './diff.ts';
import { connectionPlace, envName, type ReferenceNames, secretPlace } from './export-names.ts';
import { exportedNotifications } from './export-notifications.ts';
import type { StoredResource } from './management-api.ts';
import {
  comparableAction,
  comparableDataSource,
  comparableMasterData,
  comparableView,
  isRecord,
  presenceField,
} from './normalise.ts';
import { comparableActionGroup } from './plan-action-groups.ts';
import { exportedCronJob, serviceAccountNamesById } from './plan-cron-jobs.ts';
import { membersByEmail } from './plan-members.ts';
import { exportedServiceAccount } from './plan-service-accounts.ts';
import { comparableUserGroup } from './plan-user-groups.ts';
import type { ProjectState } from './project-state.ts';
import { configVersion, secretFieldsOf } from './schema.ts';

/** Per data source and environment: production and development passwords differ. */
export const passwordEnvVar = (dataSourceId: string, environmentId: string) =>
  `DOGU_PASSWORD_${envName(dataSourceId, environmentId)}`;
/** Per environment too, for the same reason: one name for both would set both to the same value. */
export const secretEnvVar = (environmentId: string, name: string) =>
  `DOGU_SECRET_${envName(environmentId, name)}`;

export interface ExportOptions {
  projectId: string;
  source: string;
  now: Date;
  /** The environment variable names an existing file gives write-only values: kept instead of derived ones. */
  names?: ReferenceNames;
}

export function exportConfig(state: ProjectState, options: ExportOptions): string {
  return exportProjectConfig(state, options).text;
}

/** The file, and how many of its references kept a name from `options.names`. */
export function exportProjectConfig(
  state: ProjectState,
  options: ExportOptions,
): { text: string; keptNames: number } {
  let keptNames = 0;
  /** The name the given file uses at this place, else the derived one. */
  const envVarAt = (place: string, derived: string) => {
    const kept = options.names?.get(place);
    if (kept !== undefined) keptNames++;
    return kept ?? derived;
  };
  // Users only: service accounts are named by id (the API answers their address too, which apply does not take).
  const emailOf = new Map(
    state.members.flatMap((m) => (m.kind === 'user' && m.email ? [[m.principalId, m.email] as const] : [])),
  );
  const cronJobs = [...state.cronJobs.keys()]
    .sort()
    .flatMap((environmentId) =>
      [...state.cronJobs.get(environmentId)!].sort((a, b) => a.name.localeCompare(b.name)),
    )
    .map((job) => exportedCronJob(job, serviceAccountNamesById(state)));
  const config = {
    version: configVersion,
    project: options.projectId,
    variables: perEnvironment(state.variables, (value) => value),
    secrets: perEnvironment(state.secrets, (_secret, name, environmentId) => ({
      fromEnv: envVarAt(secretPlace(environmentId, name), secretEnvVar(environmentId, name)),
    })),
    masterData: sortedById(state.masterData).map(comparableMasterData),
    dataSources: sortedById(state.dataSources).map((d) => exportedDataSource(d, envVarAt)),
    actions: sortedById(state.actions).map(exportedAction),
    // Users by e-mail address: ids differ between installations. Service accounts are left out.
    members: [...membersByEmail(state.members).values()]
      .flatMap((m) => (m.role && m.email ? [{ email: m.email, role: m.role }] : []))
      .sort((a, b) => a.email.localeCompare(b.email)),
    userGroups: sortedById(state.userGroups).map((group) =>
      comparableUserGroup(group, (id) => emailOf.get(id) ?? id),
    ),
    // By name, without ids (they differ between installations).
    serviceAccounts: [...state.serviceAccounts.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(exportedServiceAccount),
    actionGroups: sortedById(state.actionGroups).map(comparableActionGroup),
    views: sortedById(state.views).map(comparableView),
    // The versions pinned now: numbers of this project's history (see docs/config.md).
    publications: perEnvironment(state.publications, (version) => version),
    viewPublications: perEnvironment(state.viewPublications, (version) => version),
    // By environment and name; executors by service account name (a user executor cannot be named).
    cronJobs,
    // Targets by name, secrets as references; rules name targets by name and cron jobs by environment and name.
    notifications: exportedNotifications(state, envVarAt),
  };
  const runAsUsers = cronJobs.some((job) => job.executor === undefined);
  const header = [
    `Dogu project '${options.projectId}', exported from ${options.source} at ${options.now.toISOString()}.`,
    'Apply with: npx dogu apply -f FILE [--dry-run]. Schema: npx dogu schema (docs/config.md).',
    'Secrets and passwords are not in this file: apply reads them from the environment variables',
    'named by fromEnv and …FromEnv. Unset, the values stored in Dogu are kept. Exporting onto this',
    'file (-o) or with --names-from FILE keeps the variable names that file uses.',
    "publications and viewPublications pin version numbers of this project's history: leave them out when applying to another project.",
    ...(runAsUsers
      ? [
          'cronJobs without executor run as a user, who cannot be named here: apply keeps the executor a job',
          'has (a job it creates runs as whoever applies).',
        ]
      : []),
  ];
  const body = stringify(config, { lineWidth: 0, blockQuote: 'literal' });
  return { text: `${header.map((line) => `# ${line}`).join('\n')}\n${body}`, keptNames };
}

type EnvVarAt = (place: string, derived: string) => string;

function perEnvironment<V, T>(
  values: Map<string, Map<string, V>>,
  toFile: (value: V, name: string, environmentId: string) => T,
): Record<string, Record<string, T>> {
  const result: Record<string, Record<string, T>> = {};
  for (const environmentId of [...values.keys()].sort()) {
    const names = [...values.get(environmentId)!.keys()].sort();
    if (names.length === 0) continue;
    result[environmentId] = Object.fromEntries(
      names.map((name) => [name, toFile(values.get(environmentId)!.get(name)!, name, environmentId)]),
    );
  }
  return result;
}

const sortedById = <T extends StoredResource>(items: Map<string, T>) =>
  [...items.values()].sort((a, b) => a.id.localeCompare(b.id));

function exportedDataSource(stored: StoredResource, envVarAt: EnvVarAt): Record<string, unknown> {
  const dataSource = comparableDataSource(stored) as Record<string, unknown>;
  const secretFields = secretFieldsOf(String(dataSource.kind));
  if (secretFields.length > 0 && isRecord(dataSource.environments) && isRecord(stored.environments)) {
    const storedEnvironments = stored.environments;
    dataSource.environments = Object.fromEntries(
      Object.entries(dataSource.environments).map(([environmentId, connection]) => {
        const storedConnection = storedEnvironments[environmentId];
        const set = secretFields.filter(
          (field) => isRecord(storedConnection) && storedConnection[presenceField(field)] === true,
        );
        return [environmentId, withSecretReferences(connection, set, stored.id, environmentId, envVarAt)];
      }),
    );
  }
  return leading(dataSource, ['id', 'name', 'description', 'kind']);
}

/** `<field>FromEnv` for each set secret field, right after `user` (where a reader looks for a password). */
function withSecretReferences(
  connection: unknown,
  fields: readonly string[],
  dataSourceId: string,
  environmentId: string,
  envVarAt: EnvVarAt,
) {
  const entries = Object.entries(connection as Record<string, unknown>);
  const at = entries.findIndex(([key]) => key === 'user') + 1 || entries.length;
  entries.splice(
    at,
    0,
    ...fields.map((field): [string, string] => [
      `${field}FromEnv`,
      envVarAt(
        connectionPlace(dataSourceId, environmentId, field),
        field === 'password'
          ? passwordEnvVar(dataSourceId, environmentId)
          : `DOGU_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_${envName(dataSourceId, environmentId)}`,
      ),
    ]),
  );
  return Object.fromEntries(entries);
}

function exportedAction(stored: StoredResource): Record<string, unknown> {
  const complete = comparableAction(stored) as Record<string, unknown>;
  // Fields equal to what the schema fills in anyway (`headers: []`, `body: {type: none}`) are noise.
  const action = { ...complete };
  for (const key of Object.keys(complete)) {
    const { [key]: _dropped, ...without } = action;
    if (isDeepEqual(comparableAction(without), complete)) delete action[key];
  }
  if (Array.isArray(action.parameters)) {
    action.parameters = action.parameters.map((p) =>
      leading(p as Record<string, unknown>, ['name', 'kind', 'label']),
    );
  }
  return leading(action, ['id', 'name', 'description', 'kind', 'dataSourceId']);
}

/** The same object with `keys` first (those it has), the rest in their order. */
function leading(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const first = keys.filter((key) => key in value).map((key) => [key, value[key]] as const);
  return Object.fromEntries([...first, ...Object.entries(value).filter(([key]) => !keys.includes(key))]);
}
