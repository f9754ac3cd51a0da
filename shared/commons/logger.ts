import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger per container (Powertools): level from POWERTOOLS_LOG_LEVEL. */
export const logger = new Logger({ serviceName: 'dogu' });
