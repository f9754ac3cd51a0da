/**
 * The schedule of a cron job (spec 2.8): the form (days and times) or a cron expression.
 * Parsing, validation, EventBridge expressions and next run times live in schedule-expression.ts.
 */
import * as z from 'zod';

export const weekdays = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
export type Weekday = (typeof weekdays)[number];

export const scheduleDaysSchema = z.discriminatedUnion('by', [
  z.object({ by: z.literal('weekday'), weekdays: z.array(z.enum(weekdays)).min(1).max(7) }),
  z.object({
    by: z.literal('dayOfMonth'),
    /** 1–31, or 'L' for the last day of the month. */
    days: z
      .array(z.union([z.number().int().min(1).max(31), z.literal('L')]))
      .min(1)
      .max(31),
  }),
]);

export const scheduleTimesSchema = z.discriminatedUnion('kind', [
  /** Fixed times of day, 'HH:MM' (24 h). */
  z.object({ kind: z.literal('fixed'), times: z.array(z.string()).min(1).max(24) }),
  /** Every hour at these minutes. */
  z.object({ kind: z.literal('hourly'), minutes: z.array(z.number().int().min(0).max(59)).min(1).max(60) }),
  /** Every N minutes or hours, at multiples of N (every 5 minutes: minute 0, 5, 10, …). */
  z.object({
    kind: z.literal('interval'),
    every: z.number().int().min(1),
    unit: z.enum(['minutes', 'hours']),
  }),
]);

export const scheduleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('form'), days: scheduleDaysSchema, times: scheduleTimesSchema }),
  /** EventBridge's 6-field form (`0 9 ? * MON-FRI *`, optionally wrapped in `cron(…)`) or the common 5-field form. */
  z.object({ kind: z.literal('cron'), expression: z.string().min(1).max(256) }),
]);

export type ScheduleDays = z.infer<typeof scheduleDaysSchema>;
export type ScheduleTimes = z.infer<typeof scheduleTimesSchema>;
export type Schedule = z.infer<typeof scheduleSchema>;

export const defaultTimeZone = 'Asia/Tokyo';
