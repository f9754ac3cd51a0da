/**
 * Records every state-changing API call in the audit log, in one place: each
 * mutating route names its event and the path parameter that identifies its
 * target. A test requires every mutating route to be listed here, so a new
 * route cannot silently escape the audit log.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { logger } from '../commons/logger.ts';
import type { AuditEntry } from '../domain/audit.ts';
import type { Principal } from '../domain/model.ts';
import type { CoreServices } from '../runtime/core-services.ts';
import type { Route, RouteName } from './routes.ts';
import { viewerIpOf } from './viewer-ip.ts';

interface AuditedRoute {
  event: string;
  targetType: string;
  /** The path parameter naming the target; absent: read `targetFromBody` from the response. */
  targetParameter?: string;
  targetFromBody?: string;
  /** Recorded under the deployment (account administration), not a project. */
  deployment?: boolean;
}

const target = (event: string, targetType: string, targetParameter: string): AuditedRoute => ({
  event,
  targetType,
  targetParameter,
});

export const auditedRoutes: Partial<Record<RouteName, AuditedRoute>> = {
  executeAction: target('execution.run', 'action', 'actionId'),
  createProject: target('project.create', 'project', 'projectId'),
  createEnvironment: target('environment.create', 'environment', 'environmentId'),
  updateEnvironment: target('environment.update', 'environment', 'environmentId'),
  putProjectSettings: target('project.settings', 'project', 'projectId'),
  putBridge: target('bridge.save', 'bridge', 'bridgeId'),
  deleteBridge: target('bridge.delete', 'bridge', 'bridgeId'),
  putDataSource: target('data_source.save', 'data_source', 'dataSourceId'),
  deleteDataSource: target('data_source.delete', 'data_source', 'dataSourceId'),
  testDataSourceConnection: target('data_source.test_connection', 'data_source', 'dataSourceId'),
  startDataSourceOAuth: target('data_source.oauth_start', 'data_source', 'dataSourceId'),
  disconnectDataSourceOAuth: target('data_source.oauth_disconnect', 'data_source', 'dataSourceId'),
  putAction: target('action.save', 'action', 'actionId'),
  deleteAction: target('action.delete', 'action', 'actionId'),
  copyAction: target('action.copy', 'action', 'actionId'),
  publishActionVersion: target('action.publish', 'action', 'actionId'),
  unpublishActionVersion: target('action.unpublish', 'action', 'actionId'),
  putView: target('view.save', 'view', 'viewId'),
  deleteView: target('view.delete', 'view', 'viewId'),
  copyView: target('view.copy', 'view', 'viewId'),
  publishViewVersion: target('view.publish', 'view', 'viewId'),
  unpublishViewVersion: target('view.unpublish', 'view', 'viewId'),
  putMasterDataList: target('master_data.save', 'master_data', 'masterDataId'),
  deleteMasterDataList: target('master_data.delete', 'master_data', 'masterDataId'),
  putVariable: target('variable.save', 'variable', 'name'),
  deleteVariable: target('variable.delete', 'variable', 'name'),
  putSecret: target('secret.save', 'secret', 'name'),
  deleteSecret: target('secret.delete', 'secret', 'name'),
  approveReviewRequest: target('review.approve', 'review_request', 'reviewId'),
  rejectReviewRequest: target('review.reject', 'review_request', 'reviewId'),
  cancelReviewRequest: target('review.cancel', 'review_request', 'reviewId'),
  putMember: target('member.save', 'member', 'principalId'),
  addMemberByEmail: { event: 'member.add', targetType: 'member', targetFromBody: 'principalId' },
  deleteMember: target('member.delete', 'member', 'principalId'),
  putUserGroup: target('user_group.save', 'user_group', 'groupId'),
  deleteUserGroup: target('user_group.delete', 'user_group', 'groupId'),
  putActionGroup: target('action_group.save', 'action_group', 'groupId'),
  deleteActionGroup: target('action_group.delete', 'action_group', 'groupId'),
  reorderActionGroup: target('action_group.reorder', 'action_group', 'groupId'),
  // Uploaded files of data sources and upload tokens (the token's value is never in the body recorded)
  uploadFileVersion: target('file_version.upload', 'data_source', 'dataSourceId'),
  deleteFileVersion: target('file_version.delete', 'file_version', 'versionId'),
  pinFileVersion: target('file_version.pin', 'data_source', 'dataSourceId'),
  createUploadToken: { event: 'upload_token.create', targetType: 'upload_token', targetFromBody: 'id' },
  rotateUploadToken: target('upload_token.rotate', 'upload_token', 'tokenId'),
  revokeUploadToken: target('upload_token.revoke', 'upload_token', 'tokenId'),
  // Service accounts and trust policies
  createServiceAccount: {
    event: 'service_account.create',
    targetType: 'service_account',
    targetFromBody: 'id',
  },
  updateServiceAccount: target('service_account.save', 'service_account', 'serviceAccountId'),
  deleteServiceAccount: target('service_account.delete', 'service_account', 'serviceAccountId'),
  revokeServiceAccountTokens: target('service_account.revoke_tokens', 'service_account', 'serviceAccountId'),
  putTrustPolicy: target('trust_policy.save', 'trust_policy', 'policyId'),
  deleteTrustPolicy: target('trust_policy.delete', 'trust_policy', 'policyId'),
  // Scheduling: cron jobs, reservations, batches (the runs they start are audited as executions)
  createCronJob: { event: 'cron_job.create', targetType: 'cron_job', targetFromBody: 'id' },
  putCronJob: target('cron_job.save', 'cron_job', 'jobId'),
  deleteCronJob: target('cron_job.delete', 'cron_job', 'jobId'),
  stopCronJob: target('cron_job.stop', 'cron_job', 'jobId'),
  resumeCronJob: target('cron_job.resume', 'cron_job', 'jobId'),
  retryCronRun: target('cron_job.retry_run', 'cron_job', 'jobId'),
  runCronJobNow: target('cron_job.run_now', 'cron_job', 'jobId'),
  // Accounts belong to no project: recorded in the deployment's own log (GET /api/v1/users/audit-log).
  createUser: { event: 'account.create', targetType: 'user', targetFromBody: 'userId', deployment: true },
  updateUser: { ...target('account.save', 'user', 'userId'), deployment: true },
  inviteUser: { ...target('account.invite', 'user', 'userId'), deployment: true },
  revokeUserSessions: { ...target('account.revoke_sessions', 'user', 'userId'), deployment: true },
  changePassword: { event: 'account.change_password', targetType: 'user', deployment: true },
  putSsoProvider: {
    event: 'sso_provider.save',
    targetType: 'sso_provider',
    targetFromBody: 'issuer',
    deployment: true,
  },
  deleteSsoProvider: { event: 'sso_provider.delete', targetType: 'sso_provider', deployment: true },
  createReservation: { event: 'reservation.create', targetType: 'reservation', targetFromBody: 'id' },
  cancelReservation: target('reservation.cancel', 'reservation', 'reservationId'),
  createBatch: target('batch.create', 'action', 'actionId'),
  retryBatch: target('batch.retry', 'batch', 'batchId'),
  // Notifications
  putNotificationNetworkPolicy: target('notification.network_policy', 'project', 'projectId'),
  createNotificationTarget: {
    event: 'notification_target.create',
    targetType: 'notification_target',
    targetFromBody: 'id',
  },
  putNotificationTarget: target('notification_target.save', 'notification_target', 'targetId'),
  deleteNotificationTarget: target('notification_target.delete', 'notification_target', 'targetId'),
  testNotificationTarget: target('notification_target.test', 'notification_target', 'targetId'),
  createNotificationRule: {
    event: 'notification_rule.create',
    targetType: 'notification_rule',
    targetFromBody: 'id',
  },
  putNotificationRule: target('notification_rule.save', 'notification_rule', 'ruleId'),
  deleteNotificationRule: target('notification_rule.delete', 'notification_rule', 'ruleId'),
};

