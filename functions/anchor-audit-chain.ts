/**
 * Writes every project's audit chain head to the anchor bucket (decision 0182). Invoked by a
 * scheduled rule; reads the table, writes one object.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { anchorHeads } from '../shared/domain/audit-chain/anchor.ts';
import { auditAnchor } from '../shared/runtime/groups/audit-anchor.ts';
import { compose, getServices } from '../shared/runtime/services.ts';

const composition = compose(auditAnchor);

export const handler = middy<unknown, unknown, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async () => {
    const services = await getServices(composition);
    const record = await anchorHeads(services.audit, services.anchorSink, services.clock.now());
    logger.info('audit chain heads anchored', { projects: record?.heads.length ?? 0 });
    return { projects: record?.heads.length ?? 0 };
  });
