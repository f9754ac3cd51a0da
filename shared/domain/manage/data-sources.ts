/**
 * Data sources: create or replace, read, list, delete. Passwords are
 * write-only: encrypted on save, never returned; omitting one on update keeps
 * the stored one.
 */
import type { DataSourceInput, SqlConnection } from '../definitions/data-source.ts';
import { DoguError, notFound } from '../errors.ts';
import type { DataSource, Principal } from '../model.ts';
import type { Clock, Store } from '../ports.ts';
import { passwordContext, type SecretValues } from '../secret-values.ts';
import { authorize, requireEnvironment } from './access.ts';

export interface ManageDeps {
  store: Store;
  secrets: SecretValues;
  clock: Clock;
}

type StoredSqlConnection = Omit<SqlConnection, 'password'> & { passwordCiphertext?: string };

export async function putDataSource(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  input: DataSourceInput,
): Promise<{ dataSource: DataSource; created: boolean }> {
  await authorize(deps.store, principal, projectId, 'manage_data_sources');
  for (const environmentId of Object.keys(input.environments)) {
    await requireEnvironment(deps.store, projectId, environmentId);
  }
  if (input.kind === 'http' && input.authAction) {
    const authAction = await deps.store.getAction(projectId, input.authAction.actionId);
    if (!authAction) {
      throw new DoguError(
        'invalid_definition',
        `The authentication action '${input.authAction.actionId}' does not exist.`,
        {
          errors: [{ pointer: '#/authAction/actionId', detail: `no action '${input.authAction.actionId}'` }],
        },
      );
    }
  }
  const previous = await deps.store.getDataSource(projectId, input.id);
  if (previous && previous.kind !== input.kind) {
    throw new DoguError(
      'state_conflict',
      `Data source '${input.id}' is ${previous.kind}; its kind cannot change to ${input.kind}.`,
    );
  }
  const now = deps.clock.now().toISOString();
  const environments: Record<string, unknown> = {};
  for (const [environmentId, connection] of Object.entries(input.environments)) {
    environments[environmentId] =
      input.kind === 'http'
        ? connection
        : await storedSqlConnection(
            deps,
            projectId,
            input.id,
            environmentId,
            connection as SqlConnection,
            previous,
          );
  }
  const dataSource = {
    ...input,
    environments,
    projectId,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  } as DataSource;
  await deps.store.putDataSource(dataSource);
  return { dataSource, created: !previous };
}

async function storedSqlConnection(
  deps: ManageDeps,
  projectId: string,
  dataSourceId: string,
  environmentId: string,
  connection: SqlConnection,
  previous: DataSource | undefined,
): Promise<StoredSqlConnection> {
  const { password, ...rest } = connection;
  if (password !== undefined) {
    if (password === '') return rest;
    const passwordCiphertext = await deps.secrets.encrypt(
      password,
      passwordContext(projectId, dataSourceId, environmentId),
    );
    return { ...rest, passwordCiphertext };
  }
  const kept = (previous?.environments[environmentId] as StoredSqlConnection | undefined)?.passwordCiphertext;
  return kept ? { ...rest, passwordCiphertext: kept } : rest;
}

/** What callers see: passwords replaced by whether one is set. */
export function presentDataSource(dataSource: DataSource) {
  const { managedBy: _managedBy, ...visible } = dataSource;
  if (dataSource.kind === 'http') return visible;
  const environments: Record<string, unknown> = {};
  for (const [environmentId, connection] of Object.entries(dataSource.environments)) {
    const {
      passwordCiphertext,
      password: _password,
      ...rest
    } = connection as StoredSqlConnection & { password?: string };
    environments[environmentId] = { ...rest, hasPassword: passwordCiphertext !== undefined };
  }
  return { ...visible, environments };
}

export async function getDataSource(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  dataSourceId: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  const dataSource = await deps.store.getDataSource(projectId, dataSourceId);
  if (!dataSource) throw notFound('Data source', dataSourceId);
  return dataSource;
}

export async function listDataSources(deps: ManageDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  return deps.store.listDataSources(projectId);
}

export async function deleteDataSource(
  deps: ManageDeps,
  principal: Principal,
  projectId: string,
  dataSourceId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_data_sources');
  const users = (await deps.store.listActions(projectId))
    .filter((a) => a.dataSourceId === dataSourceId)
    .map((a) => a.id);
  if (users.length > 0) {
    throw new DoguError(
      'state_conflict',
      `Data source '${dataSourceId}' is used by actions ${users.join(', ')}; change or delete them first.`,
      {
        extra: { actions: users },
      },
    );
  }
  if (!(await deps.store.deleteDataSource(projectId, dataSourceId)))
    throw notFound('Data source', dataSourceId);
}
