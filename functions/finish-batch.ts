/** The batch state machine's last step, after every chunk ran: records the batch as finished. */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { finishBatch } from '../shared/domain/batch/run-batch.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, getServices, schedulingDeps } from '../shared/runtime/services.ts';

/** Settles a batch; runs no action. */
const composition = compose(secretValues, connectorCatalog, scheduling, notificationCenter);

export interface FinishBatchEvent {
  projectId: string;
  batchId: string;
}

export const handler = middy<FinishBatchEvent, void, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => {
    logger.appendKeys({ projectId: event.projectId, batchId: event.batchId });
    await finishBatch(schedulingDeps(await getServices(composition)), {
      projectId: event.projectId,
      batchId: event.batchId,
    });
  });
