/**
 * The embedded runtime seeds project `demo` in versioned steps. Each step's
 * writes are idempotent and its marker is claimed last, so a crash mid-step is
 * finished on the next start and a finished step never runs again; a data
 * directory made by an older version gets the newer steps.
 */

import type { SqlConnection } from '../shared/connectors/sql/definition.ts';
import { ensureLocalAdmin, principalOf } from '../shared/domain/local-login.ts';
import { putActionGroup } from '../shared/domain/manage/action-groups.ts';
import { ensureVersionRecorded, putAction } from '../shared/domain/manage/actions.ts';
import { putSecret, putVariable } from '../shared/domain/manage/configuration.ts';
import { putDataSource } from '../shared/domain/manage/data-sources.ts';
import { putView } from '../shared/domain/manage/views.ts';
import type { Action, DataSource, Principal } from '../shared/domain/model.ts';
import {
  type ActionEngines,
  AlreadyExistsError,
  type Clock,
  type Coordination,
  type IdGenerator,
  type Store,
} from '../shared/domain/ports.ts';
import { createCronJob } from '../shared/domain/scheduling/cron-jobs.ts';
import type { SchedulingDeps } from '../shared/domain/scheduling/deps.ts';
import type { SecretValues } from '../shared/domain/secret-values.ts';
import { demoGrpcActions, demoHttpActions, demoScriptActions, demoSqlActions } from './demo-definitions.ts';
import { demoMediaPath } from './demo-media.ts';
import { demoOperationsActions, demoOperationsGroup, demoOperationsView } from './demo-operations.ts';
import { demoViewActions, demoViews } from './demo-views.ts';

export const demoIds = {
  project: 'demo',
  environments: ['development', 'production'],
  dataSource: 'demo-postgres',
  httpDataSource: 'demo-api',
  grpcDataSource: 'demo-grpc',
  scriptDataSource: 'demo-scripts',
  action: 'list-orders',
} as const;

export interface SeedDeps {
  store: Store;
  /** Each seeding step claims its marker once, so a restart does not seed again. */
  coordination: Coordination;
  clock: Clock;
  ids: IdGenerator;
  secrets: SecretValues;
  engines: ActionEngines;
  /** For the scheduling example (a cron job): created through the same use case as the API's. */
  scheduling: SchedulingDeps;
}

/** Where the demo's data sources point in this run: both may move between starts. */
export interface DemoTargets {
  database: SqlConnection;
  /** Base URL of this runtime; the demo HTTP API lives under /demo-api/v1. */
  runtimeUrl: string;
  /** host:port of the demo gRPC service (local/demo-grpc/). */
  grpcAddress: string;
}

const ignoreExisting = (error: unknown) => {
  if (!(error instanceof AlreadyExistsError)) throw error;
};

const steps: {
  marker: string;
  run: (deps: SeedDeps, targets: DemoTargets, admin: Principal) => Promise<void>;
}[] = [
  { marker: 'seed:demo:v1', run: seedProject },
  { marker: 'seed:demo:v2', run: seedMoreExamples },
  { marker: 'seed:demo:v3', run: seedScheduleExample },
  { marker: 'seed:demo:v4', run: seedGrpcExample },
  { marker: 'seed:demo:v5', run: seedReviewer },
  { marker: 'seed:demo:v6', run: seedLocalMedia },
  { marker: 'seed:demo:v7', run: seedScriptExample },
  { marker: 'seed:demo:v8', run: seedViews },
  { marker: 'seed:demo:v9', run: seedProductionPublications },
  { marker: 'seed:demo:v10', run: seedOperationsDashboard },
];

/**
 * The operations dashboard (docs/views.md), its actions and the "Operations" group listing both; a
 * demo seeded before gets them too. Like every demo definition they are published to production.
 */
async function seedOperationsDashboard(
  deps: SeedDeps,
  targets: DemoTargets,
  admin: Principal,
): Promise<void> {
  for (const action of demoOperationsActions) await putAction(deps, admin, demoIds.project, action);
  if (!(await deps.store.getActionGroup(demoIds.project, demoOperationsGroup.id))) {
    await putActionGroup(deps, admin, demoIds.project, demoOperationsGroup);
  }
  if (!(await deps.store.getView(demoIds.project, demoOperationsView.id))) {
    await putView(deps, admin, demoIds.project, demoOperationsView, { message: 'Demo view' });
  }
  await seedProductionPublications(deps, targets, admin);
}

/**
 * Production is protected (docs/governance.md): only published versions run or show there. The demo
 * publishes what it seeded, so it works in production at once; a demo seeded before protection existed
 * keeps running there what it ran (the latest), now pinned. Publications already made are left alone.
 */
