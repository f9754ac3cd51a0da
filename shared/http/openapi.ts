/**
 * The OpenAPI 3.1 document of the deployed API, generated from the route table
 * and the same zod schemas that validate requests, so it cannot drift.
 */
import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { actionInputSchema, dataSourceInputSchema } from '../connectors/schemas.ts';
import { batchInputSchema } from '../domain/batch/batches.ts';
import { bridgeInputSchema } from '../domain/bridges/model.ts';
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
import { viewInputSchema } from '../domain/definitions/view.ts';
import {
  environmentChangeSchema,
  environmentInputSchema,
  projectInputSchema,
  projectSettingsSchema,
} from '../domain/manage/projects.ts';
import { networkPolicySchema, ruleInputSchema, targetInputSchema } from '../domain/notifications/input.ts';
import { cronJobInputSchema, schedulePreviewSchema } from '../domain/scheduling/cron-job-input.ts';
import { reservationInputSchema } from '../domain/scheduling/reservations.ts';
import { accountOperations } from './openapi-accounts.ts';
import {
  action,
  actionGroup,
  actionVersion,
  actionVersionList,
  auditChainPage,
  auditPage,
  auditVerification,
  batch,
  batchDetail,
  cronJob,
  dataSource,
  environment,
  jsonDocument,
  member,
  notificationSettings,
  project,
  projectWithAccess,
  projectWithRole,
  reservation,
  reviewRequest,
  schedulePreview,
  secretMetadata,
  serviceAccount,
  variable,
  view,
  viewSummary,
  whoAmI,
} from './openapi-answers.ts';
import {
  bridge,
  connectionTestResult,
  connectorKind,
  execution,
  list,
  oauthError,
  problem,
  recordedExecution,
} from './openapi-components.ts';
import { errorResponsesOf } from './openapi-errors.ts';
import { mcpOAuthOperations } from './openapi-mcp-oauth.ts';
import * as more from './openapi-more-answers.ts';
import type { OperationSpec } from './openapi-spec.ts';
import { type Route, type RouteName, routes } from './routes.ts';

const dataSourceInput = dataSourceInputSchema.meta({ id: 'DataSourceInput' });
const actionInput = actionInputSchema.meta({ id: 'ActionInput' });
const valueBody = z.object({ value: z.string() }).meta({ id: 'ValueBody' });
const decisionBody = z.object({ comment: z.string().optional() });

const fileVersion = z
  .object({
    id: z.string(),
    dataSourceId: z.string(),
    environmentId: z.string(),
    fileKind: z.string().meta({ description: 'What the file is, e.g. protoset' }),
    name: z.string().nullable(),
    uploadedAt: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    description: z
      .record(z.string(), z.unknown())
      .meta({ description: "What the kind found in the file (a protoset's services)" }),
    uploadedBy: z.object({
      kind: z.enum(['user', 'service_account', 'upload_token']),
      id: z.string(),
      email: z.string().optional(),
      name: z.string().optional(),
    }),
  })
  .meta({ id: 'FileVersion' });
const uploadTokenView = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the token, to tell tokens apart' }),
    createdAt: z.string(),
    createdBy: z.object({ id: z.string(), email: z.string() }),
    rotatedAt: z.string().optional(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'UploadToken' });
const newUploadToken = uploadTokenView
  .extend({ token: z.string().meta({ description: 'Shown only in this answer; stored hashed' }) })
  .meta({ id: 'NewUploadToken' });
const fileRouteErrors = {
  '403': 'The caller may not manage data sources',
  '404': 'No such project, data source, environment or version',
};

