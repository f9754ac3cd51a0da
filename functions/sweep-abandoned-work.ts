/**
 * Ends abandoned work (decision 0056). Invoked every few minutes by a scheduled rule (no event
 * fields), and by the Catch steps of the state machines: `{ failedJob }` when the async-execution task
 * failed, `{ failedBatch }` when finishing a batch failed.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { finishBatch } from '../shared/domain/batch/run-batch.ts';
import { endFailedJob, sweepAbandonedWork } from '../shared/domain/scheduling/abandoned-work.ts';
import type { HandedOffCronRun } from '../shared/domain/scheduling/ports.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, getServices, schedulingDeps } from '../shared/runtime/services.ts';

/** Settles records; runs no action. */
const composition = compose(secretValues, connectorCatalog, scheduling, notificationCenter);

export interface SweepEvent {
  /** `job`: the machine's whole input (a handed-off cron run is named there, decision 0101). */
  failedJob?: {
    projectId: string;
    executionId: string;
    cause?: string;
    job?: { cronRun?: HandedOffCronRun };
  };
  failedBatch?: { projectId: string; batchId: string };
}

export const handler = middy<SweepEvent, unknown, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => {
    const deps = schedulingDeps(await getServices(composition));
    if (event.failedJob) {
      const { job: _input, ...failed } = event.failedJob;
      logger.warn('async job task failed', {
        ...failed,
        ...(_input?.cronRun ? { cronRun: _input.cronRun } : {}),
      });
      await endFailedJob(deps, event.failedJob);
      return { ended: 'job' };
    }
    if (event.failedBatch) {
      logger.warn('batch finish failed', { ...event.failedBatch });
      await finishBatch(deps, event.failedBatch);
      return { ended: 'batch' };
    }
    const outcome = await sweepAbandonedWork(deps);
    if (outcome.executions + outcome.cronRuns + outcome.jobs > 0)
      logger.warn('abandoned work ended', { ...outcome });
    return outcome;
  });
