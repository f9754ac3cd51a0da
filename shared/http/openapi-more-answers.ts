/**
 * Answer schemas of the operations beyond a newcomer's first tasks (versions, reviews, groups,
 * service accounts, scheduling, notifications, accounts): checked against real answers by
 * test/local/api-contract.test.ts. Like openapi-answers.ts, "at least these members" where an
 * answer carries progress or outcomes that grow.
 */
import * as z from 'zod';
import {
  action,
  cronJob,
  member,
  reservation,
  reviewRequest,
  serviceAccount,
  view,
} from './openapi-answers.ts';
import { execution } from './openapi-components.ts';

const by = z.object({ id: z.string(), email: z.string() });
const atLeast = <T extends z.ZodRawShape>(id: string, shape: T, description?: string) =>
  z
    .object(shape)
    .catchall(z.unknown())
    .meta({ id, ...(description ? { description } : {}) });
const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
const page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), has_more: z.boolean(), next_cursor: z.string().optional() });

export const masterDataList = z
  .object({
    id: z.string(),
    name: z.string(),
    entries: z.array(z.object({ value: z.string(), label: z.string() })),
    projectId: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'MasterDataList' });
export const masterDataLists = listOf(masterDataList);

export const actionDiff = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    changes: z.array(
      z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }),
    ),
  })
  .meta({ id: 'ActionDiff' });

const publication = (subject: 'actionId' | 'viewId', id: string) =>
  z
    .object({
      projectId: z.string(),
      [subject]: z.string(),
      environmentId: z.string(),
      version: z.number().int(),
      publishedBy: by,
      publishedAt: z.string(),
      previousVersion: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'The version published before (null: the environment followed the latest)' }),
    })
    .meta({ id });
export const actionPublication = publication('actionId', 'ActionPublication');
export const viewPublication = publication('viewId', 'ViewPublication');
export const copiedAction = action;

export const viewVersion = atLeast('ViewVersion', {
  projectId: z.string(),
  viewId: z.string(),
  version: z.number().int(),
  definition: z.record(z.string(), z.unknown()),
});
export const viewVersionList = atLeast('ViewVersionList', {
  latest: z.number().int(),
  versions: z.array(viewVersion),
});
export const savedView = view;
export const environmentView = atLeast(
  'EnvironmentView',
  {
    view: z.object({ id: z.string(), name: z.string(), description: z.string().optional() }),
    environmentId: z.string(),
    version: z.number().int(),
    latestVersion: z.number().int(),
    published: z.boolean(),
    definition: z.record(z.string(), z.unknown()),
    allowedHosts: z.array(z.string()).meta({
      description:
        "The project's allowed hosts: the view loads media from and navigates to these without asking",
    }),
  },
  'The version of the view the environment shows (a code view with its compiled module)',
);

export const approvedReview = atLeast(
  'ApprovedReview',
  { reviewRequest, execution: execution.optional() },
  'The decided request and, when it ran, the execution',
);
export const decidedReview = reviewRequest;

export const memberAnswer = member;
export const userGroup = atLeast('UserGroup', {
  id: z.string(),
  name: z.string(),
  members: z.array(z.string()),
  projectId: z.string(),
  version: z.number().int(),
});
export const userGroups = listOf(userGroup);
export const actionGroupDetail = atLeast(
  'ActionGroupDetail',
  {
    id: z.string(),
    name: z.string(),
    actionIds: z.array(z.string()),
    version: z.number().int(),
    missingActionIds: z.array(z.string()),
    actions: z.array(
      z
        .object({ id: z.string(), name: z.string(), kind: z.string(), parameters: z.array(z.unknown()) })
        .catchall(z.unknown()),
    ),
  },
  'An action group with its ordered actions and their parameters',
);

export const serviceAccountAnswer = serviceAccount;
export const trustPolicy = atLeast('TrustPolicy', {
  projectId: z.string(),
  serviceAccountId: z.string(),
  id: z.string(),
  issuer: z.string(),
  audience: z.string(),
  boundClaims: z.array(z.object({ key: z.string(), pattern: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const trustPolicies = listOf(trustPolicy);

export const cronJobAnswer = cronJob;
export const cronRun = atLeast('CronRun', {
  jobId: z.string(),
  projectId: z.string(),
  environmentId: z.string(),
  scheduledAt: z.string(),
  attempt: z.number().int(),
  status: z.string(),
});
export const cronRuns = z
  .object({
    data: z.array(cronRun),
    cursor: z.string().optional().meta({ description: "The next page's cursor" }),
  })
  .meta({ id: 'CronRunPage' });
export const reservationAnswer = reservation;
export const batchRetry = atLeast('BatchRetry', {
  batch: z.record(z.string(), z.unknown()),
  retried: z.number().int().meta({ description: 'How many failed rows run again' }),
});

export const notificationTarget = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['webhook', 'slack', 'email']),
    url: z.string().optional(),
    urlHost: z.string().optional(),
    hasSecret: z.boolean(),
    to: z.array(z.string()).optional(),
    from: z.string().optional(),
    smtp: z
      .object({
        host: z.string(),
        port: z.number().int(),
        secure: z.boolean(),
        username: z.string().optional(),
        hasPassword: z.boolean(),
      })
      .optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'NotificationTarget', description: 'A target: never a secret, only whether one is set' });
export const notificationRule = z
  .object({
    id: z.string(),
    subject: z.object({ kind: z.enum(['action', 'cron_job', 'batch']), id: z.string() }),
    events: z.array(z.string()),
    targetIds: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'NotificationRule' });
export const notificationDelivery = atLeast('NotificationDelivery', {
  id: z.string(),
  targetId: z.string(),
  targetName: z.string(),
  targetKind: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'sending', 'succeeded', 'failed']),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      at: z.string(),
      durationMs: z.number(),
      statusCode: z.number().int().optional(),
      error: z.string().optional(),
    }),
  ),
});
export const notificationDeliveries = page(notificationDelivery);

export const auditExport = z
  .object({ data: z.array(z.record(z.string(), z.unknown())) })
  .meta({ description: 'format=json: the matching entries, flat (the CSV columns as members)' });
export const accountAuditPage = page(z.record(z.string(), z.unknown()));
export const loginTokenAnswer = z.object({
  token: z.string(),
  tokenType: z.literal('Bearer'),
  email: z.string(),
  expiresAt: z.number().int(),
});
export const consoleSessionAnswer = z.object({
  user: z.object({ kind: z.literal('user'), id: z.string(), email: z.string(), name: z.string() }),
  csrfToken: z.string(),
  expiresAt: z.number().int(),
});
export const storedPayload = z
  .unknown()
  .meta({ description: 'The stored JSON payload itself (the arguments object, or the results)' });
export const jsonLinesText = z
  .string()
  .meta({ description: 'JSON Lines: one stored entry (with its chain link) per line' });
export const csvText = z.string().meta({ description: 'CSV (RFC 4180), a header row first' });
