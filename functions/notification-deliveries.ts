/**
 * Invoked every minute by an EventBridge rule (infra/scheduling.ts): sends every notification
 * delivery that is due (retries, and first attempts a frozen container left behind). Decision 0031.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { compose, getServices } from '../shared/runtime/services.ts';

const composition = compose(notificationCenter);

export const handler = middy<unknown, void, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async () => {
    const { notifications } = await getServices(composition);
    await notifications.drainDue();
  });
