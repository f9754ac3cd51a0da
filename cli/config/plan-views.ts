/**
 * Plans the `views` key: each save is a new version, sent with If-Match on the version read now.
 * The service checks every reference (actions, queries, views, groups) and expression when it
 * saves; the plan reports in advance what neither the file nor the project has, and expressions
 * that would be refused (the service's own check), so a dry run says it too.
 */
import type { ViewInput } from '../../shared/domain/definitions/view.ts';
import { checkViewExpressions } from '../../shared/domain/views/check-expressions.ts';
import { fieldChanges } from './diff.ts';
import { viewPath, viewPublicationPath } from './management-api.ts';
import { comparableView } from './normalise.ts';
import { pathOfPointer } from './path.ts';
import { latestAfterApply, planPins } from './plan-pins.ts';
import type { PlanInput, PlannerResult, PlanProblem } from './plan-types.ts';

export function planViews({ config, state }: PlanInput): PlannerResult {
  const planned = config.views.map((view, index) => {
    const stored = state.views.get(view.id);
    const fields = stored ? fieldChanges(comparableView(stored), comparableView(view)) : [];
    const version = typeof stored?.version === 'number' ? stored.version : 0;
    return {
      resource: {
        kind: 'view' as const,
        id: view.id,
        filePath: ['views', index],
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
          phase: 'views' as const,
          step: { path: viewPath(view.id), body: view satisfies ViewInput, ifMatch: version },
        },
      ],
    };
  });
  return { planned, problems: viewProblems({ config, state }) };
}

/** Actions, action groups and views a view names that neither the file nor the project has. */
function viewProblems({ config, state }: Pick<PlanInput, 'config' | 'state'>): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const actions = new Set([...state.actions.keys(), ...config.actions.map((a) => a.id)]);
  const groups = new Set([...state.actionGroups.keys(), ...config.actionGroups.map((g) => g.id)]);
  const views = new Set([...state.views.keys(), ...config.views.map((v) => v.id)]);
  config.views.forEach((view, index) => {
    const at = ['views', index];
    if (view.groupId && !groups.has(view.groupId)) {
      problems.push({
        path: [...at, 'groupId'],
        message: `no action group '${view.groupId}' in the file or in the project`,
      });
    }
    for (const { path, kind, id } of referencesOf(view.definition)) {
      const known = kind === 'action' ? actions : views;
      if (!known.has(id))
        problems.push({
          path: [...at, 'definition', ...path],
          message: `no ${kind} '${id}' in the file or in the project`,
        });
    }
    if (view.definition.kind === 'visual') {
      for (const { pointer, detail, line, column } of checkViewExpressions(view.definition)) {
        problems.push({
          path: [...at, ...pathOfPointer(pointer)],
          message: detail,
          ...(line !== undefined && column !== undefined ? { within: { line, column } } : {}),
        });
      }
    }
  });
  return problems;
}

type Reference = { path: (string | number)[]; kind: 'action' | 'view'; id: string };

/** Every action and view id a definition names, with where (walks the JSON: keys decide). */
function referencesOf(definition: unknown, path: (string | number)[] = []): Reference[] {
  if (Array.isArray(definition)) return definition.flatMap((item, i) => referencesOf(item, [...path, i]));
  if (typeof definition !== 'object' || definition === null) return [];
  const found: Reference[] = [];
  for (const [key, value] of Object.entries(definition)) {
    const here = [...path, key];
    if (typeof value === 'string' && (key === 'actionId' || key === 'fromAction'))
      found.push({ path: here, kind: 'action', id: value });
    else if (typeof value === 'string' && key === 'action' && path.at(-1) === 'to')
      found.push({ path: here, kind: 'action', id: value });
    else if (typeof value === 'string' && key === 'view' && path.at(-1) === 'to')
      found.push({ path: here, kind: 'view', id: value });
    else if (key === 'actionIds' && Array.isArray(value)) {
      for (const [i, id] of value.entries())
        found.push({ path: [...here, i], kind: 'action', id: String(id) });
    } else found.push(...referencesOf(value, here));
  }
  return found;
}

/** Plans the `viewPublications` key like `publications`: which version of a view each environment shows. */
export function planViewPublications({ config, state }: PlanInput): PlannerResult {
  const inFile = new Map(config.views.map((v) => [v.id, v]));
  return planPins(
    {
      key: 'viewPublications',
      noun: 'view',
      resource: 'viewPublication',
      phase: 'viewPublications',
      path: viewPublicationPath,
    },
    config.viewPublications,
    (viewId) => {
      const stored = state.views.get(viewId);
      const view = inFile.get(viewId);
      return latestAfterApply(
        stored ? Number(stored.version) : undefined,
        view !== undefined,
        () => fieldChanges(comparableView(stored!), comparableView(view!)).length > 0,
      );
    },
    (environmentId, viewId) => state.viewPublications.get(environmentId)?.get(viewId),
  );
}
