/** Request bodies of the notification settings API (checked before anything is stored). */
import * as z from 'zod';
import { eventTypes, subjectKinds } from './model.ts';

const name = z.string().trim().min(1, 'must not be empty').max(128, 'must be at most 128 characters');
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http or https URL');
const email = z.email('must be an e-mail address').max(254);

export const webhookTargetSchema = z
  .object({
    kind: z.literal('webhook'),
    name,
    url: httpUrl,
    /** Write-only. Required when the target is created; omitted on a change: the stored one is kept. */
    signingSecret: z
      .string()
      .min(24, 'must be at least 24 characters (generate one: 32 random bytes)')
      .max(256)
      .optional(),
  })
  .strict();

export const slackTargetSchema = z
  .object({
    kind: z.literal('slack'),
    name,
    /** Write-only (the URL is the credential); required on create, omitted on a change to keep it. */
    url: httpUrl.optional(),
  })
  .strict();

export const emailTargetSchema = z
  .object({
    kind: z.literal('email'),
    name,
    to: z.array(email).min(1, 'must name at least one recipient').max(20),
    from: email,
    smtp: z
      .object({
        host: z.string().trim().min(1).max(253),
        port: z.number().int().min(1).max(65535),
        secure: z.boolean().default(false),
        username: z.string().max(256).optional(),
        /** Write-only; omitted on a change: the stored one is kept. */
        password: z.string().max(1024).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const targetInputSchema = z.discriminatedUnion('kind', [
  webhookTargetSchema,
  slackTargetSchema,
  emailTargetSchema,
]);
export type TargetInput = z.infer<typeof targetInputSchema>;

export const ruleInputSchema = z
  .object({
    subject: z
      .object({
        kind: z.enum(subjectKinds),
        id: z.string().trim().min(1).max(128),
      })
      .strict(),
    events: z
      .array(z.enum(eventTypes))
      .min(1, 'must name at least one event')
      .refine((events) => new Set(events).size === events.length, 'must not repeat an event'),
    targetIds: z.array(z.string().min(1)).min(1, 'must name at least one target').max(20),
  })
  .strict();
export type RuleInput = z.infer<typeof ruleInputSchema>;

export const networkPolicySchema = z.object({ allowPrivateNetworks: z.boolean() }).strict();
