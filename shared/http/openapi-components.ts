/** Named schemas of the OpenAPI document that are not request schemas (those come from the domain). */
import * as z from 'zod';

const problemBase = z
  .object({
    type: z.string(),
    code: z.string(),
    status: z.number().int(),
    title: z.string(),
    detail: z.string().optional(),
    instance: z.string(),
    errors: z
      .array(z.object({ pointer: z.string(), detail: z.string(), ja: z.string().optional() }))
      .optional(),
  })
  // RFC 9457 extension members: a refusal may say more (e.g. `actions` using a data source).
  .catchall(z.unknown());

/** The token endpoint answers as OAuth does (RFC 6749 section 5.2), not with Problem Details. */
export const oauthError = z
  .object({ error: z.string(), error_description: z.string() })
  .meta({ id: 'OAuthError', description: 'RFC 6749 error response of the token endpoint' });

const labels = z.object({ en: z.string(), ja: z.string() }).meta({ id: 'Labels' });

const formField = z
  .object({
    name: z.string(),
    type: z.enum(['text', 'textarea', 'number', 'boolean', 'password', 'select', 'key-value-list', 'code']),
    label: labels,
    hint: labels.optional(),
    required: z.boolean().optional(),
    secret: z.boolean().optional(),
    options: z.array(z.string()).optional(),
    default: z.unknown().optional(),
    language: z.string().optional(),
    /** Chosen from the data source's catalog (GET …/environments/{environmentId}/catalog). */
    catalog: z.boolean().optional(),
  })
  .meta({ id: 'FormField', description: "One input of a kind's generated form" });

export const connectorKind = z
  .object({
    kind: z.string(),
    actionKind: z.string(),
    label: labels,
    secretFields: z.array(z.string()),
    authAction: z.boolean(),
    /** The kind connects with OAuth: the console shows Connect / Disconnect (decision 0041). */
    oauth: z.boolean(),
    dryRun: z.boolean(),
    /** The console offers Preview for data-changing actions (the execute API's `preview`; decision 0185). */
    preview: z.boolean(),
    connectionFields: z.array(formField),
    actionFields: z.array(formField),
    files: z.object({ name: z.string(), maxBytes: z.number().int(), pinField: z.string() }).nullable().meta({
      description: 'Files the kind keeps as versions per environment (gRPC: protosets); null when none',
    }),
  })
  .meta({ id: 'ConnectorKind', description: 'A data-source kind and its form descriptor' });

const mediaKind = z.enum(['image', 'video', 'pdf']).meta({ id: 'MediaKind' });

const column = z
  .object({
    name: z.string(),
    type: z.enum(['string', 'number', 'boolean', 'bigint', 'json']),
    media: mediaKind.optional(),
  })
  .meta({ id: 'ResultColumn' });

const previewRows = z
  .object({
    columns: z.array(column),
    rows: z.array(z.record(z.string(), z.unknown())),
    truncated: z.boolean().optional(),
  })
  .meta({ id: 'PreviewRows' });

export const statementPreview = z
  .object({
    rowsAffected: z.number().int().nullable().meta({
      description: 'Rows the statement inserted, updated or deleted; null where the database reports none',
    }),
    before: previewRows.optional().meta({ description: "The statement's previewSql just before it ran" }),
    after: previewRows
      .optional()
      .meta({ description: 'The same query just after it ran, before the rollback' }),
  })
  .meta({ id: 'StatementPreview', description: 'What the statement would do: run, then rolled back' });

export const statementResult = z
  .object({
    title: z.string(),
    status: z.enum(['succeeded', 'failed']),
    columns: z.array(column),
    rows: z.array(z.record(z.string(), z.unknown())),
    rowCount: z.number().int(),
    messages: z.array(z.string()),
    truncated: z.boolean().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    preview: statementPreview.optional().meta({
      description:
        'preview: true: what the statement would do (it ran in a transaction that was rolled back)',
    }),
    http: z
      .object({ status: z.number().int(), contentType: z.string().optional(), bytes: z.number().int() })
      .optional()
      .meta({ description: 'HTTP actions: the response status, media type and size' }),
    value: z.unknown().optional().meta({
      description: 'HTTP and JavaScript actions, transformers: the value itself (rows show it as a table)',
    }),
    logs: z
      .array(z.object({ level: z.enum(['log', 'info', 'warn', 'error', 'debug']), message: z.string() }))
      .optional()
      .meta({ description: 'JavaScript actions and transformers: what the script wrote with console.*' }),
    media: z
      .object({ kind: mediaKind, contentType: z.string(), base64: z.string() })
      .optional()
      .meta({ description: 'HTTP actions: a body that is an image, a video or a PDF' }),
    file: z
      .object({ name: z.string(), contentType: z.string(), base64: z.string() })
      .optional()
      .meta({ description: 'Object-storage downloads: an object that is neither media nor text' }),
  })
  .meta({ id: 'StatementResult' });

