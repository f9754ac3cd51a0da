/**
 * Schemas of answers (not requests) in the OpenAPI document: what the handlers send back, so a
 * client generated from the document can read them and a validator can check them
 * (test/local/api-contract.test.ts).
 */

import * as z from 'zod';
import { storedActionSchemaWith } from '../connectors/schemas.ts';
import { agentSettingsSchema } from '../domain/agents/agent-settings.ts';

const principalKind = z.enum(['user', 'service_account']);
const by = z.object({ id: z.string(), email: z.string() });

export const whoAmI = z
  .object({ kind: principalKind, id: z.string(), email: z.string(), name: z.string() })
  .meta({ id: 'Principal', description: 'Who the token or session stands for' });

export const project = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    directIdTokens: z.boolean().optional(),
    allowedHosts: z.array(z.string()).optional().meta({
      description: 'Hosts views may load media from and navigate to without asking (docs/views.md)',
    }),
    agents: agentSettingsSchema.optional().meta({
      description: 'What AI agents may see and do over MCP (docs/agents.md)',
    }),
  })
  .meta({ id: 'Project' });
export const projectWithRole = project
  .extend({ role: z.string().meta({ description: "The caller's direct role" }) })
  .meta({ id: 'ProjectWithRole' });
export const projectWithAccess = project
  .extend({
    access: z
      .object({
        role: z.string().meta({ description: 'The highest role held, directly or through user groups' }),
        roles: z.array(z.string()).meta({ description: 'Every role held, highest first' }),
        rights: z.array(z.string()).meta({ description: 'The union of the rights of those roles' }),
      })
      .meta({ description: 'What the caller may do in the project, as the endpoints decide it' }),
  })
  .meta({ id: 'ProjectWithAccess' });

export const environment = z
  .object({
    projectId: z.string(),
    id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    usageRestricted: z.boolean().optional(),
    protected: z.boolean().meta({
      description: 'Only published versions of actions and views run or show here',
    }),
  })
  .meta({ id: 'Environment' });

export const dataSource = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.string(),
    description: z.string().optional(),
    environments: z.record(z.string(), z.record(z.string(), z.unknown())).meta({
      description:
        "Each environment's connection settings as the kind describes them (GET /api/v1/connector-kinds), without secret values: `has<Field>` says whether one is stored",
    }),
    authAction: z
      .object({ actionId: z.string(), tokenPath: z.string().optional(), cacheSeconds: z.number().optional() })
      .optional(),
    projectId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    managedBy: z.literal('embedded-demo').optional(),
  })
  .meta({ id: 'DataSource', description: 'A data source as stored (secret fields never returned)' });

export const action = storedActionSchemaWith({
  projectId: z.string(),
  version: z.number().int().meta({ description: 'Increases by one on every save' }),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: by.optional(),
});

export const variable = z.object({ name: z.string(), value: z.string() }).meta({ id: 'Variable' });
export const secretMetadata = z
  .object({ name: z.string(), updatedAt: z.string().optional() })
  .meta({ id: 'SecretMetadata', description: 'A secret without its value (values are write-only)' });

export const auditEntry = z
  .object({
    id: z.string(),
    projectId: z.string(),
    at: z.string(),
    actor: z.object({
      kind: z.enum(['user', 'service_account', 'system', 'upload_token']),
      id: z.string(),
      email: z.string(),
    }),
    origin: z.object({ sourceIp: z.string(), userAgent: z.string() }).optional(),
    event: z.string().meta({ description: '`<resource>.<verb>`, e.g. action.update, execution.run' }),
    target: z.object({ type: z.string(), id: z.string() }),
    environmentId: z.string().optional(),
    outcome: z.enum(['succeeded', 'failed', 'refused']),
    details: z.record(z.string(), z.unknown()).optional(),
    chain: z.object({ seq: z.number().int(), prevHash: z.string(), hash: z.string() }).optional().meta({
      description: 'Its link in the project hash chain (docs/governance.md); absent before the chain began',
    }),
  })
  .meta({ id: 'AuditEntry' });
export const auditPage = z
  .object({ data: z.array(auditEntry), has_more: z.boolean(), next_cursor: z.string().optional() })
  .meta({ id: 'AuditPage' });
const chainHead = z
  .object({
    projectId: z.string(),
    seq: z.number().int(),
    hash: z.string(),
    entryId: z.string(),
    at: z.string(),
  })
  .meta({ id: 'AuditChainHead' });
export const auditChainPage = z
  .object({
    data: z.array(auditEntry),
    has_more: z.boolean(),
    next_cursor: z.string().optional(),
    head: chainHead.optional(),
  })
  .meta({ id: 'AuditChainPage' });
