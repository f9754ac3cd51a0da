/** Plans the `actions` key: each save is a new version, sent with If-Match on the version read now. */
import { type ActionInput, javascriptActionKind } from '../../shared/domain/definitions/action.ts';
import { fieldChanges } from './diff.ts';
import { actionPath } from './management-api.ts';
import { comparableAction } from './normalise.ts';
import type { PlanInput, PlannerResult, PlanProblem } from './plan-types.ts';

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
  return { planned, problems: actionProblems({ config, state }) };
}

/**
 * What the service would refuse when it saves an action, said in the plan so a dry run reports it:
 * a data source or master data list that neither the file nor the project has, and the permission
 * "only from a JavaScript action" held by something that is not one (decision of issue 12, item 14).
 */
function actionProblems({ config, state }: Pick<PlanInput, 'config' | 'state'>): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const dataSources = new Set([...state.dataSources.keys(), ...config.dataSources.map((d) => d.id)]);
  const masterData = new Set([...state.masterData.keys(), ...config.masterData.map((m) => m.id)]);
  const kindOf = new Map<string, string>([
    ...[...state.actions].map(([id, stored]) => [id, String(stored.kind)] as const),
    ...config.actions.map((action) => [action.id, action.kind] as const),
  ]);
  config.actions.forEach((action, index) => {
    if (!dataSources.has(action.dataSourceId)) {
      problems.push({
        path: ['actions', index, 'dataSourceId'],
        message: `no data source '${action.dataSourceId}' in the file or in the project`,
      });
    }
    action.parameters.forEach((parameter, at) => {
      const list = 'masterData' in parameter ? parameter.masterData : undefined;
      if (list && !masterData.has(list)) {
        problems.push({
          path: ['actions', index, 'parameters', at, 'masterData'],
          message: `no master data list '${list}' in the file or in the project`,
        });
      }
    });
    const permission = action.permission;
    if (permission?.mode !== 'javascript_action') return;
    const holder = permission.javascriptActionId;
    const holderKind = holder ? kindOf.get(holder) : undefined;
    const reason = !holder
      ? 'name the JavaScript action that may run it'
      : holder === action.id
        ? 'an action cannot hold its own permission'
        : holderKind === undefined
          ? `no action '${holder}' in the file or in the project`
          : holderKind !== javascriptActionKind
            ? `'${holder}' is a ${holderKind} action, not a JavaScript action`
            : undefined;
    if (reason) {
      problems.push({
        path: ['actions', index, 'permission', 'javascriptActionId'],
        message: `only a JavaScript action can hold "only from a JavaScript action" (${reason}); otherwise nobody could run '${action.id}'`,
      });
    }
  });
  return problems;
}
