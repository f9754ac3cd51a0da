/** Actions: create or replace (a new version each save), read, list, delete. */
import { type ActionInput, javascriptActionKind } from '../definitions/action.ts';
import { DoguError, notFound } from '../errors.ts';
import type { Action, Principal } from '../model.ts';
import type { Store } from '../ports.ts';
import { validateAction } from '../validate-action.ts';
import { recordHeadVersion, type VersionedKind } from '../versioned-history.ts';
import type { ActionVersion, Publication } from '../versions.ts';
import { authorize } from './access.ts';
import type { ManageDeps } from './data-sources.ts';

/** Actions are validated against their data source's kind; they hold no secret values. */
export type ActionDeps = Pick<ManageDeps, 'store' | 'clock' | 'engines'>;

export async function putAction(
  deps: ActionDeps,
  principal: Principal,
  projectId: string,
  input: ActionInput,
  options: { expectedVersion?: number; message?: string } = {},
): Promise<{ action: Action; created: boolean }> {
  await authorize(deps.store, principal, projectId, 'edit_actions');
  const holderId =
    input.permission?.mode === 'javascript_action' ? input.permission.javascriptActionId : undefined;
  const [previous, dataSource, names, masterData, holder] = await Promise.all([
    deps.store.getAction(projectId, input.id),
    deps.store.getDataSource(projectId, input.dataSourceId),
    deps.store.listConfigurationNames(projectId),
    deps.store.listMasterData(projectId),
    holderId ? deps.store.getAction(projectId, holderId) : Promise.resolve(undefined),
  ]);
  validateAction(
    input,
    dataSource,
    {
      variables: new Set(names.filter((n) => n.kind === 'variable').map((n) => n.name)),
      secrets: new Set(names.filter((n) => n.kind === 'secret').map((n) => n.name)),
      masterData: new Set(masterData.map((m) => m.id)),
    },
    deps.engines,
  );
  checkPermissionHolder(input, holder);
  const currentVersion = previous?.version ?? 0;
  if (options.expectedVersion !== undefined && options.expectedVersion !== currentVersion) {
    throw conflict(input.id, currentVersion);
  }
  const now = deps.clock.now().toISOString();
  const author = { id: principal.id, email: principal.email };
  const action = {
    ...input,
    projectId,
    version: currentVersion + 1,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    updatedBy: author,
  } as Action;
  if (previous) await ensureVersionRecorded(deps, previous);
  // The head first, under a version condition: of two concurrent saves one wins, the other gets 409.
  if (!(await deps.store.saveAction(action, currentVersion))) throw conflict(input.id, undefined);
  await ensureVersionRecorded(deps, action, options.message ?? '');
  return { action, created: !previous };
}

/**
 * "Only from a JavaScript action" with a holder that is not one would lock everyone out of the
 * action (nothing else can ever call it), so such a permission is refused when it is saved.
 */
function checkPermissionHolder(input: ActionInput, holder: Action | undefined): void {
  if (input.permission?.mode !== 'javascript_action') return;
  const holderId = input.permission.javascriptActionId;
  const pointer = '#/permission/javascriptActionId';
  let detail: string | undefined;
  if (!holderId) detail = 'name the JavaScript action that may run this action';
  else if (holderId === input.id) detail = 'an action cannot hold its own permission';
  else if (!holder) detail = `no action '${holderId}' in this project`;
  else if (holder.kind !== javascriptActionKind)
    detail = `'${holderId}' is a ${holder.kind} action, not a JavaScript action`;
  if (!detail) return;
  throw new DoguError(
    'invalid_definition',
    `Only a JavaScript action can hold the permission "only from a JavaScript action" (${detail}); otherwise nobody could run '${input.id}'.`,
    { errors: [{ pointer, detail }] },
  );
}

/**
 * Writes the immutable version record of a head, healing a save that crashed between the two writes
 * (versioned-history.ts).
 */
export function ensureVersionRecorded(deps: ActionDeps, head: Action, message = ''): Promise<void> {
  return recordHeadVersion(actionVersioning(deps.store), head, message);
}

/** Actions as versioned documents: their versions and publications, and a head as its version. */
export const actionVersioning = (store: Store): VersionedKind<Action, ActionVersion, Publication> => ({
  name: 'Action',
  documents: store.actionVersions,
  versionOfHead: versionOf,
});

export function versionOf(head: Action, message = ''): ActionVersion {
  const { projectId, version, createdAt: _c, updatedAt, updatedBy, ...definition } = head;
  return {
    projectId,
    actionId: head.id,
    version,
    definition: definition as ActionInput,
    author: updatedBy ?? { id: 'unknown', email: 'unknown' },
    createdAt: updatedAt,
    message,
  };
}

const conflict = (actionId: string, currentVersion: number | undefined) =>
  new DoguError(
    'state_conflict',
    currentVersion === undefined
      ? `Action '${actionId}' was changed by someone else meanwhile; load it again and reapply your change.`
      : `Action '${actionId}' is at version ${currentVersion}, not the version your change was based on.`,
  );

export async function getAction(deps: ActionDeps, principal: Principal, projectId: string, actionId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  const action = await deps.store.getAction(projectId, actionId);
  if (!action) throw notFound('Action', actionId);
  return action;
}

export async function listActions(deps: ActionDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  return deps.store.listActions(projectId);
}

export async function deleteAction(
  deps: ActionDeps,
  principal: Principal,
  projectId: string,
  actionId: string,
) {
  await authorize(deps.store, principal, projectId, 'edit_actions');
  if (!(await deps.store.deleteAction(projectId, actionId))) throw notFound('Action', actionId);
}
