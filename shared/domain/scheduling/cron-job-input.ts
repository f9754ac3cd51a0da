import * as z from 'zod';
import { resourceIdSchema } from '../definitions/data-source.ts';
import { scheduleSchema } from './schedule.ts';

/** Stored with the job (one store item): arguments of a scheduled run stay well inside it. */
export const maxScheduledArgumentBytes = 64 * 1024;
export const scheduledArgumentsSchema = z
  .record(z.string(), z.unknown())
  .refine(
    (args) => Buffer.byteLength(JSON.stringify(args)) <= maxScheduledArgumentBytes,
    `must be at most ${maxScheduledArgumentBytes} bytes as JSON`,
  );

/** A scheduled run's own limit in seconds: spec 8's 30 minutes at most (decision 0101). */
export const scheduledTimeLimitSchema = z.number().int().min(1).max(1800);

/** The body of creating or replacing a cron job (spec 2.8); `executor` defaults to the member setting it. */
export const cronJobInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .refine((name) => [...name].length >= 1 && [...name].length <= 128, 'must be 1 to 128 characters'),
    schedule: scheduleSchema,
    timeZone: z.string().min(1).max(64).optional(),
    actionId: resourceIdSchema,
    arguments: scheduledArgumentsSchema.default({}),
    executor: z
      .object({ kind: z.enum(['user', 'service_account']), id: z.string().min(1).max(128) })
      .strict()
      .optional(),
    state: z.enum(['running', 'stopped']).optional(),
    overlap: z.enum(['allow', 'skip']).optional(),
    /** Each scheduled run's own limit (decision 0101); unset: the runtime's job limit. */
    timeLimitSeconds: scheduledTimeLimitSchema.optional(),
    /** Optimistic concurrency on replace: the version the caller read. */
    version: z.number().int().min(1).optional(),
  })
  .strict();
export type CronJobInput = z.infer<typeof cronJobInputSchema>;

export const schedulePreviewSchema = z
  .object({ schedule: scheduleSchema, timeZone: z.string().min(1).max(64).optional() })
  .strict();
