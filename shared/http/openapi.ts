/**
 * The OpenAPI 3.1 document of the deployed API, generated from the route table
 * and the same zod schemas that validate requests, so it cannot drift.
 */
import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { actionInputSchema, dataSourceInputSchema } from '../connectors/schemas.ts';
import { batchInputSchema } from '../domain/batch/batches.ts';
import {
  actionGroupInputSchema,
  actionGroupOrderSchema,
  memberByEmailInputSchema,
  memberRoleInputSchema,
  userGroupInputSchema,
} from '../domain/definitions/governance.ts';
import { masterDataInputSchema } from '../domain/definitions/master-data.ts';
import {
  serviceAccountCreateSchema,
  serviceAccountUpdateSchema,
  trustPolicyInputSchema,
} from '../domain/definitions/service-account.ts';
import {
  environmentInputSchema,
  projectInputSchema,
  projectSettingsSchema,
} from '../domain/manage/projects.ts';
import { cronJobInputSchema, schedulePreviewSchema } from '../domain/scheduling/cron-job-input.ts';
import { reservationInputSchema } from '../domain/scheduling/reservations.ts';
import { type Route, type RouteName, routes } from './routes.ts';

const problem = z
  .object({
    type: z.string(),
    code: z.string(),
    status: z.number().int(),
    title: z.string(),
    detail: z.string().optional(),
    instance: z.string(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 Problem Details' });

const column = z.object({
  name: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'bigint', 'json']),
  media: z.enum(['image', 'video', 'pdf']).optional(),
});
const statementResult = z.object({
  title: z.string(),
  status: z.enum(['succeeded', 'failed']),
  columns: z.array(column),
  rows: z.array(z.record(z.string(), z.unknown())),
  rowCount: z.number().int(),
  messages: z.array(z.string()),
  truncated: z.boolean().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
const execution = z
  .object({
    id: z.string(),
    status: z.enum(['running', 'succeeded', 'failed', 'timed_out']),
    projectId: z.string(),
    environmentId: z.string(),
    actionId: z.string(),
    actionVersion: z.number().int(),
    executedBy: z.object({ kind: z.enum(['user', 'service_account']), id: z.string(), email: z.string() }),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    arguments: z.record(z.string(), z.unknown()),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    results: z.array(statementResult),
  })
  .meta({ id: 'Execution' });

const dataSourceInput = dataSourceInputSchema.meta({ id: 'DataSourceInput' });
const actionInput = actionInputSchema.meta({ id: 'ActionInput' });
const valueBody = z.object({ value: z.string() }).meta({ id: 'ValueBody' });
const decisionBody = z.object({ comment: z.string().optional() });
const list = (item: z.ZodType) => z.object({ data: z.array(item) });

interface OperationSpec {
  summary: string;
  body?: z.ZodType;
  ok?: { status: '200' | '201' | '204'; schema?: z.ZodType };
  contentTypes?: Record<string, z.ZodType>;
}

const operations: Partial<Record<RouteName, OperationSpec>> = {
  health: {
    summary: 'Readiness check',
    ok: { status: '200', schema: z.object({ status: z.literal('ok') }) },
  },
  idpDiscovery: { summary: "OIDC discovery document of the service's own IdP", ok: { status: '200' } },
  idpJwks: { summary: "Public signing keys (JWKS) of the service's own IdP", ok: { status: '200' } },
  executeAction: {
    summary: 'Execute an action with arguments',
    body: z.object({ arguments: z.record(z.string(), z.unknown()).optional() }),
    ok: { status: '200', schema: execution },
  },
  getExecution: {
    summary: 'Read a recorded execution (rows are not stored)',
    ok: { status: '200', schema: execution },
  },
  whoAmI: { summary: 'The principal of the token', ok: { status: '200' } },
  loginConfig: { summary: 'Where the CLI logs in: the IdP issuer and its client id', ok: { status: '200' } },
  oidcLogin: {
    summary: 'Exchange an ID token of the configured IdP (CLI client) for a Dogu login token',
    body: z.object({ idToken: z.string() }),
    ok: { status: '200' },
  },
  consoleLogin: { summary: 'Console SSO: redirect to the IdP (authorization code + PKCE)' },
  consoleCallback: { summary: 'Console SSO: the redirect back from the IdP; sets the session cookie' },
  consoleSession: { summary: 'The console session: the user and the CSRF token', ok: { status: '200' } },
  consoleLogout: {
    summary: 'Console SSO: clear the session cookie (X-CSRF-Token required)',
    ok: { status: '204' },
  },
  exchangeToken: {
    summary: 'Exchange an external OIDC ID token for a service-account access token (RFC 8693)',
    body: z.object({
      grant_type: z.literal('urn:ietf:params:oauth:grant-type:token-exchange'),
      subject_token: z.string(),
      subject_token_type: z.literal('urn:ietf:params:oauth:token-type:jwt'),
      service_account_email: z.string().optional(),
    }),
    ok: {
      status: '200',
      schema: z.object({
        access_token: z.string(),
        issued_token_type: z.literal('urn:ietf:params:oauth:token-type:access_token'),
        token_type: z.literal('Bearer'),
        expires_in: z.number().int(),
      }),
    },
  },
  openApi: { summary: 'This document', ok: { status: '200' } },
  listDataSources: { summary: 'List data sources (passwords never returned)', ok: { status: '200' } },
  getDataSource: { summary: 'Read a data source', ok: { status: '200' } },
  putDataSource: {
    summary: 'Create or replace a data source (201 when created)',
    body: dataSourceInput,
    ok: { status: '200' },
  },
  deleteDataSource: { summary: 'Delete a data source no action uses', ok: { status: '204' } },
  testDataSourceConnection: {
    summary: "Try one environment's connection: ok and the time taken, or why it failed",
    ok: {
      status: '200',
      schema: z
        .object({
          ok: z.boolean(),
          durationMs: z.number(),
          error: z.object({ code: z.string(), message: z.string() }).optional(),
        })
        .meta({ id: 'ConnectionTestResult' }),
    },
  },
  listConnectorKinds: {
    summary: 'Every data-source kind with its form descriptor (en/ja labels, fields, secret fields)',
    ok: { status: '200' },
  },
  listActions: { summary: 'List actions', ok: { status: '200', schema: list(actionInput) } },
  getAction: { summary: 'Read an action (ETag carries the version)', ok: { status: '200' } },
  putAction: {
    summary: 'Create or replace an action; each save is a new version; If-Match guards concurrent edits',
    body: actionInput,
    ok: { status: '200' },
  },
  deleteAction: { summary: 'Delete an action', ok: { status: '204' } },
  listVariables: { summary: 'Variables of an environment', ok: { status: '200' } },
  getVariable: { summary: 'Read a variable', ok: { status: '200' } },
  putVariable: { summary: 'Set a variable', body: valueBody, ok: { status: '200' } },
  deleteVariable: { summary: 'Delete a variable', ok: { status: '204' } },
  listSecrets: { summary: 'Secret names and change times (values are write-only)', ok: { status: '200' } },
  getSecret: { summary: 'Secret metadata', ok: { status: '200' } },
  putSecret: { summary: 'Set a secret (stored encrypted)', body: valueBody, ok: { status: '200' } },
  deleteSecret: { summary: 'Delete a secret', ok: { status: '204' } },
  listProjects: { summary: "The caller's projects with the caller's role", ok: { status: '200' } },
  getProject: { summary: 'Read a project', ok: { status: '200' } },
  createProject: {
    summary: 'Create a project; the creator becomes its administrator',
    body: projectInputSchema,
    ok: { status: '201' },
  },
  putProjectSettings: {
    summary: 'Project settings: directIdTokens lets the public API accept external ID tokens as Bearer',
    body: projectSettingsSchema,
    ok: { status: '200' },
  },
  listEnvironments: { summary: 'Environments of a project', ok: { status: '200' } },
  createEnvironment: {
    summary: 'Create an environment',
    body: environmentInputSchema,
    ok: { status: '201' },
  },
  listMasterDataLists: { summary: 'List master data lists', ok: { status: '200' } },
  getMasterDataList: { summary: 'Read a master data list', ok: { status: '200' } },
  putMasterDataList: {
    summary: 'Create or replace a master data list',
    body: masterDataInputSchema,
    ok: { status: '200' },
  },
  deleteMasterDataList: { summary: 'Delete a master data list no action uses', ok: { status: '204' } },
  listActionVersions: {
    summary: 'Versions of an action (newest first) and its publications',
    ok: { status: '200' },
  },
  getActionVersion: { summary: 'One version of an action', ok: { status: '200' } },
  diffActionVersions: {
    summary: 'Field-level differences between two versions (?from=&to=)',
    ok: { status: '200' },
  },
  publishActionVersion: {
    summary: 'Publish a version to an environment (publishing an earlier one is a rollback)',
    body: z.object({ version: z.number().int().min(1) }),
    ok: { status: '200' },
  },
  unpublishActionVersion: {
    summary: 'The environment follows the latest version again',
    ok: { status: '204' },
  },
  copyAction: {
    summary: 'Copy an action into a new one (version 1)',
    body: z.object({ id: z.string(), name: z.string().optional() }),
    ok: { status: '201' },
  },
  listReviewRequests: { summary: 'Review requests (?status=&actionId=)', ok: { status: '200' } },
  getReviewRequest: { summary: 'Read a review request', ok: { status: '200' } },
  getPublicReviewRequest: {
    summary: 'Poll a review request created by an execution (202)',
    ok: { status: '200' },
  },
  approveReviewRequest: {
    summary: "Approve another user's request: runs the pinned version with its arguments once",
    body: decisionBody,
    ok: { status: '200' },
  },
  rejectReviewRequest: { summary: 'Reject a request', body: decisionBody, ok: { status: '200' } },
  cancelReviewRequest: { summary: 'Cancel your own pending request', ok: { status: '200' } },
  listMembers: { summary: 'Members with their direct and effective roles and groups', ok: { status: '200' } },
  getMember: { summary: 'One member', ok: { status: '200' } },
  putMember: {
    summary: 'Add a member or change the role (never removing the last admin)',
    body: memberRoleInputSchema,
  },
  addMemberByEmail: { summary: 'Add an existing user by e-mail address', body: memberByEmailInputSchema },
  deleteMember: { summary: 'Remove a member (and from every user group)', ok: { status: '204' } },
  listUserGroups: { summary: 'User groups', ok: { status: '200' } },
  getUserGroup: { summary: 'One user group', ok: { status: '200' } },
  putUserGroup: { summary: 'Create or replace a user group', body: userGroupInputSchema },
  deleteUserGroup: { summary: 'Delete a user group no action permission names', ok: { status: '204' } },
  listActionGroups: { summary: 'Action groups', ok: { status: '200' } },
  getActionGroup: {
    summary: 'An action group with its ordered actions and their parameters',
    ok: { status: '200' },
  },
  putActionGroup: { summary: 'Create or replace an action group', body: actionGroupInputSchema },
  reorderActionGroup: {
    summary: 'Reorder: a permutation of the current actions',
    body: actionGroupOrderSchema,
  },
  deleteActionGroup: { summary: 'Delete an action group', ok: { status: '204' } },
  // Service accounts and trust policies
  // Scheduling (docs/scheduling.md, docs/batch.md)
  listCronJobs: { summary: 'Cron jobs of the environment with their next two planned runs' },
  createCronJob: {
    summary: 'Create a cron job (running unless created stopped)',
    body: cronJobInputSchema,
    ok: { status: '201' },
  },
  previewCronSchedule: {
    summary: 'EventBridge expressions and next two runs of a schedule',
    body: schedulePreviewSchema,
  },
  getCronJob: { summary: 'A cron job with its next and second-next planned runs' },
  putCronJob: { summary: 'Change name, schedule, action, parameters or executor', body: cronJobInputSchema },
  deleteCronJob: { summary: 'Delete a cron job and its history (irreversible)', ok: { status: '204' } },
  stopCronJob: { summary: 'Stop: scheduled runs cease' },
  resumeCronJob: { summary: 'Resume: times missed while stopped are recorded as cancelled' },
  listCronRuns: { summary: 'Run history, newest first; filter by status and scheduled-time range' },
  retryCronRun: { summary: 'Run a past scheduled time again (a new attempt)' },
  listReservations: { summary: 'One-time scheduled executions of the environment' },
  createReservation: {
    summary: 'Reserve a one-time execution',
    body: reservationInputSchema,
    ok: { status: '201' },
  },
  getReservation: { summary: 'A reservation and its outcome' },
  cancelReservation: { summary: 'Cancel a reservation that has not run' },
  getBatchTemplate: { summary: 'CSV template for a batch: the first row names the parameters' },
  createBatch: {
    summary: 'Run an action with many argument sets (JSON rows or a text/csv body); 202',
    body: batchInputSchema,
  },
  listBatches: { summary: 'Batches of the environment with their progress' },
  getBatch: { summary: 'A batch with progress and the status of every row' },
  retryBatch: { summary: 'Run the failed rows of a finished batch again' },
  getBatchResults: { summary: 'Per-row results as a CSV download' },
  listServiceAccounts: { summary: 'Service accounts of the project with their direct roles' },
  createServiceAccount: {
    summary: 'Create a service account <name>@<projectId>.sa.dogu, a member when a role is given',
    body: serviceAccountCreateSchema,
    ok: { status: '201' },
  },
  getServiceAccount: { summary: 'One service account' },
  updateServiceAccount: {
    summary: 'Replace description and disabled (the name cannot change); disabling revokes tokens',
    body: serviceAccountUpdateSchema,
  },
  deleteServiceAccount: {
    summary: 'Delete a service account with its trust policies and memberships',
    ok: { status: '204' },
  },
  revokeServiceAccountTokens: { summary: 'Revoke every access token issued for the account so far' },
  listTrustPolicies: { summary: 'Trust policies of a service account, in matching order (oldest first)' },
  getTrustPolicy: { summary: 'One trust policy' },
  putTrustPolicy: {
    summary: 'Create or replace a trust policy (issuer, audience, bound claims); a change revokes its tokens',
    body: trustPolicyInputSchema,
  },
  deleteTrustPolicy: { summary: 'Delete a trust policy (its tokens stop working)', ok: { status: '204' } },
  listAuditLog: { summary: 'Audit entries, newest first (?actor=&event=&target=&from=&to=&limit=&cursor=)' },
  exportAuditLog: { summary: 'Download matching audit entries (?format=csv|json)' },
};

function operationOf(route: Route): ZodOpenApiOperationObject {
  const spec = operations[route.name as RouteName] ?? { summary: route.name };
  const names = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
  const ok = spec.ok ?? { status: '200' as const };
  const problemContent = { 'application/problem+json': { schema: problem } };
  return {
    operationId: route.name,
    summary: spec.summary,
    ...(route.auth === 'bearer' ? { security: [{ bearer: [] }] } : {}),
    ...(names.length > 0
      ? { requestParams: { path: z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) } }
      : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: spec.body } } } }
      : {}),
    responses: {
      [ok.status]: {
        description: ok.status === '204' ? 'Done' : 'Success',
        ...(ok.schema ? { content: { 'application/json': { schema: ok.schema } } } : {}),
      },
      default: { description: 'An error as Problem Details', content: problemContent },
    },
  };
}

export function openApiDocument() {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes as readonly Route[]) {
    if (route.path === '$default' || route.localOnly) continue;
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    paths[route.path] = { ...paths[route.path], [method]: operationOf(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Dogu API',
      version: '1.0.0',
      description:
        'Public API (/public/v1) and management API (/api/v1). Errors are RFC 9457 Problem Details.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  });
}
