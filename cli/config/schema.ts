/**
 * The shape of a config file (dogu.yaml): one zod schema composed from the API's own input schemas,
 * so the file accepts what the API accepts. The one difference is write-only values (each kind's
 * secret fields, secrets): the file names the environment variable that holds them, never the value.
 *
 * Each kind of resource is one top-level key; kinds added later become more keys beside these.
 */
import { z } from 'zod';
import type { ConnectorDefinition } from '../../shared/connectors/connector.ts';
import { connectors } from '../../shared/connectors/index.ts';
import { actionInputSchema, connectionOf } from '../../shared/connectors/schemas.ts';
import {
  authActionSchema,
  type DataSourceInput,
  dataSourceCommonShape,
  environmentsOf,
  resourceIdSchema,
} from '../../shared/domain/definitions/data-source.ts';
import {
  actionGroupInputSchema,
  memberByEmailInputSchema,
  principalIdSchema,
  userGroupInputSchema,
} from '../../shared/domain/definitions/governance.ts';
import { masterDataInputSchema } from '../../shared/domain/definitions/master-data.ts';
import { nameSchema } from '../../shared/domain/definitions/parameter.ts';
import {
  serviceAccountCreateSchema,
  serviceAccountUpdateSchema,
  trustPolicyInputSchema,
} from '../../shared/domain/definitions/service-account.ts';
import { viewInputSchema } from '../../shared/domain/definitions/view.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { cronJobInputSchema } from '../../shared/domain/scheduling/cron-job-input.ts';
import { defaultTimeZone, scheduleSchema } from '../../shared/domain/scheduling/schedule.ts';
import {
  assertTimeZone,
  eventBridgeExpressions,
} from '../../shared/domain/scheduling/schedule-expression.ts';
import { envVarNameSchema } from './env-var-name.ts';
import { notificationsInFileSchema } from './notifications-schema.ts';
import { pathOfPointer } from './path.ts';

export const configVersion = 1;

export { envVarNameSchema };

/** A write-only value, set from an environment variable of the machine that runs `dogu apply`. */
export const secretReferenceSchema = z
  .object(
    {
      fromEnv: envVarNameSchema.meta({ description: 'The environment variable apply reads the value from.' }),
    },
    {
      error: (issue) =>
        issue.code === 'invalid_type'
          ? 'a secret is referenced, never written in the file: use { fromEnv: ENV_VAR_NAME }'
          : undefined,
    },
  )
  .meta({ description: 'Where apply reads the secret value from. The value itself is never in the file.' });

const variableValueSchema = z.string({
  error: (issue) =>
    issue.code === 'invalid_type' ? 'a variable value is text: put it in quotes, e.g. "50"' : undefined,
});

/** Secret fields of every kind, per data-source kind (`password` for the SQL kinds). */
export const secretFieldsOf = (kind: string): readonly string[] =>
  connectors.find((c) => c.kind === kind)?.secretFields ?? [];

const inFileConnections = new Map<z.ZodObject, z.ZodObject>();

/** A kind's connection as the file writes it: each secret field replaced by `<field>FromEnv`. */
export function connectionInFileSchema(connector: ConnectorDefinition): z.ZodObject {
  const known = inFileConnections.get(connector.connection);
  if (known) return known;
  let schema: z.ZodObject = connectionOf(connector);
  if (connector.secretFields.length > 0) {
    const extension: Record<string, z.ZodType> = {};
    for (const field of connector.secretFields) {
      extension[`${field}FromEnv`] = envVarNameSchema.optional().meta({
        description: `Apply sends the ${field} from this environment variable. Omitted: the stored ${field} is kept.`,
      });
      // Named here only to explain the refusal better than "unknown field" would.
      extension[field] = z
        .never({ error: `a ${field} is never written in the file: use ${field}FromEnv: ENV_VAR_NAME` })
        .optional()
        .meta({ description: `Not allowed: a ${field} is never written in the file; use ${field}FromEnv.` });
    }
    schema = connectionOf(connector)
      .omit(Object.fromEntries(connector.secretFields.map((f) => [f, true])) as never)
      .extend(extension);
  }
  inFileConnections.set(connector.connection, schema);
  return schema;
}

const [firstSource, ...otherSources] = connectors.map((connector) =>
  z.object({
    ...dataSourceCommonShape,
    kind: z.literal(connector.kind),
    environments: environmentsOf(connectionInFileSchema(connector)),
    ...(connector.form.authAction ? { authAction: authActionSchema.optional() } : {}),
  }),
);

/** The API's data source input, write-only fields referenced (`passwordFromEnv`) instead of written. */
export const dataSourceInFileSchema = z.discriminatedUnion('kind', [
  firstSource!,
  ...otherSources,
]) as unknown as z.ZodDiscriminatedUnion<z.ZodObject[]> & z.ZodType<DataSourceInput>;
export type DataSourceInFile = DataSourceInput;

