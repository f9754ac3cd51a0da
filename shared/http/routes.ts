/**
 * The single source of truth for HTTP routes. The CDK stack makes one Lambda
 * function per handler and the HTTP API's route keys from it (one per subtree a
 * handler serves, infra/api-route-keys.ts); the embedded runtime registers the
 * same entries on its Node server and calls the same handlers.
 *
 * `handler` names the module `functions/<handler>.ts`, which exports `handler`.
 */
export type AuthKind =
  /** Anyone may call. */
  | 'none'
  /** `Authorization: Bearer <Dogu token>`, or the console's session cookie (CSRF-checked). */
  | 'bearer'
  /** Only from a loopback address, and only when the runtime enables it (embedded runtime). */
  | 'loopback';

export interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
  /** API Gateway path syntax: `{name}` matches one path segment. `$default` catches the rest. */
  path: string;
  handler: string;
  auth: AuthKind;
  /** Routes that exist only in the embedded runtime are not deployed to AWS. */
  localOnly?: boolean;
}

/** list, get, put (create or replace) and delete of one kind of resource, served by one handler module. */
function resource<N extends string, H extends string>(
  noun: N,
  handler: H,
  collection: string,
  idSegment: string,
) {
  const item = `${collection}/${idSegment}`;
  return [
    { name: `list${noun}s`, method: 'GET', path: collection, handler, auth: 'bearer' },
    { name: `get${noun}`, method: 'GET', path: item, handler, auth: 'bearer' },
    { name: `put${noun}`, method: 'PUT', path: item, handler, auth: 'bearer' },
    { name: `delete${noun}`, method: 'DELETE', path: item, handler, auth: 'bearer' },
  ] as const satisfies readonly Route[];
}

/**
 * A maker of routes served by one handler module, under one path prefix. Names stay literal
 * types, so `RouteName` lists every route.
 */
function routesOf<H extends string, A extends AuthKind = 'bearer', L extends boolean = false>(
  handler: H,
  options: { prefix?: string; auth?: A; localOnly?: L } = {},
) {
  return <N extends string, M extends Route['method']>(name: N, method: M, path: string) =>
    ({
      name,
      method,
      path: `${options.prefix ?? ''}${path}`,
      handler,
      auth: (options.auth ?? 'bearer') as A,
      localOnly: (options.localOnly ?? false) as L,
    }) as const;
}

const actionRoute = routesOf('action-versions', {
  prefix: '/api/v1/projects/{projectId}/actions/{actionId}',
});
const reviewRoute = routesOf('review-requests');
const viewRoute = routesOf('views', { prefix: '/api/v1/projects/{projectId}' });
const projectRoute = routesOf('projects');
const serviceAccountRoute = routesOf('service-accounts', {
  prefix: '/api/v1/projects/{projectId}/service-accounts',
});
const demoRoute = routesOf('demo-api', { auth: 'none', localOnly: true });
const environmentPrefix = '/api/v1/projects/{projectId}/environments/{environmentId}';
const cronRoute = routesOf('cron-jobs', { prefix: `${environmentPrefix}/cron-jobs` });
// Run now and retry run the action at once: their own function, with the action engines (decision 0022).
const cronNowRoute = routesOf('cron-run-now', { prefix: `${environmentPrefix}/cron-jobs` });
const reservationRoute = routesOf('reservations', { prefix: `${environmentPrefix}/reservations` });
const batchRoute = routesOf('batches', { prefix: environmentPrefix });
const passwordRoute = routesOf('password-auth', { auth: 'none' });
const accountRoute = routesOf('accounts');
const ssoProviderRoute = routesOf('sso-provider');
const notificationRoute = routesOf('notifications', { prefix: '/api/v1/projects/{projectId}/notifications' });
const fileVersionRoute = routesOf('file-versions', {
  prefix: '/api/v1/projects/{projectId}/data-sources/{dataSourceId}/environments/{environmentId}',
});
const oauthRoute = routesOf('data-sources', {
  prefix: '/api/v1/projects/{projectId}/data-sources/{dataSourceId}/environments/{environmentId}',
});
const uploadTokenRoute = routesOf('projects', { prefix: '/api/v1/projects/{projectId}/upload-tokens' });
const bridgeRoute = routesOf('projects', { prefix: '/api/v1/projects/{projectId}/bridges' });
const mcpOAuthRoute = routesOf('mcp-oauth', { auth: 'none' });
const mcpConsentRoute = routesOf('mcp-oauth');

