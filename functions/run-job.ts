/** The async-execution state machine's task: runs one queued execution (up to the Lambda maximum). */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { type RunJobEvent, runJobInput } from '../shared/domain/scheduling/job-input.ts';
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

export type { RunJobEvent };

export const handler = middy<RunJobEvent, void, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => {
    logger.appendKeys({ projectId: event.projectId, executionId: event.executionId });
    await runJobInput(schedulingDeps(await getServices(composition)), event);
  });
