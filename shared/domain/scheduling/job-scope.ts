/** Where a cron job lives (project and environment), and reading one job only within it. */
import { notFound } from '../errors.ts';
import type { SchedulingDeps } from './deps.ts';
import type { CronJob } from './model.ts';

export interface JobScope {
  projectId: string;
  environmentId: string;
}

/** The job, when it belongs to the scope's environment; not found otherwise, so ids of other environments stay unseen. */
export async function loadJob(deps: SchedulingDeps, scope: JobScope, jobId: string): Promise<CronJob> {
  const job = await deps.schedules.getCronJob(scope.projectId, jobId);
  if (!job || job.environmentId !== scope.environmentId) throw notFound('Cron job', jobId);
  return job;
}