/** Routes that change nothing worth auditing although they are not GET. */
export const unauditedMutations: ReadonlySet<string> = new Set([
  'localLogin',
  // Audited inside (event login): a login belongs to no project.
  'oidcLogin',
  'consoleLogout',
  'demoApiLogin',
  'notFound',
  // Audited inside (event login, per project of the user); a failed sign-in is no change.
  'passwordSignIn',
  'passwordLogin',
  'acceptInvitation',
  // Reads the schedule it is given; changes nothing.
  'previewCronSchedule',
  // Audited inside the use case (token.exchange): the path names no project, the matched policy does.
  'exchangeToken',
  // Audited inside, per tool call (execution.run with via mcp): most MCP messages change nothing.
  'mcp',
  // Dogu's OAuth endpoints for MCP clients: the consent is audited inside (mcp_client.authorize or
  // .deny, in the project); registration, tokens and revocation belong to no project and name no person.
  'registerMcpClient',
  'mcpToken',
  'revokeMcpToken',
  'decideMcpAuthorization',
  // Audited inside the use case (file_version.upload): the path names no project, the token does.
  'uploadProtoset',
]);

/** The audit log of the deployment itself (accounts, single sign-on): not a valid project id. */
export const deploymentAuditLog = '_deployment';

export const originOf = (event: APIGatewayProxyEventV2) => ({
  sourceIp: viewerIpOf(event),
  userAgent: event.headers?.['user-agent'] ?? '',
});