async function seedProductionPublications(deps: SeedDeps, _targets: DemoTargets, admin: Principal) {
  const projectId = demoIds.project;
  const environmentId = 'production';
  const environment = await deps.store.getEnvironment(projectId, environmentId);
  if (environment && environment.protected === undefined) {
    await deps.store.updateEnvironment({ ...environment, protected: true });
  }
  const publishedBy = { id: admin.id, email: admin.email };
  const publishedAt = deps.clock.now().toISOString();
  for (const action of await deps.store.listActions(projectId)) {
    if (await deps.store.actionVersions.getPublication(projectId, action.id, environmentId)) continue;
    await ensureVersionRecorded(deps, action);
    await deps.store.actionVersions.putPublication({
      projectId,
      actionId: action.id,
      environmentId,
      version: action.version,
      publishedBy,
      publishedAt,
    });
  }
  for (const view of await deps.store.listViews(projectId)) {
    if (await deps.store.viewVersions.getPublication(projectId, view.id, environmentId)) continue;
    await deps.store.viewVersions.putPublication({
      projectId,
      viewId: view.id,
      environmentId,
      version: view.version,
      publishedBy,
      publishedAt,
    });
  }
}

/** The actions the demo views need, then the views (docs/views.md): one visual, one code view. */
async function seedViews(deps: SeedDeps, _targets: DemoTargets, admin: Principal): Promise<void> {
  for (const action of demoViewActions) await putAction(deps, admin, demoIds.project, action);
  for (const view of demoViews) {
    // Idempotent: a crash after the view was saved finishes the step without a second version.
    if (await deps.store.getView(demoIds.project, view.id)) continue;
    await putView(deps, admin, demoIds.project, view, { message: 'Demo view' });
  }
}

/** A JavaScript data source (no connection: the sandbox) and an action that calls another one. */
async function seedScriptExample(deps: SeedDeps, _targets: DemoTargets, admin: Principal): Promise<void> {
  await putDataSource(deps, admin, demoIds.project, {
    id: demoIds.scriptDataSource,
    name: 'Scripts (JavaScript)',
    kind: 'javascript',
    environments: Object.fromEntries(demoIds.environments.map((id) => [id, {}])),
  });
  for (const action of demoScriptActions) await putAction(deps, admin, demoIds.project, action);
}

/** Where the product gallery's media live in this run (the runtime serves them). */
const mediaUrl = (targets: DemoTargets) => `${targets.runtimeUrl}${demoMediaPath}`;
const mediaVariable = 'demo_media_url';

/**
 * The product gallery's media come from this runtime, not the internet: a variable per environment
 * says where, and demos seeded before get the gallery that uses it (unless someone changed it).
 */
async function seedLocalMedia(deps: SeedDeps, targets: DemoTargets, admin: Principal): Promise<void> {
  for (const environmentId of demoIds.environments) {
    await putVariable(
      deps,
      admin,
      { projectId: demoIds.project, environmentId },
      mediaVariable,
      mediaUrl(targets),
    );
  }
  const gallery = demoSqlActions.find((action) => action.id === 'product-gallery')!;
  const stored = await deps.store.getAction(demoIds.project, gallery.id);
  const untouched = stored?.version === 1 && stored.updatedBy?.id === admin.id;
  if (!stored || (untouched && JSON.stringify(stored.statements) !== JSON.stringify(gallery.statements))) {
    await putAction(deps, admin, demoIds.project, gallery);
  }
}

/** A gRPC data source over the demo service (server reflection, metadata with a secret) and its actions. */
async function seedGrpcExample(deps: SeedDeps, targets: DemoTargets, admin: Principal): Promise<void> {
  const { dataSource } = await putDataSource(deps, admin, demoIds.project, {
    id: demoIds.grpcDataSource,
    name: 'Demo orders (gRPC)',
    kind: 'grpc',
    environments: demoGrpcConnections(targets),
  });
  await deps.store.putDataSource({ ...dataSource, managedBy: 'embedded-demo' });
  for (const action of demoGrpcActions) await putAction(deps, admin, demoIds.project, action);
}

/** A second person, so a newcomer can request a review as the administrator and approve it as the reviewer. */
async function seedReviewer(deps: SeedDeps): Promise<void> {
  let reviewer = await deps.store.getUserByEmail(demoReviewerEmail);
  reviewer ??= await deps.store
    .createUser({
      id: deps.ids.next('usr'),
      email: demoReviewerEmail,
      name: 'Demo Reviewer',
      createdAt: deps.clock.now().toISOString(),
    })
    .catch(async (error) => {
      ignoreExisting(error);
      return (await deps.store.getUserByEmail(demoReviewerEmail))!;
    });
  await deps.store.putMembership({
    projectId: demoIds.project,
    principalId: reviewer.id,
    role: 'operations_lead',
  });
}

export const demoReviewerEmail = 'reviewer@dogu.local';