/** A project member: a user, named by e-mail address because user ids differ between installations. */
export const memberInFileSchema = memberByEmailInputSchema.meta({
  description:
    'A user (by e-mail address: ids differ between installations) and their direct role in the project.',
});

/** A user group's member: an e-mail address, or a principal id (`sa_…` for service accounts, which have none). */
const groupMemberSchema = z
  .union([memberByEmailInputSchema.shape.email, principalIdSchema])
  .meta({ description: "A user's e-mail address, or a principal id ('sa_…' for a service account)." });

/** The API's user group input, its members by e-mail address instead of user id. */
export const userGroupInFileSchema = userGroupInputSchema.extend({
  members: z
    .array(groupMemberSchema)
    .max(1000)
    .default([])
    .superRefine((members, context) => {
      const seen = new Set<string>();
      members.forEach((member, index) => {
        const key = member.toLowerCase();
        if (seen.has(key))
          context.addIssue({ code: 'custom', path: [index], message: `names member '${member}' twice` });
        seen.add(key);
      });
    })
    .meta({
      description:
        'Users by e-mail address (each must be a member of the project, or listed under members), or principal ids.',
    }),
});
export type UserGroupInFile = z.infer<typeof userGroupInFileSchema>;

/** The API's trust policy input, its id (optional in the API's body, which has it in the path) required. */
export const trustPolicyInFileSchema = trustPolicyInputSchema.extend({
  id: resourceIdSchema.meta({
    description: 'The policy id, unique within the project (the API takes it in the path).',
  }),
});
export type TrustPolicyInFile = z.infer<typeof trustPolicyInFileSchema>;

/**
 * A service account, named by `name` (ids differ between installations): the API's create input
 * (`name`, `description`, `role`), `disabled` from its update input, and its trust policies.
 */
export const serviceAccountInFileSchema = serviceAccountCreateSchema.extend({
  disabled: serviceAccountUpdateSchema.shape.disabled.meta({
    description: 'A disabled account cannot exchange tokens; disabling also revokes its tokens.',
  }),
  trustPolicies: z
    .array(trustPolicyInFileSchema)
    .default([])
    .superRefine((policies, context) => {
      const seen = new Set<string>();
      policies.forEach((policy, index) => {
        if (seen.has(policy.id))
          context.addIssue({
            code: 'custom',
            path: [index, 'id'],
            message: `names policy '${policy.id}' twice`,
          });
        seen.add(policy.id);
      });
    })
    .meta({ description: 'The external ID tokens the account accepts in the token exchange.' }),
});
export type ServiceAccountInFile = z.infer<typeof serviceAccountInFileSchema>;

/** Per environment id: view id → the version published there (docs/views.md). */
export const viewPublicationsSchema = z.record(
  resourceIdSchema,
  z.record(
    resourceIdSchema,
    z.number().int().min(1).meta({ description: "The view's version number published to this environment." }),
  ),
);

/** Per environment id: action id → the version published there. */
export const publicationsSchema = z.record(
  resourceIdSchema,
  z.record(
    resourceIdSchema,
    z
      .number()
      .int()
      .min(1)
      .meta({ description: "The action's version number published to this environment." }),
  ),
);

/**
 * A cron job, identified by (environment, name): the API's input with the action and the executor
 * named as in the file (`action`, a service account by `name`). The schedule and the time zone are
 * checked with the service's own rules while the file is read, so a bad cron expression is reported
 * at its place before anything is sent.
 */
export const cronJobInFileSchema = z
  .object({
    name: cronJobInputSchema.shape.name.meta({
      description: 'Unique within its environment: apply finds the job by (environment, name).',
    }),
    environment: resourceIdSchema.meta({ description: 'The environment id the job runs in.' }),
    schedule: scheduleSchema,
    timeZone: cronJobInputSchema.shape.timeZone.meta({
      description: `The IANA time zone the schedule is read in; ${defaultTimeZone} when left out.`,
    }),
    action: cronJobInputSchema.shape.actionId.meta({ description: 'The id of the action the job runs.' }),
    arguments: cronJobInputSchema.shape.arguments.meta({
      description: "The action's arguments: parameter name → value, checked as for an execution.",
    }),
    executor: z
      .object({
        serviceAccount: serviceAccountCreateSchema.shape.name.meta({
          description: 'The name of a service account of the project or of this file.',
        }),
      })
      .optional()
      .meta({
        description:
          'Who the job runs as. Left out: whoever applies (a new job), or the executor it has (a stored job).',
      }),
    state: cronJobInputSchema.shape.state.meta({
      description: 'running or stopped. Left out: a new job runs; a stored job keeps its state.',
    }),
    overlap: cronJobInputSchema.shape.overlap.meta({
      description: 'While the previous run still runs, a due run starts (allow, the default) or is skipped.',
    }),
  })
  .superRefine((job, context) => {
    const checks = [
      () => eventBridgeExpressions(job.schedule),
      () => assertTimeZone(job.timeZone ?? defaultTimeZone),
    ];
    for (const check of checks) {
      try {
        check();
      } catch (error) {
        if (!(error instanceof DoguError)) throw error;
        for (const { pointer, detail } of error.errors ?? [{ pointer: '', detail: error.message }])
          context.addIssue({ code: 'custom', path: [...pathOfPointer(pointer)], message: detail });
      }
    }
  });
