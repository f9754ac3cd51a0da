/**
 * Protected environments in a plan (docs/governance.md, docs/config.md): a protected environment runs
 * and shows only published versions. So a plan says, for each action or view the file saves anew,
 * what a protected environment will run unless the file publishes the new version there; and a cron
 * job the file writes in a protected environment whose action has nothing published there (nor in the
 * file) is a problem before anything is sent, as the service would refuse it with 409.
 */
import type { PlanInput, PlannedWrites, PlanProblem } from './plan-types.ts';

export function applyProtection(input: PlanInput, planned: PlannedWrites[]): PlanProblem[] {
  const { config, state } = input;
  const protectedIds = [...state.protectedEnvironments].sort();
  if (protectedIds.length === 0) return [];
  const pinnedInFile = (key: 'publications' | 'viewPublications', environmentId: string, id: string) =>
    config[key][environmentId]?.[id] !== undefined;
  for (const { resource } of planned) {
    if (resource.change === 'unchanged') continue;
    if (resource.kind !== 'action' && resource.kind !== 'view') continue;
    const key = resource.kind === 'action' ? 'publications' : 'viewPublications';
    const stored = resource.kind === 'action' ? state.publications : state.viewPublications;
    for (const environmentId of protectedIds) {
      if (pinnedInFile(key, environmentId, resource.id)) continue;
      const published = stored.get(environmentId)?.get(resource.id);
      const warning =
        published === undefined
          ? `'${environmentId}' is protected: nothing of this ${resource.kind} runs there until a version is published (${key}.${environmentId}.${resource.id})`
          : `'${environmentId}' is protected: it keeps version ${published} until the new version is published (${key}.${environmentId}.${resource.id})`;
      resource.warnings = [...(resource.warnings ?? []), warning];
    }
  }
  const written = new Set(
    planned
      .filter((p) => p.resource.kind === 'cronJob' && p.resource.change !== 'unchanged')
      .map((p) => p.resource.id),
  );
  return config.cronJobs.flatMap((job, index): PlanProblem[] => {
    if (!state.protectedEnvironments.has(job.environment)) return [];
    if (!written.has(`${job.environment}.${job.name}`)) return [];
    if (pinnedInFile('publications', job.environment, job.action)) return [];
    if (state.publications.get(job.environment)?.has(job.action)) return [];
    return [
      {
        path: ['cronJobs', index, 'action'],
        message:
          `environment '${job.environment}' is protected and action '${job.action}' has no version published ` +
          `there: publish one (publications.${job.environment}.${job.action}) for the job to run`,
      },
    ];
  });
}
