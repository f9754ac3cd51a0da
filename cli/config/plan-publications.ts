/** Plans the `publications` key: per environment, which version of an action runs there (plan-pins.ts). */
import { fieldChanges } from './diff.ts';
import { publicationPath } from './management-api.ts';
import { comparableAction } from './normalise.ts';
import { latestAfterApply, planPins } from './plan-pins.ts';
import type { PlanInput, PlannerResult } from './plan-types.ts';

export function planPublications({ config, state }: PlanInput): PlannerResult {
  const inFile = new Map(config.actions.map((a) => [a.id, a]));
  return planPins(
    {
      key: 'publications',
      noun: 'action',
      resource: 'publication',
      phase: 'publications',
      path: publicationPath,
    },
    config.publications,
    (actionId) => {
      const stored = state.actions.get(actionId);
      const action = inFile.get(actionId);
      return latestAfterApply(
        stored?.version,
        action !== undefined,
        () => fieldChanges(comparableAction(stored!), comparableAction(action!)).length > 0,
      );
    },
    (environmentId, actionId) => state.publications.get(environmentId)?.get(actionId),
  );
}
