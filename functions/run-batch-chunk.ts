/**
 * One item of the batch state machine's Distributed Map: claims and runs one chunk of rows. The
 * Lambda request id names the runner, so a retried invocation is a new claimant of a stale claim.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { runBatchChunk } from '../shared/domain/batch/run-batch.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, getServices, schedulingDeps } from '../shared/runtime/services.ts';

/** Runs actions: the engines with connector runtimes (docs/decisions/0022). */
const composition = compose(
  secretValues,
  actionEngines,
  ownIdp,
  scriptSandbox,
  scheduling,
  notificationCenter,
  fileStorage,
  executionPayloads,
);

export interface RunBatchChunkEvent {
  projectId: string;
  batchId: string;
  chunk: number;
}

export const handler = middy<RunBatchChunkEvent, void, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event, context) => {
    logger.appendKeys({ projectId: event.projectId, batchId: event.batchId, chunk: event.chunk });
    await runBatchChunk(schedulingDeps(await getServices(composition)), {
      projectId: event.projectId,
      batchId: event.batchId,
      chunk: event.chunk,
      runnerId: context.awsRequestId,
    });
  });
