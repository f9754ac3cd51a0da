/** Cron jobs, reservations, batches and async runs: EventBridge Scheduler and Step Functions on AWS. */
import type { JobRunner, Scheduler, SchedulingStore } from '../../domain/scheduling/ports.ts';
import type { ServiceGroup } from '../services.ts';

export const scheduling: ServiceGroup<{ schedules: SchedulingStore; scheduler: Scheduler; jobs: JobRunner }> =
  {
    name: 'scheduling',
    pick: ({ schedules, scheduler, jobs }) => ({ schedules, scheduler, jobs }),
    async createOnAws() {
      const [{ DynamoDbSchedulingStore }, { createAwsScheduling }, { requiredEnv, sharedDocumentClient }] =
        await Promise.all([
          import('../../adapters/dynamodb/dynamodb-scheduling-store.ts'),
          import('../../adapters/aws/aws-scheduling.ts'),
          import('../aws-core.ts'),
        ]);
      return {
        schedules: new DynamoDbSchedulingStore(sharedDocumentClient(), requiredEnv('DOGU_TABLE_NAME')),
        // The Scheduler and Step Functions clients are made on first use (aws-scheduling.ts).
        ...createAwsScheduling(process.env),
      };
    },
  };