export const routes = [
  { name: 'health', method: 'GET', path: '/healthz', handler: 'health', auth: 'none' },
  // The service's own IdP (spec 5.2): public discovery and keys, so clouds can verify its ID tokens.
  {
    name: 'idpDiscovery',
    method: 'GET',
    path: '/idp/.well-known/openid-configuration',
    handler: 'idp',
    auth: 'none',
  },
  { name: 'idpJwks', method: 'GET', path: '/idp/jwks', handler: 'idp', auth: 'none' },
  {
    name: 'executeAction',
    method: 'POST',
    path: '/public/v1/projects/{projectId}/environments/{environmentId}/actions/{actionId}/executions',
    handler: 'execute-action',
    auth: 'bearer',
  },
  {
    name: 'getExecution',
    method: 'GET',
    path: '/public/v1/projects/{projectId}/environments/{environmentId}/executions/{executionId}',
    handler: 'get-execution',
    auth: 'bearer',
  },
  {
    name: 'getExecutionPayload',
    method: 'GET',
    path: '/public/v1/projects/{projectId}/environments/{environmentId}/executions/{executionId}/payloads/{payload}',
    handler: 'execution-payloads',
    auth: 'bearer',
  },
  { name: 'whoAmI', method: 'GET', path: '/public/v1/me', handler: 'who-am-i', auth: 'bearer' },
  { name: 'exchangeToken', method: 'POST', path: '/public/v1/token', handler: 'token', auth: 'none' },
  { name: 'openApi', method: 'GET', path: '/openapi.json', handler: 'openapi', auth: 'none' },

  // Projects and environments.
  projectRoute('listProjects', 'GET', '/api/v1/projects'),
  projectRoute('getProject', 'GET', '/api/v1/projects/{projectId}'),
  projectRoute('createProject', 'PUT', '/api/v1/projects/{projectId}'),
  projectRoute('putProjectSettings', 'PUT', '/api/v1/projects/{projectId}/settings'),
  projectRoute('listEnvironments', 'GET', '/api/v1/projects/{projectId}/environments'),
  projectRoute('createEnvironment', 'PUT', '/api/v1/projects/{projectId}/environments/{environmentId}'),
  projectRoute('updateEnvironment', 'PATCH', '/api/v1/projects/{projectId}/environments/{environmentId}'),
  // Management API: data sources and actions per project.
  ...resource('DataSource', 'data-sources', '/api/v1/projects/{projectId}/data-sources', '{dataSourceId}'),
  {
    name: 'testDataSourceConnection',
    method: 'POST',
    path: '/api/v1/projects/{projectId}/data-sources/{dataSourceId}/environments/{environmentId}/test-connection',
    // Its own function: testing connects with the kind's driver, which the management functions lack.
    handler: 'data-source-connection',
    auth: 'bearer',
  },
  // Uploaded files (protoset versions) of a data source environment (docs/grpc.md, decision 0033).
  fileVersionRoute('listFileVersions', 'GET', '/file-versions'),
  fileVersionRoute('uploadFileVersion', 'POST', '/file-versions'),
  fileVersionRoute('deleteFileVersion', 'DELETE', '/file-versions/{versionId}'),
  fileVersionRoute('pinFileVersion', 'PUT', '/file-pin'),
  // OAuth connections of kinds that connect with a Connect button (decision 0041, docs/sheets.md).
  oauthRoute('startDataSourceOAuth', 'POST', '/oauth/start'),
  oauthRoute('disconnectDataSourceOAuth', 'DELETE', '/oauth'),
  {
    name: 'completeDataSourceOAuth',
    method: 'GET',
    path: '/api/v1/oauth/callback',
    handler: 'data-sources',
    auth: 'bearer',
  },
  // Upload tokens of a project (spec 4.3, decision 0034); the upload API itself (auth: the token).
  uploadTokenRoute('listUploadTokens', 'GET', ''),
  uploadTokenRoute('createUploadToken', 'POST', ''),
  uploadTokenRoute('rotateUploadToken', 'POST', '/{tokenId}/rotate'),
  uploadTokenRoute('revokeUploadToken', 'DELETE', '/{tokenId}'),
  // Bridges of a project (docs/bridge.md): register, rotate the pinned certificates, remove.
  bridgeRoute('listBridges', 'GET', ''),
  bridgeRoute('putBridge', 'PUT', '/{bridgeId}'),
  bridgeRoute('deleteBridge', 'DELETE', '/{bridgeId}'),
  {
    name: 'uploadProtoset',
    method: 'POST',
    path: '/v1/upload_protoset',
    handler: 'upload-protoset',
    auth: 'none',
  },
  // What actions of the data source can call (gRPC: its unary methods), for the console's pickers.
  {
    name: 'getDataSourceCatalog',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/data-sources/{dataSourceId}/environments/{environmentId}/catalog',
    // Reading the catalog connects through the kind's runtime, as a connection test does.
    handler: 'data-source-connection',
    auth: 'bearer',
  },
  // Every data-source kind with its form descriptor (the console renders its forms from it).
  {
    name: 'listConnectorKinds',
    method: 'GET',
    path: '/api/v1/connector-kinds',
    handler: 'connector-kinds',
    auth: 'bearer',
  },
  ...resource('Action', 'actions', '/api/v1/projects/{projectId}/actions', '{actionId}'),
  // Versions of an action, publishing to environments (and rolling back), copying.
  actionRoute('listActionVersions', 'GET', '/versions'),
  actionRoute('getActionVersion', 'GET', '/versions/{version}'),
  actionRoute('diffActionVersions', 'GET', '/diff'),
  actionRoute('publishActionVersion', 'PUT', '/publications/{environmentId}'),
  actionRoute('unpublishActionVersion', 'DELETE', '/publications/{environmentId}'),
  actionRoute('copyAction', 'POST', '/copy'),
  // Review requests.
  // Views (docs/views.md): one function; no diff route (versions carry their definitions)
  ...resource('View', 'views', '/api/v1/projects/{projectId}/views', '{viewId}'),
  viewRoute('listViewVersions', 'GET', '/views/{viewId}/versions'),
  viewRoute('getViewVersion', 'GET', '/views/{viewId}/versions/{version}'),
  viewRoute('publishViewVersion', 'PUT', '/views/{viewId}/publications/{environmentId}'),
  viewRoute('unpublishViewVersion', 'DELETE', '/views/{viewId}/publications/{environmentId}'),
  viewRoute('copyView', 'POST', '/views/{viewId}/copy'),
  viewRoute('getEnvironmentView', 'GET', '/environments/{environmentId}/views/{viewId}'),
  reviewRoute('listReviewRequests', 'GET', '/api/v1/projects/{projectId}/review-requests'),
  reviewRoute('getReviewRequest', 'GET', '/api/v1/projects/{projectId}/review-requests/{reviewId}'),
  reviewRoute(
    'approveReviewRequest',
    'POST',
    '/api/v1/projects/{projectId}/review-requests/{reviewId}/approve',
  ),
  reviewRoute(
    'rejectReviewRequest',
    'POST',
    '/api/v1/projects/{projectId}/review-requests/{reviewId}/reject',
  ),
  reviewRoute(
    'cancelReviewRequest',
    'POST',
    '/api/v1/projects/{projectId}/review-requests/{reviewId}/cancel',
  ),
  reviewRoute(
    'getPublicReviewRequest',
    'GET',
    '/public/v1/projects/{projectId}/environments/{environmentId}/review-requests/{reviewId}',
  ),
  ...resource('MasterDataList', 'master-data', '/api/v1/projects/{projectId}/master-data', '{masterDataId}'),
  // Variables and secrets per environment.
  ...resource(
    'Variable',
    'variables',
    '/api/v1/projects/{projectId}/environments/{environmentId}/variables',
    '{name}',
  ),
  ...resource(
    'Secret',
    'secrets',
    '/api/v1/projects/{projectId}/environments/{environmentId}/secrets',
    '{name}',
  ),
  // The audit log of a project: pages for reading, one download for keeping.
  {
    name: 'listAuditLog',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/audit-log',
    handler: 'audit-log',
    auth: 'bearer',
  },
  {
    name: 'exportAuditLog',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/audit-log/export',
    handler: 'audit-log',
    auth: 'bearer',
  },
  // The hash chain (decision 0181): pages with hashes for `dogu audit verify`, and the console's check.
  {
    name: 'getAuditChain',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/audit-log/chain',
    handler: 'audit-log',
    auth: 'bearer',
  },
  {
    name: 'verifyAuditLog',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/audit-log/verification',
    handler: 'audit-log',
    auth: 'bearer',
  },
  // Members, user groups and action groups of a project.
  ...resource('Member', 'members', '/api/v1/projects/{projectId}/members', '{principalId}'),
  {
    name: 'addMemberByEmail',
    method: 'POST',
    path: '/api/v1/projects/{projectId}/members',
    handler: 'members',
    auth: 'bearer',
  },
  ...resource('UserGroup', 'user-groups', '/api/v1/projects/{projectId}/user-groups', '{groupId}'),
  ...resource('ActionGroup', 'action-groups', '/api/v1/projects/{projectId}/action-groups', '{groupId}'),
  {
    name: 'reorderActionGroup',
    method: 'PUT',
    path: '/api/v1/projects/{projectId}/action-groups/{groupId}/order',
    handler: 'action-groups',
    auth: 'bearer',
  },
  // Service accounts of a project and their trust policies.
  serviceAccountRoute('listServiceAccounts', 'GET', ''),
  serviceAccountRoute('createServiceAccount', 'POST', ''),
  serviceAccountRoute('getServiceAccount', 'GET', '/{serviceAccountId}'),
  serviceAccountRoute('updateServiceAccount', 'PUT', '/{serviceAccountId}'),
  serviceAccountRoute('deleteServiceAccount', 'DELETE', '/{serviceAccountId}'),
  serviceAccountRoute('revokeServiceAccountTokens', 'POST', '/{serviceAccountId}/revoke-tokens'),
  serviceAccountRoute('listTrustPolicies', 'GET', '/{serviceAccountId}/trust-policies'),
  serviceAccountRoute('getTrustPolicy', 'GET', '/{serviceAccountId}/trust-policies/{policyId}'),
  serviceAccountRoute('putTrustPolicy', 'PUT', '/{serviceAccountId}/trust-policies/{policyId}'),
  serviceAccountRoute('deleteTrustPolicy', 'DELETE', '/{serviceAccountId}/trust-policies/{policyId}'),
  // Cron jobs, their runs, reservations and batches of an environment (docs/scheduling.md, docs/batch.md).
  cronRoute('listCronJobs', 'GET', ''),
  cronRoute('createCronJob', 'POST', ''),
  cronRoute('previewCronSchedule', 'POST', '/preview'),
  cronRoute('getCronJob', 'GET', '/{jobId}'),
  cronRoute('putCronJob', 'PUT', '/{jobId}'),
  cronRoute('deleteCronJob', 'DELETE', '/{jobId}'),
  cronRoute('stopCronJob', 'POST', '/{jobId}/stop'),
  cronRoute('resumeCronJob', 'POST', '/{jobId}/resume'),
  cronRoute('listCronRuns', 'GET', '/{jobId}/runs'),
  cronNowRoute('retryCronRun', 'POST', '/{jobId}/runs/{scheduledAt}/retry'),
  cronNowRoute('runCronJobNow', 'POST', '/{jobId}/run-now'),
  reservationRoute('listReservations', 'GET', ''),
  reservationRoute('createReservation', 'POST', ''),
  reservationRoute('getReservation', 'GET', '/{reservationId}'),
  reservationRoute('cancelReservation', 'POST', '/{reservationId}/cancel'),
  batchRoute('getBatchTemplate', 'GET', '/actions/{actionId}/batch-template'),
  batchRoute('createBatch', 'POST', '/actions/{actionId}/batches'),
  batchRoute('listBatches', 'GET', '/batches'),
  batchRoute('getBatch', 'GET', '/batches/{batchId}'),
  batchRoute('retryBatch', 'POST', '/batches/{batchId}/retry'),
  batchRoute('getBatchResults', 'GET', '/batches/{batchId}/results'),
  // Notifications (docs/notifications.md): targets, rules, the delivery log and a test send.
  notificationRoute('getNotificationSettings', 'GET', ''),
  notificationRoute('putNotificationNetworkPolicy', 'PUT', '/network-policy'),
  notificationRoute('createNotificationTarget', 'POST', '/targets'),
  notificationRoute('putNotificationTarget', 'PUT', '/targets/{targetId}'),
  notificationRoute('deleteNotificationTarget', 'DELETE', '/targets/{targetId}'),
  notificationRoute('testNotificationTarget', 'POST', '/targets/{targetId}/test'),
  notificationRoute('createNotificationRule', 'POST', '/rules'),
  notificationRoute('putNotificationRule', 'PUT', '/rules/{ruleId}'),
  notificationRoute('deleteNotificationRule', 'DELETE', '/rules/{ruleId}'),
  notificationRoute('listNotificationDeliveries', 'GET', '/deliveries'),
  // SSO login (docs/decisions/0014): the CLI exchanges an ID token of the IdP; the console uses code + PKCE.
  { name: 'loginConfig', method: 'GET', path: '/public/v1/login/config', handler: 'sso-login', auth: 'none' },
  { name: 'oidcLogin', method: 'POST', path: '/public/v1/login/oidc', handler: 'sso-login', auth: 'none' },
  { name: 'consoleLogin', method: 'GET', path: '/auth/login', handler: 'console-auth', auth: 'none' },
  { name: 'consoleCallback', method: 'GET', path: '/auth/callback', handler: 'console-auth', auth: 'none' },
  { name: 'consoleSession', method: 'GET', path: '/auth/session', handler: 'console-auth', auth: 'bearer' },
  { name: 'consoleLogout', method: 'POST', path: '/auth/logout', handler: 'console-auth', auth: 'bearer' },
  // Accounts (docs/accounts.md): password sign-in, invitations, administration of people's accounts.
  passwordRoute('passwordSignIn', 'POST', '/auth/sign-in'),
  passwordRoute('passwordLogin', 'POST', '/public/v1/login/password'),
  passwordRoute('getInvitation', 'GET', '/auth/invitations/{token}'),
  passwordRoute('acceptInvitation', 'POST', '/auth/invitations/{token}/accept'),
  accountRoute('listUsers', 'GET', '/api/v1/users'),
  accountRoute('createUser', 'POST', '/api/v1/users'),
  accountRoute('getUser', 'GET', '/api/v1/users/{userId}'),
  accountRoute('updateUser', 'PATCH', '/api/v1/users/{userId}'),
  accountRoute('inviteUser', 'POST', '/api/v1/users/{userId}/invitation'),
  accountRoute('revokeUserSessions', 'POST', '/api/v1/users/{userId}/revoke-sessions'),
  accountRoute('changePassword', 'POST', '/api/v1/me/password'),
  accountRoute('listAccountAuditLog', 'GET', '/api/v1/account-audit-log'),
  ssoProviderRoute('getSsoProvider', 'GET', '/api/v1/sso-provider'),
  ssoProviderRoute('putSsoProvider', 'PUT', '/api/v1/sso-provider'),
  ssoProviderRoute('deleteSsoProvider', 'DELETE', '/api/v1/sso-provider'),
  {
    name: 'localLogin',
    method: 'POST',
    path: '/local/v1/login',
    handler: 'local-login',
    auth: 'loopback',
    localOnly: true,
  },
  // The demo HTTP API of the embedded runtime (local only).
  demoRoute('demoApiLogin', 'POST', '/demo-api/v1/login'),
  demoRoute('demoApiExchangeRates', 'GET', '/demo-api/v1/exchange-rates'),
  demoRoute('demoApiShipment', 'GET', '/demo-api/v1/shipments/{orderId}'),
  demoRoute('demoApiMedia', 'GET', '/demo-api/v1/media/{file}'),
  // The MCP server for AI agents (docs/agents.md): Streamable HTTP, one endpoint per environment.
  {
    name: 'mcp',
    method: 'ANY',
    path: '/mcp/projects/{projectId}/environments/{environmentId}',
    handler: 'execute-action',
    auth: 'bearer',
  },
  // Dogu as the OAuth authorization server of MCP clients (docs/agents.md, decision 0230).
  mcpOAuthRoute(
    'mcpProtectedResourceMetadata',
    'GET',
    '/.well-known/oauth-protected-resource/mcp/projects/{projectId}/environments/{environmentId}',
  ),
  mcpOAuthRoute('mcpAuthorizationServerMetadata', 'GET', '/.well-known/oauth-authorization-server'),
  // ANY: browser-based clients send a CORS preflight (OPTIONS) first.
  mcpOAuthRoute('registerMcpClient', 'ANY', '/oauth/register'),
  mcpOAuthRoute('authorizeMcpClient', 'GET', '/oauth/authorize'),
  mcpOAuthRoute('mcpToken', 'ANY', '/oauth/token'),
  mcpOAuthRoute('revokeMcpToken', 'ANY', '/oauth/revoke'),
  // The console's consent screen: the signed-in person sees the request and allows or denies it.
  mcpConsentRoute('getMcpAuthorization', 'GET', '/oauth/requests/{requestId}'),
  mcpConsentRoute('decideMcpAuthorization', 'POST', '/oauth/requests/{requestId}'),
  { name: 'notFound', method: 'ANY', path: '$default', handler: 'not-found', auth: 'none' },
] as const satisfies readonly Route[];

export type RouteName = (typeof routes)[number]['name'];

export function routeNamed(name: RouteName): Route {
  return routes.find((r) => r.name === name)!;
}

/** `METHOD /path` as API Gateway writes route keys. */
export const routeKeyOf = (route: Route) =>
  route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
