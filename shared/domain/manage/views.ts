/**
 * Views (docs/views.md): save (a new version each time), read, list, delete, versions, publish and
 * roll back per environment, copy (into this or another project), and the version an environment
 * shows. A view's `permission` decides who may see it; it grants nothing: the actions it runs are
 * checked as the viewer by the execution endpoint.
 */
import type { View, ViewInput } from '../definitions/view.ts';
import { isProtectedEnvironment, nothingPublished } from '../environments.ts';
import { DoguError, notFound } from '../errors.ts';
import type { Principal } from '../model.ts';
import type { Clock, Store } from '../ports.ts';
import {
  historyOf,
  publish,
  recordHeadVersion,
  unpublish,
  type VersionedKind,
  versionAt,
} from '../versioned-history.ts';
import { compileCodeView } from '../views/compile-code-view.ts';
import type { ViewPublication, ViewVersion } from '../views/store.ts';
import { assertViewValid, invalidView } from '../views/validate-view.ts';
import { maySeeView, restricted, seeingMember } from '../views/visibility.ts';
import { authorize, requireEnvironment } from './access.ts';

export interface ViewDeps {
  store: Store;
  clock: Clock;
}

/**
 * DynamoDB keeps items under 400 KB; a head holds the definition and, for a code view, its
 * compiled module. Refused above this, with room for the bookkeeping fields.
 */
export const maxStoredViewBytes = 380 * 1024;

async function headOf(deps: ViewDeps, projectId: string, viewId: string): Promise<View> {
  const head = await deps.store.getView(projectId, viewId);
  if (!head) throw notFound('View', viewId);
  return head;
}

export async function putView(
  deps: ViewDeps,
  principal: Principal,
  projectId: string,
  input: ViewInput,
  options: { expectedVersion?: number; message?: string } = {},
): Promise<{ view: View; created: boolean }> {
  await authorize(deps.store, principal, projectId, 'edit_actions');
  const [previous, actions, views, groups] = await Promise.all([
    deps.store.getView(projectId, input.id),
    deps.store.listActions(projectId),
    deps.store.listViews(projectId),
    deps.store.listActionGroups(projectId),
  ]);
  assertViewValid(input, {
    actions: new Map(actions.map((a) => [a.id, a])),
    viewIds: new Set(views.map((v) => v.id)),
    groupIds: new Set(groups.map((g) => g.id)),
  });
  let compiled: View['compiled'];
  if (input.definition.kind === 'code') {
    const outcome = compileCodeView(input.definition.source);
    if (!outcome.ok) throw invalidView([outcome.problem]);
    compiled = outcome.compiled;
  }
  const currentVersion = previous?.version ?? 0;
  if (options.expectedVersion !== undefined && options.expectedVersion !== currentVersion) {
    throw conflict(input.id, currentVersion);
  }
  const now = deps.clock.now().toISOString();
  const author = { id: principal.id, email: principal.email };
  const view: View = {
    ...input,
    projectId,
    version: currentVersion + 1,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    updatedBy: author,
    ...(compiled ? { compiled } : {}),
  };
  const bytes = Buffer.byteLength(JSON.stringify(view), 'utf8');
  if (bytes > maxStoredViewBytes) {
    throw invalidView([
      {
        pointer: '#/definition',
        detail: `the view with its compiled source is ${bytes} bytes; at most ${maxStoredViewBytes} can be stored`,
        ja: `コンパイル結果を含めてビューが ${bytes} バイトあります。保存できるのは ${maxStoredViewBytes} バイトまでです`,
      },
    ]);
  }
  if (previous) await ensureViewVersionRecorded(deps, previous);
  if (!(await deps.store.saveView(view, currentVersion))) throw conflict(input.id, undefined);
  await ensureViewVersionRecorded(deps, view, options.message ?? '');
  return { view, created: !previous };
}

const conflict = (viewId: string, currentVersion: number | undefined) =>
  new DoguError(
    'state_conflict',
    currentVersion === undefined
      ? `View '${viewId}' was changed by someone else meanwhile; load it again and reapply your change.`
      : `View '${viewId}' is at version ${currentVersion}, not the version your change was based on.`,
  );

function ensureViewVersionRecorded(deps: ViewDeps, head: View, message = ''): Promise<void> {
  return recordHeadVersion(viewVersioning(deps.store), head, message);
}

/** Views as versioned documents, kept like actions' (versioned-history.ts). */
const viewVersioning = (store: Store): VersionedKind<View, ViewVersion, ViewPublication> => ({
  name: 'View',
  documents: store.viewVersions,
  versionOfHead: viewVersionOf,
});

export function viewVersionOf(head: View, message = ''): ViewVersion {
  const { projectId, version, createdAt: _c, updatedAt, updatedBy, compiled, ...definition } = head;
  return {
    projectId,
    viewId: head.id,
    version,
    definition,
    ...(compiled ? { compiled } : {}),
    author: updatedBy ?? { id: 'unknown', email: 'unknown' },
    createdAt: updatedAt,
    message,
  };
}

export async function getView(deps: ViewDeps, principal: Principal, projectId: string, viewId: string) {
  const membership = await seeingMember(deps, principal, projectId);
  const view = await headOf(deps, projectId, viewId);
  if (!maySeeView(view, principal, membership)) throw restricted(viewId);
  return view;
}

/** The views the caller may see, by name; definitions left out (fetch one to render or edit it). */
export async function listViews(deps: ViewDeps, principal: Principal, projectId: string) {
  const membership = await seeingMember(deps, principal, projectId);
  const views = await deps.store.listViews(projectId);
  return views
    .filter((view) => maySeeView(view, principal, membership))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(summaryOf);
}

