/** Plans the `masterData` key: value lists that parameters name, so they are saved before actions. */
import { fieldChanges } from './diff.ts';
import { masterDataPath } from './management-api.ts';
import { comparableMasterData } from './normalise.ts';
import type { PlanInput, PlannedWrites, PlannerResult } from './plan-types.ts';

export function planMasterData({ config, state }: PlanInput): PlannerResult {
  const planned = config.masterData.map((list, index): PlannedWrites => {
    const stored = state.masterData.get(list.id);
    const fields = stored ? fieldChanges(comparableMasterData(stored), comparableMasterData(list)) : [];
    return {
      resource: {
        kind: 'masterData',
        id: list.id,
        filePath: ['masterData', index],
        change: !stored ? 'create' : fields.length > 0 ? 'update' : 'unchanged',
        fields,
        writeOnly: [],
      },
      writes: [
        {
          phase: 'masterData',
          step: {
            path: masterDataPath(list.id),
            body: list,
            // No version to send as If-Match: read again before the write instead.
            guard: { field: 'updatedAt', expected: stored?.updatedAt as string | undefined },
          },
        },
      ],
    };
  });
  return { planned, problems: [] };
}
