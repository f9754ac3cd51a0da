/** The async-execution state machine's task: runs one queued execution (up to the Lambda maximum). */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { runQueuedExecution } from '../shared/domain/scheduling/async-executions.ts';
import { getServices, schedulingDeps } from '../shared/runtime/services.ts';

export interface RunJobEvent {
  projectId: string;
  environmentId: string;
  executionId: string;
}

export const handler = middy<RunJobEvent, void, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => {
    logger.appendKeys({ projectId: event.projectId, executionId: event.executionId });
    await runQueuedExecution(schedulingDeps(await getServices()), {
      projectId: event.projectId,
      executionId: event.executionId,
    });
  });
