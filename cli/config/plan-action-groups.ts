/** Plans the `actionGroups` key: actions shown on one screen, in order. Saved after the actions they name. */
import { fieldChanges } from './diff.ts';
import { actionGroupPath, type StoredGroup } from './management-api.ts';
import type { PlanInput, PlannedWrites, PlannerResult, PlanProblem } from './plan-types.ts';

export function planActionGroups({ config, state }: PlanInput): PlannerResult {
  const problems: PlanProblem[] = [];
  const actionIds = new Set([...state.actions.keys(), ...config.actions.map((a) => a.id)]);
  const planned = config.actionGroups.map((group, index): PlannedWrites => {
    const filePath = ['actionGroups', index];
    group.actionIds.forEach((actionId, i) => {
      if (!actionIds.has(actionId))
        problems.push({
          path: [...filePath, 'actionIds', i],
          message: `no action '${actionId}' in the file or in the project`,
        });
    });
    const stored = state.actionGroups.get(group.id);
    const fields = stored ? fieldChanges(comparableActionGroup(stored), comparableActionGroup(group)) : [];
    return {
      resource: {
        kind: 'actionGroup',
        id: group.id,
        filePath,
        change: !stored ? 'create' : fields.length > 0 ? 'update' : 'unchanged',
        fields,
        writeOnly: [],
      },
      writes: [
        {
          phase: 'actionGroups',
          step: {
            // A whole PUT sets the order too (no separate PUT …/order is needed).
            path: actionGroupPath(group.id),
            body: group,
            // The API's PUT takes no If-Match: the group's version is read again before the write.
            guard: { field: 'version', expected: stored?.version },
          },
        },
      ],
    };
  });
  return { planned, problems };
}

/**
 * The input fields only. A read lists only actions that still exist (deleted ones are in
 * `missingActionIds`, which the next save drops), so that is what the file is compared with.
 */
export function comparableActionGroup(group: StoredGroup | Record<string, unknown>) {
  return { id: group.id, name: group.name, actionIds: group.actionIds };
}
