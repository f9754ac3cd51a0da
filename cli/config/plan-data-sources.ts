/** Plans the `dataSources` key, including when a data source can name its authentication action. */
import { fieldChanges } from './diff.ts';
import { dataSourcePath } from './management-api.ts';
import { comparableDataSource, isRecord, presenceField } from './normalise.ts';
import type {
  Environment,
  PlanInput,
  PlannedResource,
  PlannedWrites,
  PlannerResult,
  PlanProblem,
} from './plan-types.ts';
import { type DataSourceInFile, secretFieldsOf } from './schema.ts';
import { envValue, writeOnlyValue } from './write-only.ts';

export function planDataSources({ config, state, env }: PlanInput): PlannerResult {
  const planned: PlannedWrites[] = [];
  const problems: PlanProblem[] = [];
  const actionIdsInFile = new Set(config.actions.map((a) => a.id));
  config.dataSources.forEach((dataSource, index) => {
    const filePath = ['dataSources', index];
    const stored = state.dataSources.get(dataSource.id);
    if (stored && stored.kind !== dataSource.kind) {
      problems.push({
        path: [...filePath, 'kind'],
        message: `'${dataSource.id}' is ${String(stored.kind)} in the project; a data source's kind cannot change`,
      });
      return;
    }
    const { body, writeOnly } = dataSourceBody(dataSource, stored, env);
    const fields = stored ? fieldChanges(comparableDataSource(stored), comparableDataSource(dataSource)) : [];
    const resource: PlannedResource = {
      kind: 'dataSource',
      id: dataSource.id,
      filePath,
      change: !stored
        ? 'create'
        : fields.length > 0 || writeOnly.some((w) => w.status === 'set')
          ? 'update'
          : 'unchanged',
      fields,
      writeOnly,
    };
    const path = dataSourcePath(dataSource.id);
    const guard = { field: 'updatedAt' as const, expected: stored?.updatedAt as string | undefined };
    const authActionId = dataSource.authAction?.actionId;

    // Its authentication action exists already (or there is none): saved with the other data sources.
    if (authActionId === undefined || state.actions.has(authActionId)) {
      planned.push({ resource, writes: [{ phase: 'dataSources', step: { path, body, guard } }] });
      return;
    }
    if (!actionIdsInFile.has(authActionId)) {
      problems.push({
        path: [...filePath, 'authAction', 'actionId'],
        message: `no action '${authActionId}' in the file or in the project`,
      });
    }
    const note = `with its authentication action ${authActionId}`;
    // It exists: saved once, after the authentication action is created.
    if (stored) {
      planned.push({ resource, writes: [{ phase: 'dataSourceAuth', step: { path, body, guard, note } }] });
      return;
    }
    // Both are new: the action needs the data source to run against, so the data source comes first without it.
    const { authAction: _savedInTheSecondStep, ...withoutAuth } = body;
    planned.push({
      resource,
      writes: [
        {
          phase: 'dataSources',
          step: {
            path,
            body: withoutAuth,
            guard,
            note: `first without its authentication action ${authActionId}, which is created next`,
          },
        },
        { phase: 'dataSourceAuth', step: { path, body, note } },
      ],
    });
  });
  return { planned, problems };
}

/** The API's input: each secret field's `<field>FromEnv` replaced by its value, when there is one. */
function dataSourceBody(
  dataSource: DataSourceInFile,
  stored: Record<string, unknown> | undefined,
  env: Environment,
) {
  const secretFields = secretFieldsOf(dataSource.kind);
  if (secretFields.length === 0) return { body: { ...dataSource } as Record<string, unknown>, writeOnly: [] };
  const writeOnly: PlannedResource['writeOnly'] = [];
  const environments: Record<string, unknown> = {};
  for (const [environmentId, connection] of Object.entries(dataSource.environments)) {
    const body: Record<string, unknown> = { ...connection };
    const storedConnection = isRecord(stored?.environments) ? stored.environments[environmentId] : undefined;
    for (const field of secretFields) {
      const fromEnv = body[`${field}FromEnv`];
      delete body[`${field}FromEnv`];
      delete body[field];
      if (typeof fromEnv !== 'string') continue; // the stored value, if any, is kept
      const value = envValue(env, fromEnv);
      const isSet = isRecord(storedConnection) && storedConnection[presenceField(field)] === true;
      writeOnly.push(writeOnlyValue(['environments', environmentId, field], fromEnv, value, isSet));
      if (value !== undefined) body[field] = value;
    }
    environments[environmentId] = body;
  }
  return { body: { ...dataSource, environments } as Record<string, unknown>, writeOnly };
}
