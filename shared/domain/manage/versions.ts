/** Version history, diffs, publishing a version to an environment (and rolling back), and copying an action. */
import { DoguError, notFound } from '../errors.ts';
import type { Action, Principal } from '../model.ts';
import { historyOf, publish, unpublish as unpublishDocument, versionAt } from '../versioned-history.ts';
import { diffDefinitions, type Publication } from '../versions.ts';
import { authorize, requireEnvironment } from './access.ts';
import { type ActionDeps, actionVersioning, putAction } from './actions.ts';
import type { ManageDeps } from './data-sources.ts';

/** Definitions only: neither secret values nor connector engines (docs/decisions/0022). */
type DefinitionDeps = Pick<ManageDeps, 'store' | 'clock'>;

async function headOf(deps: Pick<ManageDeps, 'store'>, projectId: string, actionId: string): Promise<Action> {
  const head = await deps.store.getAction(projectId, actionId);
  if (!head) throw notFound('Action', actionId);
  return head;
}

/** Newest first; the head counts even if its record was never written (older data). */
export async function listVersions(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  actionId: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  return historyOf(actionVersioning(deps.store), await headOf(deps, projectId, actionId));
}

export async function getVersion(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  actionId: string,
  version: number,
) {
  await authorize(deps.store, principal, projectId, 'view');
  return loadVersion(deps, projectId, actionId, version);
}

export async function loadVersion(
  deps: Pick<ManageDeps, 'store'>,
  projectId: string,
  actionId: string,
  version: number,
) {
  return versionAt(actionVersioning(deps.store), await headOf(deps, projectId, actionId), version);
}

export async function diffVersions(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  actionId: string,
  from: number,
  to: number,
) {
  await authorize(deps.store, principal, projectId, 'view');
  const [before, after] = await Promise.all([
    loadVersion(deps, projectId, actionId, from),
    loadVersion(deps, projectId, actionId, to),
  ]);
  return { from, to, changes: diffDefinitions(before.definition, after.definition) };
}

/** Points an environment at a version: publishing a new one, or rolling back to an earlier one. */
export async function publishVersion(
  deps: DefinitionDeps,
  principal: Principal,
  scope: { projectId: string; actionId: string; environmentId: string },
  version: number,
): Promise<{ publication: Publication; previousVersion: number | undefined }> {
  await authorize(deps.store, principal, scope.projectId, 'publish_versions');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  await loadVersion(deps, scope.projectId, scope.actionId, version);
  const publication: Publication = {
    ...scope,
    version,
    publishedBy: { id: principal.id, email: principal.email },
    publishedAt: deps.clock.now().toISOString(),
  };
  const previousVersion = await publish(actionVersioning(deps.store), scope.actionId, publication);
  return { publication, previousVersion };
}

/** The environment follows the latest version again. */
export async function unpublish(
  deps: DefinitionDeps,
  principal: Principal,
  scope: { projectId: string; actionId: string; environmentId: string },
) {
  await authorize(deps.store, principal, scope.projectId, 'publish_versions');
  const { projectId, actionId: documentId, environmentId } = scope;
  await unpublishDocument(actionVersioning(deps.store), { projectId, documentId, environmentId });
}

/** A new action with the same settings and a new id (version 1). */
export async function copyAction(
  deps: ActionDeps,
  principal: Principal,
  projectId: string,
  sourceId: string,
  target: { id: string; name?: string },
) {
  await authorize(deps.store, principal, projectId, 'edit_actions');
  const source = await headOf(deps, projectId, sourceId);
  if (await deps.store.getAction(projectId, target.id)) {
    throw new DoguError('state_conflict', `An action '${target.id}' exists already; choose another id.`);
  }
  const { projectId: _p, version: _v, createdAt: _c, updatedAt: _u, updatedBy: _b, ...definition } = source;
  return putAction(
    deps,
    principal,
    projectId,
    { ...definition, id: target.id, name: target.name ?? `${source.name} (copy)` },
    {
      expectedVersion: 0,
      message: `Copied from '${sourceId}' version ${source.version}`,
    },
  );
}