export type CronJobInFile = z.infer<typeof cronJobInFileSchema>;

/** Per environment id, names to values (variables) or to where their value comes from (secrets). */
const perEnvironment = <T extends z.ZodType>(value: T) =>
  z.record(resourceIdSchema, z.record(nameSchema, value));

/** The item schema of each top-level key: what the unknown-field check walks, key by key. */
export const sectionSchemas = {
  variables: perEnvironment(variableValueSchema),
  secrets: perEnvironment(secretReferenceSchema),
  masterData: masterDataInputSchema,
  dataSources: dataSourceInFileSchema,
  actions: actionInputSchema,
  members: memberInFileSchema,
  userGroups: userGroupInFileSchema,
  serviceAccounts: serviceAccountInFileSchema,
  actionGroups: actionGroupInputSchema,
  views: viewInputSchema,
  publications: publicationsSchema,
  viewPublications: viewPublicationsSchema,
  cronJobs: cronJobInFileSchema,
  notifications: notificationsInFileSchema,
} as const;

export const configFileSchema = z
  .object({
    version: z.literal(configVersion, { error: `must be ${configVersion}, the version of this file format` }),
    project: resourceIdSchema.meta({ description: 'The project id; `dogu apply --project` overrides it.' }),
    variables: sectionSchemas.variables.default({}).meta({
      description: 'Per environment id: variable name → value (text), used as {{ vars.name }}.',
    }),
    secrets: sectionSchemas.secrets.default({}).meta({
      description: 'Per environment id: secret name → { fromEnv: ENV_VAR_NAME }, used as {{ secrets.name }}.',
    }),
    masterData: z
      .array(sectionSchemas.masterData)
      .default([])
      .meta({ description: 'Master data lists (values with labels) that parameters offer as choices.' }),
    dataSources: z.array(sectionSchemas.dataSources).default([]).meta({
      description: 'Data sources as the API takes them, SQL passwords as passwordFromEnv.',
    }),
    actions: z
      .array(sectionSchemas.actions)
      .default([])
      .meta({ description: 'Actions as the API takes them.' }),
    members: z.array(sectionSchemas.members).default([]).meta({
      description:
        'Users with a direct role in the project, by e-mail address. Apply adds and changes roles; it never removes anyone.',
    }),
    userGroups: z.array(sectionSchemas.userGroups).default([]).meta({
      description: 'User groups as the API takes them, members by e-mail address.',
    }),
    serviceAccounts: z.array(sectionSchemas.serviceAccounts).default([]).meta({
      description:
        'Service accounts by name, with their role and trust policies. Apply creates and updates; it never deletes an account or a policy.',
    }),
    actionGroups: z.array(sectionSchemas.actionGroups).default([]).meta({
      description: 'Action groups (actions shown on one screen, in order) as the API takes them.',
    }),
    views: z.array(sectionSchemas.views).default([]).meta({
      description:
        'Views (screens built from actions, docs/views.md) as the API takes them. Apply creates and updates; it never deletes one.',
    }),
    publications: sectionSchemas.publications.default({}).meta({
      description:
        "Per environment id: action id → the version published there. Version numbers belong to one project's history: see docs/config.md.",
    }),
    viewPublications: sectionSchemas.viewPublications.default({}).meta({
      description:
        "Per environment id: view id → the version shown there. Version numbers belong to one project's history, like publications.",
    }),
    cronJobs: z.array(sectionSchemas.cronJobs).default([]).meta({
      description:
        'Cron jobs by environment and name. Apply creates, updates, stops and resumes them; it never deletes one.',
    }),
    notifications: sectionSchemas.notifications.default({ targets: [], rules: [] }).meta({
      description:
        'Notification targets by name (secrets as …FromEnv), rules and the network policy. Apply creates and updates; it never deletes.',
    }),
  })
  .meta({
    title: 'Dogu configuration file',
    description:
      'Data sources, actions, variables, secrets, members, groups, service accounts, publications, cron jobs and notifications of one Dogu project, applied with `npx dogu apply -f FILE`. See docs/config.md.',
  });

export type ConfigFile = z.infer<typeof configFileSchema>;
export type SecretReference = z.infer<typeof secretReferenceSchema>;
