/**
 * Plans the `publications` key: per environment, which version of an action runs there. Version
 * numbers count the saves of one action in one project, so a pin means the same definition only
 * within that project's history (docs/config.md, "publications"). A version the same apply creates
 * (the action is new, or changed by the file) may be pinned: publications are written after the actions.
 */
import { fieldChanges } from './diff.ts';
import { publicationPath } from './management-api.ts';
import { comparableAction } from './normalise.ts';
import type { Change, PlanInput, PlannedWrites, PlannerResult, PlanProblem } from './plan-types.ts';

export function planPublications({ config, state }: PlanInput): PlannerResult {
  const planned: PlannedWrites[] = [];
  const problems: PlanProblem[] = [];
  const inFile = new Map(config.actions.map((a) => [a.id, a]));
  for (const [environmentId, pins] of Object.entries(config.publications)) {
    for (const [actionId, version] of Object.entries(pins)) {
      const filePath = ['publications', environmentId, actionId];
      const latest = latestAfterApply(actionId, state, inFile);
      if (latest === undefined) {
        problems.push({ path: filePath, message: `no action '${actionId}' in the file or in the project` });
        continue;
      }
      if (version > latest.version) {
        problems.push({
          path: filePath,
          message: `action '${actionId}' has no version ${version}: the latest ${latest.afterApply ? 'after this apply ' : ''}is ${latest.version}`,
        });
        continue;
      }
      const current = state.publications.get(environmentId)?.get(actionId);
      const change: Change = current === undefined ? 'create' : current === version ? 'unchanged' : 'update';
      planned.push({
        resource: {
          kind: 'publication',
          id: `${environmentId}.${actionId}`,
          filePath,
          change,
          fields:
            change === 'create'
              ? [{ kind: 'added', path: [], after: version }]
              : change === 'update'
                ? [{ kind: 'changed', path: [], before: current, after: version }]
                : [],
          writeOnly: [],
        },
        writes: [
          {
            phase: 'publications',
            step: { path: publicationPath(actionId, environmentId), body: { version } },
          },
        ],
      });
    }
  }
  return { planned, problems };
}

/** The action's latest version once the file's actions are saved: each save adds one. */
function latestAfterApply(
  actionId: string,
  state: PlanInput['state'],
  inFile: ReadonlyMap<string, PlanInput['config']['actions'][number]>,
): { version: number; afterApply: boolean } | undefined {
  const stored = state.actions.get(actionId);
  const action = inFile.get(actionId);
  if (!stored) return action ? { version: 1, afterApply: true } : undefined;
  const changed =
    action !== undefined && fieldChanges(comparableAction(stored), comparableAction(action)).length > 0;
  return { version: stored.version + (changed ? 1 : 0), afterApply: changed };
}
