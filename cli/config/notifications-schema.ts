/**
 * The `notifications` key of a config file (docs/notifications.md): the project's network policy,
 * its targets by name (ids are the service's) with their write-only fields as `…FromEnv`
 * references, and rules that name targets by name and cron jobs by environment and name. Built
 * from the API's own target and rule inputs, so the file accepts what the API accepts.
 */
import { z } from 'zod';
import { resourceIdSchema } from '../../shared/domain/definitions/data-source.ts';
import {
  emailTargetSchema,
  networkPolicySchema,
  ruleInputSchema,
  slackTargetSchema,
  webhookTargetSchema,
} from '../../shared/domain/notifications/input.ts';
import { cronJobInputSchema } from '../../shared/domain/scheduling/cron-job-input.ts';
import { envVarNameSchema } from './env-var-name.ts';

const reference = (what: string) =>
  envVarNameSchema.meta({
    description: `Apply sends the ${what} from this environment variable. Unset: the stored one is kept.`,
  });
/** Named only to explain the refusal better than "unknown field" would. */
const never = (field: string) =>
  z
    .never({ error: `a ${field} is never written in the file: use ${field}FromEnv: ENV_VAR_NAME` })
    .optional()
    .meta({ description: `Not allowed: use ${field}FromEnv.` });

const { signingSecret: _signingSecret, ...webhookShape } = webhookTargetSchema.shape;
const { url: _slackUrl, ...slackShape } = slackTargetSchema.shape;
const { password: _password, ...smtpShape } = emailTargetSchema.shape.smtp.unwrap().shape;

/** A target as the file writes it: the API's input, each secret as an environment variable's name. */
export const notificationTargetInFileSchema = z.discriminatedUnion('kind', [
  z.object({
    ...webhookShape,
    name: webhookShape.name.meta({
      description: 'Unique within the project: apply finds the target by name.',
    }),
    signingSecretFromEnv: reference('signing secret (at least 24 characters)'),
    signingSecret: never('signingSecret'),
  }),
  z.object({
    ...slackShape,
    urlFromEnv: reference('incoming-webhook URL (it is the credential)'),
    url: never('url'),
  }),
  z.object({
    ...emailTargetSchema.shape,
    smtp: z
      .object({
        ...smtpShape,
        passwordFromEnv: reference('SMTP password').optional(),
        password: never('password'),
      })
      .optional(),
  }),
]);
export type NotificationTargetInFile = z.infer<typeof notificationTargetInFileSchema>;

const ruleSubjectKinds = ruleInputSchema.shape.subject.shape.kind;

/**
 * What a rule is about: an action (or the batches of one) by id, or a cron job by environment and
 * name (its id differs between installations); `id: '*'` is every action or cron job.
 */
export const ruleSubjectInFileSchema = z
  .object({
    kind: ruleSubjectKinds,
    id: ruleInputSchema.shape.subject.shape.id.optional().meta({
      description: "The action's id, or '*' for all. A cron job: '*' (or its id in this installation).",
    }),
    environment: resourceIdSchema.optional().meta({ description: "A cron job's environment." }),
    name: cronJobInputSchema.shape.name
      .optional()
      .meta({ description: "A cron job's name in that environment." }),
  })
  .superRefine((subject, context) => {
    const byName = subject.environment !== undefined || subject.name !== undefined;
    if (subject.kind !== 'cron_job') {
      if (subject.id === undefined)
        context.addIssue({ code: 'custom', path: ['id'], message: 'is required' });
      if (byName)
        context.addIssue({
          code: 'custom',
          path: [subject.environment !== undefined ? 'environment' : 'name'],
          message: `only a cron_job subject is named by environment and name; an ${subject.kind} subject has an id`,
        });
    } else if (subject.id !== undefined && byName) {
      context.addIssue({
        code: 'custom',
        path: ['id'],
        message: "a cron job is named either by id ('*') or by environment and name, not both",
      });
    } else if (
      subject.id === undefined &&
      (subject.environment === undefined || subject.name === undefined)
    ) {
      context.addIssue({
        code: 'custom',
        path: [subject.environment === undefined ? 'environment' : 'name'],
        message: "is required: a cron_job subject names the job by environment and name (or id: '*')",
      });
    }
  });
export type RuleSubjectInFile = z.infer<typeof ruleSubjectInFileSchema>;

export const notificationRuleInFileSchema = z.object({
  subject: ruleSubjectInFileSchema,
  events: ruleInputSchema.shape.events,
  targets: z
    .array(webhookShape.name)
    .min(1, 'must name at least one target')
    .max(20)
    .refine((names) => new Set(names).size === names.length, 'must not repeat a target')
    .meta({ description: 'Targets by name (of the file or the project).' }),
});
export type NotificationRuleInFile = z.infer<typeof notificationRuleInFileSchema>;

export const notificationsInFileSchema = z.object({
  allowPrivateNetworks: networkPolicySchema.shape.allowPrivateNetworks.optional().meta({
    description:
      'Whether targets on loopback and private networks are allowed. Left out: the project keeps its setting.',
  }),
  targets: z
    .array(notificationTargetInFileSchema)
    .default([])
    .superRefine((targets, context) => {
      const seen = new Set<string>();
      targets.forEach((target, index) => {
        if (seen.has(target.name))
          context.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `names target '${target.name}' twice`,
          });
        seen.add(target.name);
      });
    })
    .meta({ description: 'Where to send: webhooks, Slack incoming webhooks and e-mail, by name.' }),
  rules: z.array(notificationRuleInFileSchema).default([]).meta({
    description:
      'What to send where. A rule is found by its subject and its targets; apply updates its events.',
  }),
});
export type NotificationsInFile = z.infer<typeof notificationsInFileSchema>;
