/**
 * What a job worker (run-job's Lambda, the long-job build) does with the async-execution machine's
 * input: a queued job or a reservation handed over runs through its reservation; a cron run handed
 * over by scheduled-run runs as that claimed run (decision 0101).
 */
import { runQueuedExecution } from './async-executions.ts';
import { runHandedOffCronRun } from './cron-runs.ts';
import type { SchedulingDeps } from './deps.ts';
import type { HandedOffCronRun } from './ports.ts';

/** The machine's input (AsyncExecutionInput in shared/adapters/aws/step-functions-runner.ts). */
export interface RunJobEvent {
  projectId: string;
  environmentId: string;
  executionId: string;
  timeLimitMs?: number;
  cronRun?: HandedOffCronRun;
}

export async function runJobInput(deps: SchedulingDeps, event: RunJobEvent): Promise<void> {
  if (event.cronRun) {
    await runHandedOffCronRun(deps, {
      ...event.cronRun,
      projectId: event.projectId,
      executionId: event.executionId,
    });
    return;
  }
  await runQueuedExecution(deps, { projectId: event.projectId, executionId: event.executionId });
}