/** What an entry says about the outcome: execution ids and statuses, or the refusal's code. */
function detailsOf(routeName: string, status: number, body: Record<string, unknown> | undefined) {
  if (status >= 400) return { status, code: body?.code };
  if (routeName === 'executeAction') {
    const review = body?.reviewRequest as { id: string; source?: unknown } | undefined;
    if (review) return { reviewRequestId: review.id, ...(review.source ? { source: review.source } : {}) };
    return {
      executionId: body?.id,
      status: body?.status,
      ...(body?.preview ? { preview: true } : {}),
      actionVersion: body?.actionVersion,
      ...(body?.source ? { source: body.source } : {}),
      ...(body?.bridgeId ? { bridgeId: body.bridgeId } : {}),
    };
  }
  if (routeName === 'approveReviewRequest') {
    const execution = body?.execution as { id?: string; agent?: { client: string } } | null | undefined;
    // An agent's request: its client is named here too, as on the agent's own entry.
    return {
      executionId: execution?.id ?? null,
      ...(execution?.agent ? { via: 'review', client: execution.agent.client } : {}),
    };
  }
  return body && typeof body.version === 'number' ? { version: body.version } : undefined;
}

export async function recordAudit(
  services: CoreServices,
  input: {
    route: Route;
    event: APIGatewayProxyEventV2;
    principal: Principal | undefined;
    status: number;
    body: Record<string, unknown> | undefined;
  },
): Promise<void> {
  const audited = auditedRoutes[input.route.name as RouteName];
  const projectId = audited?.deployment ? deploymentAuditLog : input.event.pathParameters?.projectId;
  // Without a verified caller or a project there is nobody and nowhere to record.
  if (!audited || !input.principal || !projectId) return;
  const { status } = input;
  // A failed execution is recorded as such; a refusal of rights as refused.
  const failedRun = input.route.name === 'executeAction' && (input.body?.execution as object | undefined);
  const outcome: AuditEntry['outcome'] =
    status === 401 || status === 403 ? 'refused' : status < 400 ? 'succeeded' : 'failed';
  const targetId = audited.targetParameter
    ? input.event.pathParameters?.[audited.targetParameter]
    : audited.targetFromBody
      ? (input.body?.[audited.targetFromBody] as string | undefined)
      : input.principal.id;
  const details = detailsOf(input.route.name, status, input.body);
  const executionId = failedRun ? (failedRun as { id?: string }).id : undefined;
  const environmentId = input.event.pathParameters?.environmentId;
  try {
    await services.audit.append({
      id: services.ids.next('aud'),
      projectId,
      at: services.clock.now().toISOString(),
      actor: { kind: input.principal.kind, id: input.principal.id, email: input.principal.email },
      origin: originOf(input.event),
      event: previewed(input) ? 'execution.preview' : audited.event,
      target: { type: audited.targetType, id: targetId ?? 'unknown' },
      ...(environmentId ? { environmentId } : {}),
      outcome,
      ...(details || executionId ? { details: { ...details, ...(executionId ? { executionId } : {}) } } : {}),
    });
  } catch (error) {
    // The change itself happened: say loudly that its record is missing rather than undo it.
    logger.error('audit entry could not be written', {
      error: error as Error,
      event: audited.event,
      projectId,
    });
  }
}

/** A preview is audited as one, never as a run of the action (decision 0185). */
function previewed(input: { route: Route; event: APIGatewayProxyEventV2 }): boolean {
  if (input.route.name !== 'executeAction' || !input.event.body) return false;
  try {
    const text = input.event.isBase64Encoded
      ? Buffer.from(input.event.body, 'base64').toString('utf8')
      : input.event.body;
    return (JSON.parse(text) as { preview?: unknown }).preview === true;
  } catch {
    return false;
  }
}

/** A login belongs to no project: it is recorded in each project the user is a direct member of. */
export async function recordLogin(
  services: CoreServices,
  user: { id: string; email: string },
  event: APIGatewayProxyEventV2,
  details: Record<string, unknown>,
): Promise<void> {
  for (const membership of await services.store.listMembershipsOfPrincipal(user.id)) {
    await services.audit.append({
      id: services.ids.next('aud'),
      projectId: membership.projectId,
      at: services.clock.now().toISOString(),
      actor: { kind: 'user', id: user.id, email: user.email },
      origin: originOf(event),
      event: 'login',
      target: { type: 'user', id: user.id },
      outcome: 'succeeded',
      details,
    });
  }
}
