/**
 * First start seeds project `demo`. Every write is idempotent and the marker
 * is claimed last, so a crash mid-seed is finished on the next start and a
 * finished seed is never repeated.
 */
import { ensureLocalAdmin } from '../shared/domain/local-login.ts';
import type { Action, DataSource, PostgresConnection } from '../shared/domain/model.ts';
import { AlreadyExistsError, type Clock, type IdGenerator, type Store } from '../shared/domain/ports.ts';

export const demoIds = {
  project: 'demo',
  environments: ['development', 'production'],
  dataSource: 'demo-postgres',
  action: 'list-orders',
} as const;

const marker = 'seed:demo:v1';

const ignoreExisting = (error: unknown) => {
  if (!(error instanceof AlreadyExistsError)) throw error;
};

export async function seedDemo(
  deps: { store: Store; clock: Clock; ids: IdGenerator },
  database: PostgresConnection,
): Promise<boolean> {
  const { store } = deps;
  if (await store.hasMarker(marker)) {
    await repointDemoDataSource(store, database, deps.clock.now().toISOString());
    return false;
  }
  const now = deps.clock.now().toISOString();

  await store.createProject({ id: demoIds.project, name: 'Demo', createdAt: now }).catch(ignoreExisting);
  for (const id of demoIds.environments) {
    await store
      .createEnvironment({
        projectId: demoIds.project,
        id,
        name: id[0]!.toUpperCase() + id.slice(1),
        createdAt: now,
      })
      .catch(ignoreExisting);
  }
  const admin = await ensureLocalAdmin(deps);
  await store.putMembership({ projectId: demoIds.project, principalId: admin.id, role: 'admin' });

  const dataSource: DataSource = {
    projectId: demoIds.project,
    id: demoIds.dataSource,
    name: 'Demo shop (PostgreSQL)',
    kind: 'postgresql',
    environments: demoConnections(database),
    managedBy: 'embedded-demo',
    createdAt: now,
    updatedAt: now,
  };
  await store.putDataSource(dataSource);

  const listOrders: Action = {
    projectId: demoIds.project,
    id: demoIds.action,
    name: 'List orders',
    description: 'Orders with a given status, oldest first.',
    kind: 'sql',
    dataSourceId: demoIds.dataSource,
    statements: [
      {
        title: 'Orders',
        sql: 'SELECT id, customer_id, status, total_yen, ordered_at\nFROM orders\nWHERE status = {{ status }}\nORDER BY id\nLIMIT {{ limit }}',
      },
    ],
    parameters: [
      {
        name: 'status',
        kind: 'text',
        label: 'Status',
        required: true,
        description: 'pending, paid, shipped, delivered or cancelled',
      },
      { name: 'limit', kind: 'number', label: 'Limit', default: 20 },
    ],
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await store.putAction(listOrders);

  return store.claimMarker(marker, now);
}

const demoConnections = (database: PostgresConnection) =>
  Object.fromEntries(demoIds.environments.map((env) => [env, database]));

/** The demo database may listen elsewhere after a restart; a data source the user edited is left alone. */
async function repointDemoDataSource(store: Store, database: PostgresConnection, now: string): Promise<void> {
  const dataSource = await store.getDataSource(demoIds.project, demoIds.dataSource);
  if (dataSource?.managedBy !== 'embedded-demo') return;
  const environments = demoConnections(database);
  if (JSON.stringify(dataSource.environments) === JSON.stringify(environments)) return;
  await store.putDataSource({ ...dataSource, environments, updatedAt: now });
}