const operations: Partial<Record<RouteName, OperationSpec>> = {
  health: {
    summary: 'Readiness check',
    ok: { status: '200', schema: z.object({ status: z.literal('ok') }) },
  },
  idpDiscovery: {
    summary: "OIDC discovery document of the service's own IdP",
    ok: {
      status: '200',
      schema: jsonDocument.meta({ description: 'OpenID Connect Discovery 1.0 metadata' }),
    },
  },
  idpJwks: {
    summary: "Public signing keys (JWKS) of the service's own IdP",
    ok: { status: '200', schema: jsonDocument.meta({ description: 'A JSON Web Key Set (RFC 7517)' }) },
  },
  executeAction: {
    summary: 'Execute an action with arguments',
    body: z.object({
      arguments: z.record(z.string(), z.unknown()).optional(),
      /** Estimate only (kinds whose descriptor says `dryRun`, e.g. BigQuery's bytes); others: 422. */
      dryRun: z.boolean().optional(),
      /**
       * Run in a transaction that is always rolled back: per statement the rows affected, RETURNING
       * rows and previewSql before/after (PostgreSQL, MySQL/MariaDB); refusals: 422 (decision 0185).
       */
      preview: z.boolean().optional(),
      /** Called from a view: recorded with the execution and its audit entry; grants nothing. */
      source: z.object({ viewId: z.string() }).optional(),
      /** Run as a job (spec 8: up to 30 minutes): answered 202 with the queued execution. */
      async: z.boolean().optional(),
      /** A job's own limit in seconds (1–1800); on AWS above 870 it runs on CodeBuild (docs/deploy.md). */
      timeLimitSeconds: z.number().int().min(1).max(1800).optional(),
    }),
    ok: { status: '200', schema: execution },
    also: [
      {
        status: '202',
        description:
          'Run as a job (async: true): the queued execution; or, for an action that needs a review, the review request created',
        schema: z.union([
          z.object({ execution, links: z.object({ self: z.string() }) }),
          z.object({
            reviewRequest: z
              .record(z.string(), z.unknown())
              .meta({ description: 'The review request (GET links.self)' }),
            links: z.object({ self: z.string() }),
          }),
        ]),
      },
    ],
  },
  getExecution: {
    summary: 'Read a recorded execution (rows are not stored)',
    ok: { status: '200', schema: recordedExecution },
  },
  getExecutionPayload: {
    summary:
      "A stored payload of an execution ('arguments' or 'results', JSON): 200 with it, or 303 to a short-lived download URL",
    ok: { status: '200', schema: more.storedPayload },
  },
  whoAmI: { summary: 'The principal of the token', ok: { status: '200', schema: whoAmI } },
  loginConfig: {
    summary: 'Where the CLI logs in: the IdP issuer and its client id',
    ok: {
      status: '200',
      schema: z.object({
        issuer: z.string(),
        clientId: z.string(),
        deviceAuthorization: z.boolean().optional(),
      }),
    },
  },
  oidcLogin: {
    summary: 'Exchange an ID token of the configured IdP (CLI client) for a Dogu login token',
    body: z.object({ idToken: z.string() }),
    ok: { status: '200', schema: more.loginTokenAnswer },
  },
  consoleLogin: {
    summary: 'Console SSO: redirect to the IdP (authorization code + PKCE)',
    ok: { status: '302' },
  },
  consoleCallback: {
    summary: 'Console SSO: the redirect back from the IdP; sets the session cookie',
    ok: { status: '302' },
  },
  consoleSession: {
    summary: 'The console session: the user and the CSRF token',
    ok: { status: '200', schema: more.consoleSessionAnswer },
  },
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
  openApi: {
    summary: 'This document',
    ok: { status: '200', schema: jsonDocument.meta({ description: 'This OpenAPI 3.1 document' }) },
  },
  listDataSources: {
    summary: 'List data sources (passwords never returned)',
    ok: { status: '200', schema: list(dataSource) },
  },
  getDataSource: { summary: 'Read a data source', ok: { status: '200', schema: dataSource } },
  putDataSource: {
    summary: 'Create or replace a data source (201 when created)',
    body: dataSourceInput,
    ok: { status: '200', schema: dataSource },
    also: [{ status: '201', description: 'Created', schema: dataSource }],
  },
  deleteDataSource: { summary: 'Delete a data source no action uses', ok: { status: '204' } },
  testDataSourceConnection: {
    summary:
      "Try one environment's connection: ok and the time taken, or why it failed. Without a body the saved settings; with {kind, connection} the form's settings before they are saved (secret fields left out: the stored ones)",
    body: z
      .object({ kind: z.string(), connection: z.record(z.string(), z.unknown()) })
      .meta({ id: 'ConnectionDraft' }),
    bodyOptional: true,
    ok: { status: '200', schema: connectionTestResult },
  },
  startDataSourceOAuth: {
    summary:
      'Connect (kinds that connect with OAuth): the provider URL to send the browser to (authorization code + PKCE, state bound to the caller)',
    ok: { status: '200', schema: z.object({ authorizationUrl: z.string() }) },
    errors: {
      ...fileRouteErrors,
      '400': 'The kind does not connect with OAuth',
      '422': 'The OAuth client ID or secret of the environment is not set',
    },
  },
  disconnectDataSourceOAuth: {
    summary: "Disconnect: revoke the environment's refresh token at the provider and forget it",
    ok: { status: '204' },
    errors: {
      ...fileRouteErrors,
      '400': 'The kind does not connect with OAuth',
      '409': 'The environment is not connected',
      '422': 'The provider did not revoke the token',
    },
  },
  completeDataSourceOAuth: {
    summary:
      "The provider's redirect back (?code&state or ?error&state): keeps the refresh token encrypted, then redirects to the console's data-source page (?oauth=connected or ?oauthError=…)",
    ok: { status: '302' },
    errors: {
      '400': 'The state is missing, expired or was issued to another session',
      '403': 'The caller may not manage data sources',
    },
  },
  listFileVersions: {
    summary:
      "A data source environment's uploaded file versions (newest first), the pinned and the active one",
    ok: {
      status: '200',
      schema: z
        .object({
          fileKind: z.object({ name: z.string(), maxBytes: z.number().int(), pinField: z.string() }),
          pinnedVersionId: z.string().nullable(),
          activeVersionId: z.string().nullable(),
          data: z.array(fileVersion),
        })
        .meta({ id: 'FileVersionList' }),
    },
    errors: { ...fileRouteErrors, '422': 'The kind of the data source keeps no files' },
  },
  uploadFileVersion: {
    summary:
      'Upload a file version from the console (JSON, the file base64-encoded); parsed before it is kept',
    body: z.object({ name: z.string().nullish(), contentBase64: z.string() }),
    ok: { status: '201', schema: fileVersion },
    errors: {
      ...fileRouteErrors,
      '413': "The file is over the kind's size limit",
      '415': 'The body is not application/json',
      '422': 'Empty or corrupt file, bad name, or a kind that keeps no files',
    },
  },
  deleteFileVersion: {
    summary: 'Delete a file version (not the pinned one)',
    ok: { status: '204' },
    errors: { ...fileRouteErrors, '409': 'The version is pinned' },
  },
  pinFileVersion: {
    summary: 'Pin a version for the environment (versionId), or follow the latest (null)',
    body: z.object({ versionId: z.string().nullable() }),
    ok: { status: '200', schema: z.object({ pinnedVersionId: z.string().nullable() }) },
    errors: { ...fileRouteErrors, '422': 'Bad body, or a kind that keeps no files' },
  },
  listUploadTokens: {
    summary: "The project's upload tokens (never the token itself)",
    ok: { status: '200', schema: list(uploadTokenView) },
    errors: { '403': 'The caller may not manage the project', '404': 'No such project' },
  },
  createUploadToken: {
    summary: 'Create an upload token; the token is in this answer only',
    body: z.object({ name: z.string() }),
    ok: { status: '201', schema: newUploadToken },
    errors: { '403': 'The caller may not manage the project', '404': 'No such project', '422': 'Bad name' },
  },
  rotateUploadToken: {
    summary: 'Give an upload token a new value (the old one stops working); shown in this answer only',
    ok: { status: '200', schema: newUploadToken },
    errors: { '403': 'The caller may not manage the project', '404': 'No such project or token' },
  },
  listBridges: {
    summary: "The project's bridges: address, pinned certificates, last contact and version",
    ok: { status: '200', schema: list(bridge) },
    errors: { '403': 'The caller may not view the project', '404': 'No such project' },
  },
  putBridge: {
    summary: 'Register a bridge, or change its address or pinned certificates (rotation)',
    body: bridgeInputSchema,
    ok: { status: '200', schema: bridge },
    also: [{ status: '201', description: 'Registered', schema: bridge }],
    errors: {
      '403': 'The caller may not manage the project',
      '404': 'No such project',
      '409': 'The project has its maximum of bridges',
      '422': 'Bad address or certificate',
    },
  },
  deleteBridge: {
    summary: 'Remove a bridge no data source environment goes through',
    ok: { status: '204' },
    errors: {
      '403': 'The caller may not manage the project',
      '404': 'No such project or bridge',
      '409': 'Data sources still go through it',
    },
  },
  revokeUploadToken: {
    summary: 'Revoke an upload token',
    ok: { status: '204' },
    errors: { '403': 'The caller may not manage the project', '404': 'No such project or token' },
  },
  uploadProtoset: {
    summary: "Upload a protoset version for a gRPC data source environment of the token's project (spec 4.3)",
    uploadToken: true,
    multipart: z.object({
      params: z.string().meta({
        description:
          'JSON: {"environmentId": string, "resourceId": string (data source id), "name"?: string}',
      }),
      file: z
        .string()
        .meta({ format: 'binary', description: 'The protoset (FileDescriptorSet, with imports)' }),
    }),
    ok: {
      status: '201',
      schema: z
        .object({
          versionId: z.string(),
          name: z.string().nullable(),
          dataSourceId: z.string(),
          environmentId: z.string(),
          uploadedAt: z.string(),
          size: z.number().int(),
          sha256: z.string(),
        })
        .catchall(z.unknown())
        .meta({ description: "Also what the kind found in the file, e.g. a protoset's services" }),
    },
    errors: {
      '400': 'Malformed multipart body, or a missing file part',
      '401': 'Missing, unknown, rotated or revoked upload token',
      '404': "No such data source or environment in the token's project",
      '413': "The file is over the kind's size limit",
      '415': 'The body is not multipart/form-data',
      '422': 'Bad params, empty or corrupt file, or a data source kind that keeps no files',
    },
  },
  getDataSourceCatalog: {
    summary:
      'What actions of the data source can call in one environment (gRPC: unary methods with request templates); 400 for a kind without a catalog, 422 when the data source cannot be asked',
    ok: {
      status: '200',
      schema: z
        .object({
          entries: z.array(
            z.object({
              id: z.string(),
              label: z.string(),
              description: z.string().optional(),
              fill: z.record(z.string(), z.unknown()),
            }),
          ),
        })
        .meta({ id: 'DataSourceCatalog' }),
    },
  },
  listConnectorKinds: {
    summary: 'Every data-source kind with its form descriptor (en/ja labels, fields, secret fields)',
    ok: { status: '200', schema: list(connectorKind) },
  },
  listActions: { summary: 'List actions', ok: { status: '200', schema: list(action) } },
  getAction: { summary: 'Read an action (ETag carries the version)', ok: { status: '200', schema: action } },
  putAction: {
    summary: 'Create or replace an action; each save is a new version; If-Match guards concurrent edits',
    body: actionInput,
    ok: { status: '200', schema: action },
    also: [{ status: '201', description: 'Created (version 1)', schema: action }],
  },
  deleteAction: { summary: 'Delete an action', ok: { status: '204' } },
  listVariables: { summary: 'Variables of an environment', ok: { status: '200', schema: list(variable) } },
  getVariable: { summary: 'Read a variable', ok: { status: '200', schema: variable } },
  putVariable: {
    summary: 'Set a variable (201 when created)',
    body: valueBody,
    ok: { status: '200', schema: variable },
    also: [{ status: '201', description: 'Created', schema: variable }],
  },
  deleteVariable: { summary: 'Delete a variable', ok: { status: '204' } },
  listSecrets: {
    summary: 'Secret names and change times (values are write-only)',
    ok: { status: '200', schema: list(secretMetadata) },
  },
  getSecret: { summary: 'Secret metadata', ok: { status: '200', schema: secretMetadata } },
  putSecret: {
    summary: 'Set a secret (stored encrypted; 201 when created)',
    body: valueBody,
    ok: { status: '200', schema: secretMetadata },
    also: [{ status: '201', description: 'Created', schema: secretMetadata }],
  },
  deleteSecret: { summary: 'Delete a secret', ok: { status: '204' } },
  listProjects: {
    summary: "The caller's projects with the caller's role",
    ok: { status: '200', schema: list(projectWithRole) },
  },
  getProject: {
    summary: "Read a project, with the caller's roles and rights in it (user groups included)",
    ok: { status: '200', schema: projectWithAccess },
  },
  createProject: {
    summary: 'Create a project; the creator becomes its administrator',
    body: projectInputSchema,
    ok: { status: '201', schema: project },
  },
  putProjectSettings: {
    summary:
      'Project settings: directIdTokens (the public API accepts external ID tokens as Bearer), allowedHosts (what views load and open without asking), agents (what AI agents may see and do over MCP)',
    body: projectSettingsSchema,
    ok: { status: '200', schema: project },
  },
  listEnvironments: {
    summary: 'Environments of a project',
    ok: { status: '200', schema: list(environment) },
  },
  createEnvironment: {
    summary: 'Create an environment',
    body: environmentInputSchema,
    ok: { status: '201', schema: environment },
  },
  updateEnvironment: {
    summary:
      'Rename an environment or change its settings: protected (only published versions run), usageRestricted',
    body: environmentChangeSchema,
    ok: { status: '200', schema: environment },
  },
  listMasterDataLists: {
    summary: 'List master data lists',
    ok: { status: '200', schema: more.masterDataLists },
  },
  getMasterDataList: {
    summary: 'Read a master data list',
    ok: { status: '200', schema: more.masterDataList },
  },
  putMasterDataList: {
    summary: 'Create or replace a master data list (201 when created)',
    body: masterDataInputSchema,
    ok: { status: '200', schema: more.masterDataList },
    also: [{ status: '201', description: 'Created', schema: more.masterDataList }],
  },
  deleteMasterDataList: { summary: 'Delete a master data list no action uses', ok: { status: '204' } },
  listActionVersions: {
    summary: 'Versions of an action (newest first) and its publications',
    ok: { status: '200', schema: actionVersionList },
  },
  getActionVersion: { summary: 'One version of an action', ok: { status: '200', schema: actionVersion } },
  diffActionVersions: {
    summary: 'Field-level differences between two versions (?from=&to=)',
    ok: { status: '200', schema: more.actionDiff },
  },
  publishActionVersion: {
    summary: 'Publish a version to an environment (publishing an earlier one is a rollback)',
    body: z.object({ version: z.number().int().min(1) }),
    ok: { status: '200', schema: more.actionPublication },
  },
  unpublishActionVersion: {
    summary: 'The environment follows the latest version again',
    ok: { status: '204' },
  },
  copyAction: {
    summary: 'Copy an action into a new one (version 1)',
    body: z.object({ id: z.string(), name: z.string().optional() }),
    ok: { status: '201', schema: more.copiedAction },
  },
  listViews: {
    summary: 'Views the caller may see (summaries: id, name, kind, groupId, permission, version)',
    ok: { status: '200', schema: list(viewSummary) },
  },
  getView: {
    summary: 'Read a view with its definition (ETag carries the version)',
    ok: { status: '200', schema: view },
  },
  putView: {
    summary:
      'Create or replace a view; each save is a new version; references to actions, queries and views are checked; code views are compiled',
    body: viewInputSchema,
    ok: { status: '200', schema: view },
    also: [{ status: '201', description: 'Created (version 1)', schema: view }],
  },
  deleteView: { summary: 'Delete a view with its versions and publications', ok: { status: '204' } },
  listViewVersions: {
    summary: 'Versions of a view (newest first) and its publications',
    ok: { status: '200', schema: more.viewVersionList },
  },
  getViewVersion: { summary: 'One version of a view', ok: { status: '200', schema: more.viewVersion } },
  publishViewVersion: {
    summary: 'Publish a version of a view to an environment (publishing an earlier one is a rollback)',
    body: z.object({ version: z.number().int().min(1) }),
    ok: { status: '200', schema: more.viewPublication },
  },
  unpublishViewVersion: {
    summary: 'The environment shows the latest version of the view again',
    ok: { status: '204' },
  },
  copyView: {
    summary: 'Copy a view into a new one (version 1), in this project or another',
    body: z.object({ id: z.string(), name: z.string().optional(), projectId: z.string().optional() }),
    ok: { status: '201', schema: view },
  },
  getEnvironmentView: {
    summary: 'The version of a view an environment shows, resolved (with the compiled module of a code view)',
    ok: { status: '200', schema: more.environmentView },
  },
  listReviewRequests: {
    summary: 'Review requests (?status=&actionId=)',
    ok: { status: '200', schema: list(reviewRequest) },
  },
  getReviewRequest: { summary: 'Read a review request', ok: { status: '200', schema: reviewRequest } },
  getPublicReviewRequest: {
    summary: 'Poll a review request created by an execution (202)',
    ok: { status: '200', schema: reviewRequest },
  },
  approveReviewRequest: {
    summary: "Approve another user's request: runs the pinned version with its arguments once",
    body: decisionBody.extend({
      /** Run although the preview taken again now differs from the request's (else 409 preview_changed). */
      acceptPreviewChange: z.boolean().optional(),
    }),
    ok: { status: '200', schema: more.approvedReview },
  },
  rejectReviewRequest: {
    summary: 'Reject a request',
    body: decisionBody,
    ok: { status: '200', schema: more.decidedReview },
  },
  cancelReviewRequest: {
    summary: 'Cancel your own pending request',
    ok: { status: '200', schema: more.decidedReview },
  },
  listMembers: {
    summary: 'Members with their direct and effective roles and groups',
    ok: { status: '200', schema: list(member) },
  },
  getMember: { summary: 'One member', ok: { status: '200', schema: member } },
  putMember: {
    summary: 'Add a member or change the role (never removing the last admin)',
    body: memberRoleInputSchema,
    ok: { status: '200', schema: member },
    also: [{ status: '201', description: 'Added', schema: member }],
  },
  addMemberByEmail: {
    summary: 'Add a user by e-mail address (an account administrator invites an unknown one)',
    body: memberByEmailInputSchema,
    ok: { status: '201', schema: member },
    also: [{ status: '200', description: 'Already a member: the role was set', schema: member }],
  },
  deleteMember: { summary: 'Remove a member (and from every user group)', ok: { status: '204' } },
  listUserGroups: { summary: 'User groups', ok: { status: '200', schema: more.userGroups } },
  getUserGroup: { summary: 'One user group', ok: { status: '200', schema: more.userGroup } },
  putUserGroup: {
    summary: 'Create or replace a user group',
    body: userGroupInputSchema,
    ok: { status: '200', schema: more.userGroup },
    also: [{ status: '201', description: 'Created', schema: more.userGroup }],
  },
  deleteUserGroup: { summary: 'Delete a user group no action permission names', ok: { status: '204' } },
  listActionGroups: { summary: 'Action groups', ok: { status: '200', schema: list(actionGroup) } },
  getActionGroup: {
    summary: 'An action group with its ordered actions and their parameters',
    ok: { status: '200', schema: more.actionGroupDetail },
  },
  putActionGroup: {
    summary: 'Create or replace an action group',
    body: actionGroupInputSchema,
    ok: { status: '200', schema: more.actionGroupDetail },
    also: [{ status: '201', description: 'Created', schema: more.actionGroupDetail }],
  },
  reorderActionGroup: {
    summary: 'Reorder: a permutation of the current actions',
    body: actionGroupOrderSchema,
    ok: { status: '200', schema: more.actionGroupDetail },
  },
  deleteActionGroup: { summary: 'Delete an action group', ok: { status: '204' } },
  // Service accounts and trust policies
  // Scheduling (docs/scheduling.md, docs/batch.md)
  listCronJobs: {
    summary: 'Cron jobs of the environment with their next two planned runs',
    ok: { status: '200', schema: list(cronJob) },
  },
  createCronJob: {
    summary: 'Create a cron job (running unless created stopped)',
    body: cronJobInputSchema,
    ok: { status: '201', schema: cronJob },
  },
  previewCronSchedule: {
    summary: 'EventBridge expressions and next two runs of a schedule',
    body: schedulePreviewSchema,
    ok: { status: '200', schema: schedulePreview },
  },
  getCronJob: {
    summary: 'A cron job with its next and second-next planned runs',
    ok: { status: '200', schema: cronJob },
  },
  putCronJob: {
    summary: 'Change name, schedule, action, parameters or executor',
    body: cronJobInputSchema,
    ok: { status: '200', schema: cronJob },
  },
  deleteCronJob: { summary: 'Delete a cron job and its history (irreversible)', ok: { status: '204' } },
  stopCronJob: { summary: 'Stop: scheduled runs cease', ok: { status: '200', schema: cronJob } },
  resumeCronJob: {
    summary: 'Resume: times missed while stopped are recorded as cancelled',
    ok: { status: '200', schema: cronJob },
  },
  listCronRuns: {
    summary: 'Run history, newest first; filter by status and scheduled-time range',
    ok: { status: '200', schema: more.cronRuns },
  },
  retryCronRun: {
    summary: 'Run a past scheduled time again (a new attempt)',
    ok: { status: '200', schema: more.cronRun },
  },
  listReservations: {
    summary: 'One-time scheduled executions of the environment',
    ok: { status: '200', schema: list(reservation) },
  },
  createReservation: {
    summary: 'Reserve a one-time execution',
    body: reservationInputSchema,
    ok: { status: '201', schema: reservation },
  },
  getReservation: { summary: 'A reservation and its outcome', ok: { status: '200', schema: reservation } },
  cancelReservation: {
    summary: 'Cancel a reservation that has not run',
    ok: { status: '200', schema: reservation },
  },
  getBatchTemplate: {
    summary: 'CSV template for a batch: the first row names the parameters',
    ok: { status: '200' },
    contentTypes: { 'text/csv': more.csvText },
  },
  createBatch: {
    summary: 'Run an action with many argument sets (JSON rows or a text/csv body); 202',
    body: batchInputSchema,
    ok: {
      status: '202',
      schema: z
        .record(z.string(), z.unknown())
        .meta({ description: 'The batch started (batch, progress) and links.self' }),
    },
  },
  listBatches: {
    summary: 'Batches of the environment with their progress',
    ok: { status: '200', schema: list(batch) },
  },
  getBatch: {
    summary: 'A batch with progress and the status of every row',
    ok: { status: '200', schema: batchDetail },
  },
  retryBatch: {
    summary: 'Run the failed rows of a finished batch again (202: the batch runs again)',
    ok: { status: '202', schema: more.batchRetry },
  },
  getBatchResults: {
    summary: 'Per-row results as a CSV download',
    ok: { status: '200' },
    contentTypes: { 'text/csv': more.csvText },
  },
  listServiceAccounts: {
    summary: 'Service accounts of the project with their direct roles',
    ok: { status: '200', schema: list(serviceAccount) },
  },
  createServiceAccount: {
    summary: 'Create a service account <name>@<projectId>.sa.dogu, a member when a role is given',
    body: serviceAccountCreateSchema,
    ok: { status: '201', schema: serviceAccount },
  },
  getServiceAccount: { summary: 'One service account', ok: { status: '200', schema: serviceAccount } },
  updateServiceAccount: {
    summary: 'Replace description and disabled (the name cannot change); disabling revokes tokens',
    body: serviceAccountUpdateSchema,
    ok: { status: '200', schema: serviceAccount },
  },
  deleteServiceAccount: {
    summary: 'Delete a service account with its trust policies and memberships',
    ok: { status: '204' },
  },
  revokeServiceAccountTokens: {
    summary: 'Revoke every access token issued for the account so far',
    ok: { status: '200', schema: serviceAccount },
  },
  listTrustPolicies: {
    summary: 'Trust policies of a service account, in matching order (oldest first)',
    ok: { status: '200', schema: more.trustPolicies },
  },
  getTrustPolicy: { summary: 'One trust policy', ok: { status: '200', schema: more.trustPolicy } },
  putTrustPolicy: {
    summary: 'Create or replace a trust policy (issuer, audience, bound claims); a change revokes its tokens',
    body: trustPolicyInputSchema,
    ok: { status: '200', schema: more.trustPolicy },
    also: [{ status: '201', description: 'Created', schema: more.trustPolicy }],
  },
  deleteTrustPolicy: { summary: 'Delete a trust policy (its tokens stop working)', ok: { status: '204' } },
  listAuditLog: {
    summary: 'Audit entries, newest first (?actor=&event=&target=&from=&to=&limit=&cursor=)',
    ok: { status: '200', schema: auditPage },
  },
  exportAuditLog: {
    summary: 'Download matching audit entries with their hashes (?format=csv|json|jsonl)',
    ok: { status: '200' },
    contentTypes: {
      'application/json': more.auditExport,
      'text/csv': more.csvText,
      'application/jsonl': more.jsonLinesText,
    },
  },
  getAuditChain: {
    summary: 'Every audit entry oldest first with its hash-chain link, and the chain head (?limit=&cursor=)',
    ok: { status: '200', schema: auditChainPage },
  },
  verifyAuditLog: {
    summary:
      'Check the audit hash chain; names the first entry changed, removed or inserted (?from=<entry id>)',
    ok: { status: '200', schema: auditVerification },
  },
  ...accountOperations,
  ...mcpOAuthOperations,
  // Notifications (docs/notifications.md)
  getNotificationSettings: {
    summary: 'Targets (secrets never returned, only hasSecret), rules and the private-network policy',
    ok: { status: '200', schema: notificationSettings },
  },
  putNotificationNetworkPolicy: {
    summary: 'Allow or refuse targets on loopback and private networks',
    body: networkPolicySchema,
    ok: { status: '200', schema: notificationSettings },
  },
  createNotificationTarget: {
    summary: 'Add a webhook (HMAC-signed), Slack or e-mail target; secret fields are write-only',
    body: targetInputSchema,
    ok: { status: '201', schema: more.notificationTarget },
  },
  putNotificationTarget: {
    summary: 'Change a target; an omitted secret field keeps the stored one',
    body: targetInputSchema,
    ok: { status: '200', schema: more.notificationTarget },
  },
  deleteNotificationTarget: {
    summary: 'Delete a target no rule uses',
    ok: { status: '204' },
  },
  testNotificationTarget: {
    summary: 'Send a test notification now (one attempt) and answer with its delivery',
    ok: { status: '200', schema: more.notificationDelivery },
  },
  createNotificationRule: {
    summary: 'Notify targets of failure, recovery, time-out or reviews of an action, cron job or batches',
    body: ruleInputSchema,
    ok: { status: '201', schema: more.notificationRule },
  },
  putNotificationRule: {
    summary: 'Replace a rule',
    body: ruleInputSchema,
    ok: { status: '200', schema: more.notificationRule },
  },
  deleteNotificationRule: { summary: 'Delete a rule', ok: { status: '204' } },
  listNotificationDeliveries: {
    summary:
      'The delivery log, newest first: target, event, attempts with status code or error (?limit=&cursor=)',
    ok: { status: '200', schema: more.notificationDeliveries },
  },
};

