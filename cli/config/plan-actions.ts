/** Plans the `actions` key: each save is a new version, sent with If-Match on the version read now. */
import type { ActionInput } from '../../shared/domain/definitions/action.ts';
import { fieldChanges } from './diff.ts';
import { actionPath } from './management-api.ts';
import { comparableAction } from './normalise.ts';
import type { PlanInput, PlannerResult } from './plan-types.ts';

export function planActions({ config, state }: PlanInput): PlannerResult {
  // Authentication actions go before the data sources that name them (see phases).
  const authActionIds = new Set(
    config.dataSources.flatMap((d) => (d.authAction ? [d.authAction.actionId] : [])),
  );
  const planned = config.actions.map((action, index) => {
    const stored = state.actions.get(action.id);
    const fields = stored ? fieldChanges(comparableAction(stored), comparableAction(action)) : [];
    const version = stored?.version ?? 0;
    return {
      resource: {
        kind: 'action' as const,
        id: action.id,
        filePath: ['actions', index],
        change: !stored
          ? ('create' as const)
          : fields.length > 0
            ? ('update' as const)
            : ('unchanged' as const),
        fields,
        writeOnly: [],
        version,
      },
      writes: [
        {
          phase: authActionIds.has(action.id) ? ('authActions' as const) : ('actions' as const),
          step: { path: actionPath(action.id), body: action satisfies ActionInput, ifMatch: version },
        },
      ],
    };
  });
  return { planned, problems: [] };
}