/** A recorded statement: what an execution keeps of each (rows are answered, never stored). */
const statementSummary = z
  .object({
    title: z.string(),
    status: z.enum(['succeeded', 'failed']),
    rowCount: z.number().int(),
    messages: z.array(z.string()),
  })
  .meta({ id: 'StatementSummary' });

const executionShape = {
  id: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'timed_out']),
  projectId: z.string(),
  environmentId: z.string(),
  actionId: z.string(),
  actionVersion: z.number().int(),
  executedBy: z.object({ kind: z.enum(['user', 'service_account']), id: z.string(), email: z.string() }),
  via: z
    .enum(['public_api', 'console', 'cron', 'batch', 'reservation', 'review', 'async_job', 'view'])
    .meta({ description: 'What started it' }),
  reviewId: z.string().optional().meta({ description: 'Run on approval of this review request' }),
  preview: z.literal(true).optional().meta({
    description: 'A preview: run in a transaction that was rolled back; not a run of the action',
  }),
  origin: z
    .object({
      cronJobId: z.string().optional(),
      scheduledAt: z.string().optional(),
      reservationId: z.string().optional(),
      batchId: z.string().optional(),
      row: z.number().int().optional(),
    })
    .optional()
    .meta({ description: 'The schedule, reservation or batch that started it' }),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  arguments: z.record(z.string(), z.unknown()),
  source: z
    .object({ viewId: z.string() })
    .optional()
    .meta({ description: 'Called from this view (docs/views.md)' }),
  parentExecutionId: z
    .string()
    .optional()
    .meta({ description: 'Run by actions.run inside this execution of a JavaScript action' }),
  nestedExecutionIds: z
    .array(z.string())
    .optional()
    .meta({ description: 'The runs this execution started with actions.run, in order' }),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  bridgeId: z
    .string()
    .optional()
    .meta({ description: 'The bridge the connection went through (docs/bridge.md)' }),
  payloads: z
    .object({
      arguments: z.object({ bytes: z.number().int(), stored: z.boolean() }).optional(),
      results: z.object({ bytes: z.number().int(), stored: z.boolean() }).optional(),
    })
    .optional()
    .meta({ description: 'Arguments or results too large to record or answer inline (UTF-8 bytes)' }),
  links: z.object({ arguments: z.string().optional(), results: z.string().optional() }).optional().meta({
    description: 'Where stored payloads are downloaded (GET, same authorisation as the execution)',
  }),
};

/** The answer to a run: each statement with its rows. */
export const execution = z
  .object({ ...executionShape, results: z.array(statementResult) })
  .meta({ id: 'Execution' });

/** A recorded execution read later: each statement summarised (rows are not stored), or with its rows kept elsewhere (links.results). */
export const recordedExecution = z
  .object({
    ...executionShape,
    results: z.array(z.union([statementResult, statementSummary])),
  })
  .meta({ id: 'RecordedExecution' });

/** Problem Details (RFC 9457); a failed run carries its recorded `execution`. */
export const problem = problemBase
  .extend({ execution: execution.optional().meta({ description: 'A failed run, recorded' }) })
  .meta({ id: 'Problem', description: 'RFC 9457 Problem Details' });

export const connectionTestResult = z
  .object({
    ok: z.boolean(),
    durationMs: z.number(),
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        hop: z
          .enum(['dogu_to_bridge', 'bridge', 'bridge_to_target', 'target'])
          .optional()
          .meta({ description: 'Through a bridge: the part of the way that failed (docs/bridge.md)' }),
      })
      .optional(),
  })
  .meta({ id: 'ConnectionTestResult' });

export const list = (item: z.ZodType) => z.object({ data: z.array(item) });

/** A bridge registered in a project's settings (docs/bridge.md). */
export const bridge = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    url: z.string(),
    certificates: z
      .array(z.string())
      .meta({ description: 'PEM certificates trusted for the bridge (pinned)' }),
    fingerprints: z.array(z.string()).meta({ description: 'SHA-256 fingerprint of each pinned certificate' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    rotatedAt: z.string().optional(),
    lastContactAt: z.string().nullable().meta({ description: 'When the bridge last answered a run or test' }),
    version: z.string().optional().meta({ description: 'The version the bridge reported' }),
    timeoutMs: z.number().int().optional().meta({ description: "The bridge's own per-request time-out" }),
  })
  .meta({ id: 'Bridge' });