/** A cron job to look at in the console: the sales report every weekday at 09:00 JST (read-only SQL). */
async function seedScheduleExample(deps: SeedDeps, _targets: DemoTargets, admin: Principal): Promise<void> {
  await createCronJob(
    deps.scheduling,
    admin,
    { projectId: demoIds.project, environmentId: 'development' },
    {
      name: 'Weekday sales report',
      schedule: {
        kind: 'form',
        days: { by: 'weekday', weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI'] },
        times: { kind: 'fixed', times: ['09:00'] },
      },
      actionId: 'sales-report',
      arguments: { top: 5 },
    },
  );
}

/** Runs the steps not yet done; true when any ran. Then points the demo data sources at this run's targets. */
export async function seedDemo(deps: SeedDeps, targets: DemoTargets): Promise<boolean> {
  let ran = false;
  const admin = principalOf(await ensureLocalAdmin(deps));
  for (const step of steps) {
    if (await deps.coordination.hasMarker(step.marker)) continue;
    await step.run(deps, targets, admin);
    await deps.coordination.claimMarker(step.marker, deps.clock.now().toISOString());
    ran = true;
  }
  await repointDemoDataSources(deps.store, targets, deps.clock.now().toISOString());
  return ran;
}

async function seedProject(deps: SeedDeps, targets: DemoTargets, admin: Principal): Promise<void> {
  const { store } = deps;
  const now = deps.clock.now().toISOString();
  await store.createProject({ id: demoIds.project, name: 'Demo', createdAt: now }).catch(ignoreExisting);
  for (const id of demoIds.environments) {
    await store
      .createEnvironment({
        projectId: demoIds.project,
        id,
        name: id[0]!.toUpperCase() + id.slice(1),
        protected: id === 'production',
        createdAt: now,
      })
      .catch(ignoreExisting);
  }
  await store.putMembership({ projectId: demoIds.project, principalId: admin.id, role: 'admin' });
  await store.putDataSource({
    projectId: demoIds.project,
    id: demoIds.dataSource,
    name: 'Demo shop (PostgreSQL)',
    kind: 'postgresql',
    environments: demoConnections(targets),
    managedBy: 'embedded-demo',
    createdAt: now,
    updatedAt: now,
  });
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
}

/** Every parameter kind usable in SQL, a report, media, and an HTTP API with an authentication action. */
async function seedMoreExamples(deps: SeedDeps, targets: DemoTargets, admin: Principal): Promise<void> {
  for (const environmentId of demoIds.environments) {
    const scope = { projectId: demoIds.project, environmentId };
    const title = `${environmentId[0]!.toUpperCase()}${environmentId.slice(1)} sales report`;
    await putVariable(deps, admin, scope, 'report_title', title);
    await putVariable(deps, admin, scope, mediaVariable, mediaUrl(targets));
    await putSecret(deps, admin, scope, 'demo_api_key', 'demo-key-123');
  }
  const httpSource = {
    id: demoIds.httpDataSource,
    name: 'Demo API (HTTP)',
    kind: 'http' as const,
    environments: demoHttpConnections(targets),
  };
  // The authentication action must exist before the data source can name it.
  await putDataSource(deps, admin, demoIds.project, httpSource);
  const [login, ...others] = demoHttpActions;
  await putAction(deps, admin, demoIds.project, login!);
  const { dataSource } = await putDataSource(deps, admin, demoIds.project, {
    ...httpSource,
    authAction: { actionId: login!.id, tokenPath: 'access_token', cacheSeconds: 600 },
  });
  await deps.store.putDataSource({ ...dataSource, managedBy: 'embedded-demo' });
  for (const action of [...demoSqlActions, ...others]) await putAction(deps, admin, demoIds.project, action);
}

const demoConnections = (targets: DemoTargets) =>
  Object.fromEntries(demoIds.environments.map((env) => [env, targets.database]));

const demoHttpConnections = (targets: DemoTargets) =>
  Object.fromEntries(
    demoIds.environments.map((env) => [
      env,
      {
        url: `${targets.runtimeUrl}/demo-api/v1`,
        headers: [{ key: 'X-Api-Key', value: '{{ secrets.demo_api_key }}' }],
      },
    ]),
  );

const demoGrpcConnections = (targets: DemoTargets) =>
  Object.fromEntries(
    demoIds.environments.map((env) => [
      env,
      {
        address: targets.grpcAddress,
        tls: false,
        serviceSource: 'reflection',
        metadata: [{ key: 'x-api-key', value: '{{ secrets.demo_api_key }}' }],
      },
    ]),
  );

/** The demo database and this runtime may listen elsewhere after a restart; data sources the user edited are left alone. */
async function repointDemoDataSources(store: Store, targets: DemoTargets, now: string): Promise<void> {
  for (const [id, environments] of [
    [demoIds.dataSource, demoConnections(targets)],
    [demoIds.httpDataSource, demoHttpConnections(targets)],
    [demoIds.grpcDataSource, demoGrpcConnections(targets)],
  ] as const) {
    const dataSource = await store.getDataSource(demoIds.project, id);
    if (dataSource?.managedBy !== 'embedded-demo') continue;
    if (JSON.stringify(dataSource.environments) === JSON.stringify(environments)) continue;
    await store.putDataSource({ ...dataSource, environments, updatedAt: now } as DataSource);
  }
  // The media variable follows the runtime too, while it still points at a runtime's media.
  for (const environmentId of demoIds.environments) {
    const current = (await store.listVariables(demoIds.project, environmentId))[mediaVariable];
    if (current?.endsWith(demoMediaPath) && current !== mediaUrl(targets)) {
      await store.putVariable(demoIds.project, environmentId, mediaVariable, mediaUrl(targets));
    }
  }
}
