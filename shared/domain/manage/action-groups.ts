/**
 * Action groups (spec 2.6): several actions on one screen, in an order people
 * change by drag and drop. Deleting an action does not edit the groups that
 * list it; reads leave such ids out and name them in `missingActionIds`, and
 * the group's next save drops them.
 */
import type { ActionGroup, ActionGroupInput } from '../definitions/governance.ts';
import { DoguError, type FieldError, notFound } from '../errors.ts';
import type { Action, Principal } from '../model.ts';
import type { Clock, Store } from '../ports.ts';
import { authorize } from './access.ts';

export interface ActionGroupsDeps {
  store: Store;
  clock: Clock;
}

/** The group as readers see it: `actionIds` holds only actions that still exist. */
export type ActionGroupView = ActionGroup & {
  /** Ids the stored group lists whose actions were deleted since. */
  missingActionIds: string[];
};

/** What the console needs to render each action's entry on the group screen. */
export type ActionEntry = Pick<Action, 'id' | 'name' | 'description' | 'kind' | 'parameters'>;

export type ActionGroupDetail = ActionGroupView & { actions: ActionEntry[] };

export async function listActionGroups(deps: ActionGroupsDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  const [groups, actions] = await Promise.all([
    deps.store.listActionGroups(projectId),
    deps.store.listActions(projectId),
  ]);
  const existing = new Set(actions.map((a) => a.id));
  return groups.sort((a, b) => a.id.localeCompare(b.id)).map((g) => viewOf(g, existing));
}

export async function getActionGroup(
  deps: ActionGroupsDeps,
  principal: Principal,
  projectId: string,
  groupId: string,
): Promise<ActionGroupDetail> {
  await authorize(deps.store, principal, projectId, 'view');
  const [group, actions] = await Promise.all([
    deps.store.getActionGroup(projectId, groupId),
    deps.store.listActions(projectId),
  ]);
  if (!group) throw notFound('Action group', groupId);
  return detailOf(group, actions);
}

/** Creates or replaces the group; every listed action must exist (422 naming the others). */
export async function putActionGroup(
  deps: ActionGroupsDeps,
  principal: Principal,
  projectId: string,
  input: ActionGroupInput,
): Promise<{ group: ActionGroupDetail; created: boolean }> {
  await authorize(deps.store, principal, projectId, 'manage_action_groups');
  const [existing, actions] = await Promise.all([
    deps.store.getActionGroup(projectId, input.id),
    deps.store.listActions(projectId),
  ]);
  const known = new Set(actions.map((a) => a.id));
  const unknown = input.actionIds.map((id, index) => ({ id, index })).filter(({ id }) => !known.has(id));
  if (unknown.length > 0) {
    throw new DoguError(
      'invalid_definition',
      `No such actions in project '${projectId}': ${unknown.map((u) => u.id).join(', ')}.`,
      {
        errors: unknown.map(({ id, index }) => ({
          pointer: `#/actionIds/${index}`,
          detail: `action '${id}' does not exist`,
        })),
        extra: { unknownActionIds: unknown.map((u) => u.id) },
      },
    );
  }
  const now = deps.clock.now().toISOString();
  const group: ActionGroup = {
    ...input,
    projectId,
    version: (existing?.version ?? 0) + 1,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await save(deps.store, group, existing?.version ?? 0);
  return { group: detailOf(group, actions), created: !existing };
}

/**
 * Sets a new display order. `actionIds` must list exactly the group's current actions (as a read
 * shows them), each once: otherwise 422 naming the strangers and the omitted, and nothing changes.
 */
export async function reorderActionGroup(
  deps: ActionGroupsDeps,
  principal: Principal,
  projectId: string,
  groupId: string,
  actionIds: readonly string[],
): Promise<ActionGroupDetail> {
  await authorize(deps.store, principal, projectId, 'manage_action_groups');
  const [group, actions] = await Promise.all([
    deps.store.getActionGroup(projectId, groupId),
    deps.store.listActions(projectId),
  ]);
  if (!group) throw notFound('Action group', groupId);
  const current = viewOf(group, new Set(actions.map((a) => a.id))).actionIds;
  const inGroup = new Set(current);
  const proposed = new Set(actionIds);
  const strangers = actionIds.map((id, index) => ({ id, index })).filter(({ id }) => !inGroup.has(id));
  const omitted = current.filter((id) => !proposed.has(id));
  if (strangers.length > 0 || omitted.length > 0) {
    const errors: FieldError[] = [
      ...strangers.map(({ id, index }) => ({
        pointer: `#/actionIds/${index}`,
        detail: `action '${id}' is not in group '${groupId}'`,
      })),
      ...omitted.map((id) => ({ pointer: '#/actionIds', detail: `action '${id}' of the group is missing` })),
    ];
    throw new DoguError(
      'invalid_definition',
      `The order must list each action of group '${groupId}' exactly once: ${errors.map((e) => e.detail).join('; ')}.`,
      { errors, extra: { unknownActionIds: strangers.map((s) => s.id), omittedActionIds: omitted } },
    );
  }
  const reordered: ActionGroup = {
    ...group,
    actionIds: [...actionIds],
    version: group.version + 1,
    updatedAt: deps.clock.now().toISOString(),
  };
  await save(deps.store, reordered, group.version);
  return detailOf(reordered, actions);
}

export async function deleteActionGroup(
  deps: ActionGroupsDeps,
  principal: Principal,
  projectId: string,
  groupId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_action_groups');
  if (!(await deps.store.deleteActionGroup(projectId, groupId))) throw notFound('Action group', groupId);
}

async function save(store: Store, group: ActionGroup, expectedVersion: number) {
  if (!(await store.saveActionGroup(group, expectedVersion))) {
    throw new DoguError(
      'state_conflict',
      `Action group '${group.id}' was changed by someone else; read it and try again.`,
    );
  }
}

function viewOf(group: ActionGroup, existing: ReadonlySet<string>): ActionGroupView {
  return {
    ...group,
    actionIds: group.actionIds.filter((id) => existing.has(id)),
    missingActionIds: group.actionIds.filter((id) => !existing.has(id)),
  };
}

function detailOf(group: ActionGroup, actions: readonly Action[]): ActionGroupDetail {
  const byId = new Map(actions.map((a) => [a.id, a]));
  const view = viewOf(group, new Set(byId.keys()));
  return {
    ...view,
    actions: view.actionIds.map((id) => {
      const { name, description, kind, parameters } = byId.get(id)!;
      return { id, name, ...(description === undefined ? {} : { description }), kind, parameters };
    }),
  };
}