export const auditVerification = z
  .object({
    ok: z.boolean(),
    checked: z.number().int(),
    unchained: z.number().int(),
    last: z.object({ seq: z.number().int(), entryId: z.string(), hash: z.string() }).optional(),
    problem: z
      .object({
        kind: z.enum(['changed', 'removed', 'inserted']),
        seq: z.number().int().optional(),
        entryId: z.string().optional(),
        message: z.string(),
      })
      .optional(),
    head: chainHead.optional(),
  })
  .meta({ id: 'AuditVerification' });

export const member = z
  .object({
    principalId: z.string(),
    kind: principalKind,
    email: z.string().optional(),
    name: z.string().optional(),
    role: z.string().optional(),
    groups: z.array(z.object({ id: z.string(), name: z.string(), role: z.string().optional() })),
    effectiveRole: z.string().optional(),
  })
  .meta({ id: 'Member' });

export const schedulePreview = z
  .object({ expressions: z.array(z.string()), nextRuns: z.array(z.string()) })
  .meta({ id: 'SchedulePreview' });

/** A whole JSON document whose own shape is described elsewhere (this document, OIDC discovery). */
export const jsonDocument = z.record(z.string(), z.unknown());

/**
 * Answers described by the members every one has; `additionalProperties` is open, as each may
 * carry more (progress, outcomes, links) that clients can read as they come.
 */
const atLeast = <T extends z.ZodRawShape>(id: string, shape: T, description?: string) =>
  z
    .object(shape)
    .catchall(z.unknown())
    .meta({ id, ...(description ? { description } : {}) });

export const actionVersion = atLeast('ActionVersion', {
  projectId: z.string(),
  actionId: z.string(),
  version: z.number().int(),
  definition: z.record(z.string(), z.unknown()),
  author: by,
  createdAt: z.string(),
});
export const actionVersionList = atLeast('ActionVersionList', {
  latest: z.number().int(),
  versions: z.array(actionVersion),
});
export const viewSummary = atLeast('ViewSummary', {
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
});
export const view = atLeast('View', {
  id: z.string(),
  name: z.string(),
  definition: z.record(z.string(), z.unknown()),
});
const previewRows = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() }).catchall(z.unknown())),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean().optional(),
});
const reviewPreview = z
  .object({
    takenAt: z.string(),
    executionId: z.string().optional(),
    statements: z
      .array(
        z.object({
          title: z.string(),
          status: z.enum(['succeeded', 'failed']),
          rowsAffected: z.number().int().nullable(),
          returned: previewRows.optional(),
          before: previewRows.optional(),
          after: previewRows.optional(),
          error: z.object({ code: z.string(), message: z.string() }).optional(),
        }),
      )
      .optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    rowsLeftOut: z.boolean().optional(),
  })
  .meta({ id: 'ReviewPreview', description: 'What the write would do, run and rolled back (decision 0185)' });

export const reviewRequest = atLeast('ReviewRequest', {
  id: z.string(),
  actionId: z.string(),
  status: z.string(),
  preview: reviewPreview.optional().meta({ description: 'Taken when the request was made' }),
  previewAtApproval: reviewPreview.optional().meta({ description: 'Taken again when it was approved' }),
  agent: z.object({ client: z.string() }).optional().meta({
    description: "Proposed by an AI agent over MCP: the client's self-declared name (docs/agents.md)",
  }),
});
export const actionGroup = atLeast('ActionGroup', { id: z.string(), name: z.string() });
export const cronJob = atLeast('CronJob', {
  id: z.string(),
  projectId: z.string(),
  environmentId: z.string(),
  name: z.string(),
  schedule: z.record(z.string(), z.unknown()),
  timeZone: z.string(),
  actionId: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
export const reservation = atLeast('Reservation', {
  id: z.string(),
  projectId: z.string(),
  environmentId: z.string(),
  actionId: z.string(),
  runAt: z.string(),
  status: z.string(),
});
export const batch = atLeast('Batch', {
  id: z.string(),
  projectId: z.string(),
  environmentId: z.string(),
  actionId: z.string(),
  status: z.string(),
});
export const serviceAccount = atLeast('ServiceAccount', {
  id: z.string(),
  email: z.string(),
  name: z.string(),
});
export const notificationSettings = atLeast('NotificationSettings', {
  allowPrivateNetworks: z.boolean(),
  targets: z.array(z.record(z.string(), z.unknown())),
  rules: z.array(z.record(z.string(), z.unknown())),
});
export const batchDetail = atLeast(
  'BatchDetail',
  { batch },
  'A batch with its progress and the status of every row',
);