function operationOf(route: Route): ZodOpenApiOperationObject {
  const spec = operations[route.name as RouteName] ?? { summary: route.name };
  const names = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
  const ok = spec.ok ?? { status: '200' as const };
  const problemContent = { 'application/problem+json': { schema: problem } };
  return {
    operationId: route.name,
    summary: spec.summary,
    // Public operations say so: an empty list overrides any default security.
    security: spec.uploadToken ? [{ uploadToken: [] }] : route.auth === 'bearer' ? [{ bearer: [] }] : [],
    ...(names.length > 0
      ? { requestParams: { path: z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) } }
      : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.bodyOptional,
            content: { 'application/json': { schema: spec.body } },
          },
        }
      : {}),
    ...(spec.multipart
      ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: spec.multipart } } } }
      : {}),
    responses: {
      [ok.status]: {
        description: ok.status === '204' ? 'Done' : ok.status === '302' ? 'Redirect' : 'Success',
        ...(spec.contentTypes
          ? {
              content: Object.fromEntries(
                Object.entries(spec.contentTypes).map(([type, schema]) => [type, { schema }]),
              ),
            }
          : ok.schema
            ? { content: { 'application/json': { schema: ok.schema } } }
            : {}),
      },
      ...Object.fromEntries(
        (spec.also ?? []).map(({ status, description, schema }) => [
          status,
          { description, ...(schema ? { content: { 'application/json': { schema } } } : {}) },
        ]),
      ),
      ...errorResponsesOf(
        route,
        {
          hasBody: spec.body !== undefined || spec.multipart !== undefined,
          hasPathParameters: names.length > 0,
        },
        answeredAsOAuth.has(route.name) ? { 'application/json': { schema: oauthError } } : problemContent,
      ),
      // What this operation's own refusals mean, where it says more than the shared ones.
      ...Object.fromEntries(
        Object.entries(spec.errors ?? {}).map(([status, description]) => [
          status,
          { description, content: problemContent },
        ]),
      ),
      default: { description: 'An error as Problem Details', content: problemContent },
    },
  };
}

/** Operations that refuse as OAuth endpoints do (RFC 6749 error JSON), not as Problem Details. */
const answeredAsOAuth = new Set<string>(['exchangeToken', 'authorizeMcpClient']);

export function openApiDocument() {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes as readonly Route[]) {
    // The MCP endpoint (method ANY) speaks JSON-RPC, described by MCP itself and docs/agents.md.
    if (route.path === '$default' || route.localOnly || route.method === 'ANY') continue;
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
    // Relative: the document is served by the deployment it describes (API Gateway or `npm start`).
    servers: [{ url: '/', description: 'This Dogu deployment' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        uploadToken: { type: 'apiKey', in: 'header', name: 'X-Service-Grpc-Api-Access-Token' },
      },
    },
    paths,
  });
}