export const summaryOf = (view: View) => ({
  id: view.id,
  name: view.name,
  ...(view.description ? { description: view.description } : {}),
  ...(view.groupId ? { groupId: view.groupId } : {}),
  kind: view.definition.kind,
  ...(view.permission ? { permission: view.permission } : {}),
  version: view.version,
  updatedAt: view.updatedAt,
  ...(view.updatedBy ? { updatedBy: view.updatedBy } : {}),
});

export async function deleteView(deps: ViewDeps, principal: Principal, projectId: string, viewId: string) {
  await authorize(deps.store, principal, projectId, 'edit_actions');
  if (!(await deps.store.deleteView(projectId, viewId))) throw notFound('View', viewId);
}

export async function listViewVersions(
  deps: ViewDeps,
  principal: Principal,
  projectId: string,
  viewId: string,
) {
  return historyOf(viewVersioning(deps.store), await getView(deps, principal, projectId, viewId));
}

export async function getViewVersion(
  deps: ViewDeps,
  principal: Principal,
  projectId: string,
  viewId: string,
  version: number,
) {
  const head = await getView(deps, principal, projectId, viewId);
  return versionAt(viewVersioning(deps.store), head, version);
}

/** Points an environment at a version: publishing a new one, or rolling back to an earlier one. */
export async function publishView(
  deps: ViewDeps,
  principal: Principal,
  scope: { projectId: string; viewId: string; environmentId: string },
  version: number,
): Promise<{ publication: ViewPublication; previousVersion: number | undefined }> {
  await authorize(deps.store, principal, scope.projectId, 'publish_versions');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  const versioning = viewVersioning(deps.store);
  await versionAt(versioning, await headOf(deps, scope.projectId, scope.viewId), version);
  const publication: ViewPublication = {
    ...scope,
    version,
    publishedBy: { id: principal.id, email: principal.email },
    publishedAt: deps.clock.now().toISOString(),
  };
  const previousVersion = await publish(versioning, scope.viewId, publication);
  return { publication, previousVersion };
}

/** The environment follows the latest version again. */
export async function unpublishView(
  deps: ViewDeps,
  principal: Principal,
  scope: { projectId: string; viewId: string; environmentId: string },
) {
  await authorize(deps.store, principal, scope.projectId, 'publish_versions');
  const { projectId, viewId: documentId, environmentId } = scope;
  await unpublish(viewVersioning(deps.store), { projectId, documentId, environmentId });
}

/**
 * A new view (version 1) with the source's latest definition, in this project or another one
 * (the caller edits actions there, and every action, view and group it names must exist there).
 */
export async function copyView(
  deps: ViewDeps,
  principal: Principal,
  projectId: string,
  sourceId: string,
  target: { id: string; name?: string; projectId?: string },
) {
  const source = await getView(deps, principal, projectId, sourceId);
  const targetProjectId = target.projectId ?? projectId;
  if (await deps.store.getView(targetProjectId, target.id)) {
    throw new DoguError('state_conflict', `A view '${target.id}' exists already; choose another id.`);
  }
  const {
    projectId: _p,
    version,
    createdAt: _c,
    updatedAt: _u,
    updatedBy: _b,
    compiled: _compiled,
    ...input
  } = source;
  return putView(
    deps,
    principal,
    targetProjectId,
    { ...input, id: target.id, name: target.name ?? `${source.name} (copy)` },
    {
      expectedVersion: 0,
      message: `Copied from ${targetProjectId === projectId ? '' : `project '${projectId}' `}view '${sourceId}' version ${version}`,
    },
  );
}

/**
 * What the console renders in an environment: the version published there (else the latest, unless
 * the environment is protected: then 409 until a version is published), checked against that
 * version's own `permission`.
 */
export async function resolveView(
  deps: ViewDeps,
  principal: Principal,
  scope: { projectId: string; environmentId: string; viewId: string },
) {
  const membership = await seeingMember(deps, principal, scope.projectId);
  const [project, environment, head, publication] = await Promise.all([
    deps.store.getProject(scope.projectId),
    deps.store.getEnvironment(scope.projectId, scope.environmentId),
    deps.store.getView(scope.projectId, scope.viewId),
    deps.store.viewVersions.getPublication(scope.projectId, scope.viewId, scope.environmentId),
  ]);
  if (!environment) throw notFound('Environment', scope.environmentId);
  if (!head) throw notFound('View', scope.viewId);
  if (!publication && isProtectedEnvironment(environment)) {
    // Said only to whoever may see the latest version: the problem names no more than the view's id.
    if (!maySeeView(head, principal, membership)) throw restricted(scope.viewId);
    throw nothingPublished('view', scope.viewId, scope.environmentId, head.version);
  }
  const shown = await versionAt(viewVersioning(deps.store), head, publication?.version ?? head.version);
  if (!maySeeView(shown.definition, principal, membership)) throw restricted(scope.viewId);
  const { definition: input } = shown;
  return {
    view: {
      id: input.id,
      name: input.name,
      ...(input.description ? { description: input.description } : {}),
      ...(input.groupId ? { groupId: input.groupId } : {}),
    },
    environmentId: scope.environmentId,
    version: shown.version,
    latestVersion: head.version,
    published: publication !== undefined,
    protected: isProtectedEnvironment(environment),
    definition: input.definition,
    ...(shown.compiled ? { compiled: shown.compiled } : {}),
    // What the view may load and navigate to without asking its viewer (decision 0155).
    allowedHosts: project?.allowedHosts ?? [],
  };
}
