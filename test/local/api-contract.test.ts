/**
 * The API and its document agree: real answers of a real embedded runtime, success and error,
 * validated against the `/openapi.json` it serves (Ajv, JSON Schema 2020-12). Every operation is
 * called at least once with an error (without credentials, or with a body or path that cannot
 * work); the operations of a newcomer's first tasks are called with success too, and their JSON
 * answers must have a schema.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../../local/accounts-startup.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { selfSignedCertificate } from '../support/http-server.ts';
import {
  type Answer,
  type ContractChecker,
  contractChecker,
  type OpenApiDocument,
} from '../support/openapi-contract.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let token: string;
let checker: ContractChecker;
const findings: string[] = [];
/** Operations answered, by outcome. */
const succeeded = new Set<string>();
const refused = new Set<string>();

beforeAll(async () => {
  dir = await tempDir('contract');
  runtime = await startTestRuntime(dir.path);
  token = await loginToken(runtime);
  const document = (await (await fetch(`${runtime.url}/openapi.json`)).json()) as OpenApiDocument;
  checker = contractChecker(document);
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

/** Calls operation `name` and checks the answer against the document; returns the answer. */
async function call(
  name: string,
  method: string,
  path: string,
  options: { body?: unknown; auth?: boolean; contentType?: string; token?: string; cookie?: string } = {},
): Promise<Answer> {
  const operation = checker.operations.find((o) => o.name === name);
  expect(operation, name).toBeDefined();
  const template = new RegExp(`^${operation!.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  expect(path.split('?')[0], name).toMatch(template);
  expect(method, name).toBe(operation!.method);
  const headers: Record<string, string> = {};
  if (options.auth !== false && !options.cookie) headers.authorization = `Bearer ${options.token ?? token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(options.body !== undefined
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  // JSON Lines (the audit export) is text: one document per line, not one document.
  const isJson = contentType.includes('json') && !contentType.includes('jsonl');
  const body: unknown = isJson && text ? JSON.parse(text) : text || undefined;
  const answer = { status: response.status, contentType, body, headers: response.headers };
  if (process.env.DOGU_CONTRACT_DUMP)
    console.log('DUMP', name, response.status, String(JSON.stringify(body)).slice(0, 700));
  findings.push(...checker.check(name, answer));
  (response.status < 400 ? succeeded : refused).add(name);
  return answer;
}

/** A user of the demo project with this role, and a token of theirs. */
async function userToken(id: string, role: 'member' | 'operations_lead'): Promise<string> {
  const principal = { kind: 'user' as const, id, email: `${id}@example.com`, name: id };
  await runtime.services.store.createUser({ ...principal, createdAt: new Date().toISOString() });
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: id, role });
  return (await runtime.services.tokens.issue(principal, 600)).token;
}

/** Asks again (no fixed sleep) until `done` holds: a batch finishing on the runtime's own workers. */
async function until(ask: () => Promise<Answer>, done: (answer: Answer) => boolean): Promise<Answer> {
  for (let i = 0; i < 200; i++) {
    const answer = await ask();
    if (done(answer)) return answer;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('never done');
}

const p = '/api/v1/projects/demo';
const env = `${p}/environments/development`;
const pub = '/public/v1/projects/demo/environments/development';

describe('the API answers as /openapi.json says', () => {
  it("a newcomer's first tasks: success answers have a schema and fit it", async () => {
    await call('health', 'GET', '/healthz', { auth: false });
    await call('openApi', 'GET', '/openapi.json', { auth: false });
    await call('whoAmI', 'GET', '/public/v1/me');
    await call('listProjects', 'GET', '/api/v1/projects');
    await call('getProject', 'GET', p);
    await call('listEnvironments', 'GET', `${p}/environments`);
    await call('listConnectorKinds', 'GET', '/api/v1/connector-kinds');

    await call('listDataSources', 'GET', `${p}/data-sources`);
    await call('getDataSource', 'GET', `${p}/data-sources/demo-postgres`);
    const source = (await call('getDataSource', 'GET', `${p}/data-sources/demo-postgres`)).body as Record<
      string,
      unknown
    >;
    const copy: Record<string, unknown> = { ...source, id: 'pg-copy', name: 'Copy' };
    for (const key of ['projectId', 'createdAt', 'updatedAt', 'managedBy']) delete copy[key];
    const environments = copy.environments as Record<string, Record<string, unknown>>;
    for (const connection of Object.values(environments)) delete connection.hasPassword;
    expect((await call('putDataSource', 'PUT', `${p}/data-sources/pg-copy`, { body: copy })).status).toBe(
      201,
    );
    expect((await call('putDataSource', 'PUT', `${p}/data-sources/pg-copy`, { body: copy })).status).toBe(
      200,
    );
    await call(
      'testDataSourceConnection',
      'POST',
      `${p}/data-sources/pg-copy/environments/development/test-connection`,
      {
        body: {},
      },
    );

    await call('listActions', 'GET', `${p}/actions`);
    const action = (await call('getAction', 'GET', `${p}/actions/list-orders`)).body as Record<
      string,
      unknown
    >;
    const mine: Record<string, unknown> = { ...action, id: 'my-orders', name: 'My orders' };
    for (const key of ['projectId', 'version', 'createdAt', 'updatedAt', 'updatedBy']) delete mine[key];
    expect((await call('putAction', 'PUT', `${p}/actions/my-orders`, { body: mine })).status).toBe(201);
    await call('putAction', 'PUT', `${p}/actions/my-orders`, { body: { ...mine, description: 'again' } });
    await call('listActionVersions', 'GET', `${p}/actions/my-orders/versions`);
    await call('getActionVersion', 'GET', `${p}/actions/my-orders/versions/1`);

    const run = await call('executeAction', 'POST', `${pub}/actions/list-orders/executions`, {
      body: { arguments: { status: 'paid', limit: 2 } },
    });
    expect(run.status).toBe(200);
    const executionId = (run.body as { id: string }).id;
    await call('getExecution', 'GET', `${pub}/executions/${executionId}`);
    const invalid = await call('executeAction', 'POST', `${pub}/actions/list-orders/executions`, {
      body: { arguments: { limit: 'many' } },
    });
    expect(invalid.status).toBe(422);
    // A statement that fails: 422 data_source_error with the recorded execution in the Problem.
    await call('putAction', 'PUT', `${p}/actions/broken`, {
      body: {
        id: 'broken',
        name: 'Broken',
        kind: 'sql',
        dataSourceId: 'demo-postgres',
        parameters: [],
        statements: [{ title: 'x', sql: 'SELECT * FROM no_such_table' }],
      },
    });
    const failed = await call('executeAction', 'POST', `${pub}/actions/broken/executions`, {
      body: { arguments: {} },
    });
    expect(failed.status).toBe(422);
    expect(failed.body).toHaveProperty('execution');
    const queued = await call('executeAction', 'POST', `${pub}/actions/list-orders/executions`, {
      body: { arguments: { status: 'paid', limit: 1 }, async: true },
    });
    expect(queued.status).toBe(202);

    const variable = `${env}/variables/region`;
    expect((await call('putVariable', 'PUT', variable, { body: { value: 'tokyo' } })).status).toBe(201);
    expect((await call('putVariable', 'PUT', variable, { body: { value: 'osaka' } })).status).toBe(200);
    await call('getVariable', 'GET', variable);
    await call('listVariables', 'GET', `${env}/variables`);
    await call('deleteVariable', 'DELETE', variable);
    // A bridge registered, listed and removed (unused, so it may go).
    const { cert } = await selfSignedCertificate();
    const bridge = `${p}/bridges/contract-bridge`;
    const registered = await call('putBridge', 'PUT', bridge, {
      body: { url: 'https://bridge.example.com:8443', certificates: [cert] },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
    await call('listBridges', 'GET', `${p}/bridges`);
    await call('deleteBridge', 'DELETE', bridge);
    await call('putSecret', 'PUT', `${env}/secrets/token`, { body: { value: 's3cret' } });
    await call('getSecret', 'GET', `${env}/secrets/token`);
    await call('listSecrets', 'GET', `${env}/secrets`);

    await call('listAuditLog', 'GET', `${p}/audit-log?limit=5`);
    await call('listMembers', 'GET', `${p}/members`);
    await call('previewCronSchedule', 'POST', `${env}/cron-jobs/preview`, {
      body: { schedule: { kind: 'cron', expression: '0 9 * * 1-5' } },
    });
    await call('listReservations', 'GET', `${env}/reservations`);
    const batch = await call('createBatch', 'POST', `${env}/actions/list-orders/batches`, {
      body: { rows: [{ status: 'paid', limit: 1 }] },
    });
    await call('getBatch', 'GET', `${env}/batches/${(batch.body as { batch: { id: string } }).batch.id}`);
    const cronJobs = (await call('listCronJobs', 'GET', `${env}/cron-jobs`)).body as {
      data: { id: string }[];
    };
    await call('getCronJob', 'GET', `${env}/cron-jobs/${cronJobs.data[0]!.id}`);
    await call('listBatches', 'GET', `${env}/batches`);
    await call('listViews', 'GET', `${p}/views`);
    await call('getView', 'GET', `${p}/views/orders`);
    await call('listReviewRequests', 'GET', `${p}/review-requests`);
    await call('listActionGroups', 'GET', `${p}/action-groups`);
    await call('getNotificationSettings', 'GET', `${p}/notifications`);
    await call('listServiceAccounts', 'GET', `${p}/service-accounts`);
    await call('listUploadTokens', 'GET', `${p}/upload-tokens`);

    expect(findings).toEqual([]);
  }, 120_000);

  it('every other operation: its success answer has a schema and fits it', async () => {
    findings.length = 0;
    /** The members of answers these calls go on with. */
    type Fields = {
      id: string;
      principalId: string;
      version: number;
      scheduledAt: string;
      token: string;
      reviewRequest: { id: string };
      batch: { id: string; status: string };
    };
    const body = (answer: Answer) => answer.body as Fields;
    await call('putProjectSettings', 'PUT', `${p}/settings`, { body: { directIdTokens: false } });

    // Master data, versions and publications
    await call('putMasterDataList', 'PUT', `${p}/master-data/colours`, {
      body: { id: 'colours', name: 'Colours', entries: [{ value: 'red', label: 'Red' }] },
    });
    await call('listMasterDataLists', 'GET', `${p}/master-data`);
    await call('getMasterDataList', 'GET', `${p}/master-data/colours`);
    await call('diffActionVersions', 'GET', `${p}/actions/my-orders/diff?from=1&to=2`);
    await call('publishActionVersion', 'PUT', `${p}/actions/my-orders/publications/production`, {
      body: { version: 1 },
    });
    await call('copyAction', 'POST', `${p}/actions/my-orders/copy`, { body: { id: 'my-orders-copy' } });

    // Views
    const orders = (await call('getView', 'GET', `${p}/views/orders`)).body as Record<string, unknown>;
    const {
      id: _id,
      version: _v,
      createdAt: _c,
      updatedAt: _u,
      updatedBy: _b,
      projectId: _p,
      ...input
    } = orders;
    await call('putView', 'PUT', `${p}/views/orders-again`, { body: { ...input, id: 'orders-again' } });
    await call('listViewVersions', 'GET', `${p}/views/orders/versions`);
    await call('getViewVersion', 'GET', `${p}/views/orders/versions/1`);
    await call('publishViewVersion', 'PUT', `${p}/views/orders/publications/production`, {
      body: { version: 1 },
    });
    await call('copyView', 'POST', `${p}/views/orders/copy`, { body: { id: 'orders-copy' } });
    await call('getEnvironmentView', 'GET', `${env}/views/orders`);
    await call('getEnvironmentView', 'GET', `${env}/views/sales-dashboard`);

    // Reviews: a member asks, the administrator decides (nobody decides their own request)
    await call('putAction', 'PUT', `${p}/actions/refund`, {
      body: {
        id: 'refund',
        name: 'Refund',
        kind: 'sql',
        dataSourceId: 'demo-postgres',
        review: { required: true, expiresInMinutes: 60 },
        parameters: [{ name: 'order_id', kind: 'number', required: true }],
        statements: [{ title: 'Refund', sql: 'SELECT {{ order_id }}::int AS refunded' }],
      },
    });
    const requester = await userToken('usr_contract', 'member');
    const ask = async (orderId: number) =>
      body(
        await call('executeAction', 'POST', `${pub}/actions/refund/executions`, {
          body: { arguments: { order_id: orderId } },
          token: requester,
        }),
      ).reviewRequest.id;
    const [first, second, third] = [await ask(1), await ask(2), await ask(3)];
    await call('getPublicReviewRequest', 'GET', `${pub}/review-requests/${first}`, { token: requester });
    await call('getReviewRequest', 'GET', `${p}/review-requests/${first}`);
    await call('approveReviewRequest', 'POST', `${p}/review-requests/${first}/approve`, { body: {} });
    await call('rejectReviewRequest', 'POST', `${p}/review-requests/${second}/reject`, {
      body: { comment: 'no' },
    });
    await call('cancelReviewRequest', 'POST', `${p}/review-requests/${third}/cancel`, { token: requester });

    // Members, user groups, action groups
    const added = body(
      await call('addMemberByEmail', 'POST', `${p}/members`, {
        body: { email: 'newcomer@example.com', role: 'member' },
      }),
    );
    await call('getMember', 'GET', `${p}/members/${added.principalId}`);
    await call('putMember', 'PUT', `${p}/members/${added.principalId}`, { body: { role: 'developer' } });
    await call('putUserGroup', 'PUT', `${p}/user-groups/ops`, {
      body: { id: 'ops', name: 'Ops', members: [added.principalId] },
    });
    await call('listUserGroups', 'GET', `${p}/user-groups`);
    await call('getUserGroup', 'GET', `${p}/user-groups/ops`);
    await call('putActionGroup', 'PUT', `${p}/action-groups/mine`, {
      body: { id: 'mine', name: 'Mine', actionIds: ['my-orders', 'list-orders'] },
    });
    await call('getActionGroup', 'GET', `${p}/action-groups/mine`);
    await call('reorderActionGroup', 'PUT', `${p}/action-groups/mine/order`, {
      body: { actionIds: ['list-orders', 'my-orders'] },
    });

    // Service accounts and trust policies
    const account = body(
      await call('createServiceAccount', 'POST', `${p}/service-accounts`, {
        body: { name: 'contract-bot', role: 'member' },
      }),
    );
    const sa = `${p}/service-accounts/${account.id}`;
    await call('getServiceAccount', 'GET', sa);
    await call('updateServiceAccount', 'PUT', sa, { body: { description: 'checks answers' } });
    await call('revokeServiceAccountTokens', 'POST', `${sa}/revoke-tokens`, { body: {} });
    await call('putTrustPolicy', 'PUT', `${sa}/trust-policies/ci`, {
      body: {
        issuer: 'https://token.actions.githubusercontent.com',
        audience: 'dogu',
        boundClaims: [{ key: 'repository', pattern: 'example/repo' }],
      },
    });
    await call('listTrustPolicies', 'GET', `${sa}/trust-policies`);
    await call('getTrustPolicy', 'GET', `${sa}/trust-policies/ci`);

    // Cron jobs and reservations
    const job = body(
      await call('createCronJob', 'POST', `${env}/cron-jobs`, {
        body: {
          name: 'Contract job',
          schedule: { kind: 'cron', expression: '0 3 * * ? *' },
          actionId: 'list-orders',
          arguments: { status: 'paid' },
        },
      }),
    );
    const jobPath = `${env}/cron-jobs/${job.id}`;
    await call('putCronJob', 'PUT', jobPath, {
      body: {
        name: 'Contract job',
        schedule: { kind: 'cron', expression: '0 4 * * ? *' },
        actionId: 'list-orders',
        arguments: { status: 'shipped' },
        version: job.version,
      },
    });
    await call('stopCronJob', 'POST', `${jobPath}/stop`, { body: {} });
    await call('resumeCronJob', 'POST', `${jobPath}/resume`, { body: {} });
    const ran = body(await call('runCronJobNow', 'POST', `${jobPath}/run-now`, { body: {} }));
    await call('listCronRuns', 'GET', `${jobPath}/runs`);
    await call('retryCronRun', 'POST', `${jobPath}/runs/${encodeURIComponent(ran.scheduledAt)}/retry`, {
      body: {},
    });
    const reservation = body(
      await call('createReservation', 'POST', `${env}/reservations`, {
        body: {
          actionId: 'list-orders',
          arguments: { status: 'paid' },
          runAt: new Date(Date.now() + 3600_000).toISOString(),
        },
      }),
    );
    await call('cancelReservation', 'POST', `${env}/reservations/${reservation.id}/cancel`, { body: {} });

    // Batches: the broken action's row fails, so the finished batch can be retried
    await call('getBatchTemplate', 'GET', `${env}/actions/list-orders/batch-template`);
    const batch = body(
      await call('createBatch', 'POST', `${env}/actions/broken/batches`, { body: { rows: [{}] } }),
    ).batch.id;
    await until(
      () => call('getBatch', 'GET', `${env}/batches/${batch}`),
      (answer) => body(answer).batch.status === 'finished',
    );
    await call('getBatchResults', 'GET', `${env}/batches/${batch}/results`);
    await call('retryBatch', 'POST', `${env}/batches/${batch}/retry`, { body: {} });

    // Notifications
    await call('putNotificationNetworkPolicy', 'PUT', `${p}/notifications/network-policy`, {
      body: { allowPrivateNetworks: true },
    });
    const target = body(
      await call('createNotificationTarget', 'POST', `${p}/notifications/targets`, {
        body: {
          kind: 'webhook',
          name: 'hook',
          url: 'http://127.0.0.1:9/hook',
          signingSecret: 'a-signing-secret-of-enough-length',
        },
      }),
    );
    await call('putNotificationTarget', 'PUT', `${p}/notifications/targets/${target.id}`, {
      body: { kind: 'webhook', name: 'hook', url: 'http://127.0.0.1:9/hook2' },
    });
    await call('createNotificationTarget', 'POST', `${p}/notifications/targets`, {
      body: {
        kind: 'email',
        name: 'mail',
        to: ['ops@example.com'],
        from: 'dogu@example.com',
        smtp: { host: '127.0.0.1', port: 9, password: 'pw' },
      },
    });
    await call('testNotificationTarget', 'POST', `${p}/notifications/targets/${target.id}/test`, {
      body: {},
    });
    const rule = body(
      await call('createNotificationRule', 'POST', `${p}/notifications/rules`, {
        body: { subject: { kind: 'action', id: '*' }, events: ['failure'], targetIds: [target.id] },
      }),
    );
    await call('putNotificationRule', 'PUT', `${p}/notifications/rules/${rule.id}`, {
      body: {
        subject: { kind: 'cron_job', id: job.id },
        events: ['failure', 'recovery'],
        targetIds: [target.id],
      },
    });
    await call('listNotificationDeliveries', 'GET', `${p}/notifications/deliveries?limit=5`);

    // Audit and accounts
    await call('exportAuditLog', 'GET', `${p}/audit-log/export?format=json`);
    await call('exportAuditLog', 'GET', `${p}/audit-log/export?format=csv`);
    await call('exportAuditLog', 'GET', `${p}/audit-log/export?format=jsonl`);
    await call('getAuditChain', 'GET', `${p}/audit-log/chain?limit=5`);
    await call('verifyAuditLog', 'GET', `${p}/audit-log/verification`);
    await call('listAccountAuditLog', 'GET', '/api/v1/account-audit-log');
    const signIn = await call('passwordSignIn', 'POST', '/auth/sign-in', {
      auth: false,
      body: { email: 'reviewer@dogu.local', password: demoPassword },
    });
    const cookie = (signIn as Answer & { headers: Headers }).headers.get('set-cookie')!.split(';')[0]!;
    await call('consoleSession', 'GET', '/auth/session', { cookie });
    const login = body(
      await call('passwordLogin', 'POST', '/public/v1/login/password', {
        auth: false,
        body: { email: 'reviewer@dogu.local', password: demoPassword },
      }),
    );
    await call('changePassword', 'POST', '/api/v1/me/password', {
      token: login.token,
      body: { currentPassword: demoPassword, newPassword: 'a much longer passphrase for the contract test' },
    });

    // Accounts (the local administrator is an account administrator)
    await call('listUsers', 'GET', '/api/v1/users');
    const invited = body(
      await call('createUser', 'POST', '/api/v1/users', { body: { email: 'invitee@example.com' } }),
    ) as Fields & { userId: string; invitation: { path: string } };
    await call('getUser', 'GET', `/api/v1/users/${invited.userId}`);
    await call('updateUser', 'PATCH', `/api/v1/users/${invited.userId}`, { body: { name: 'Invitee' } });
    const again = body(
      await call('inviteUser', 'POST', `/api/v1/users/${invited.userId}/invitation`, { body: {} }),
    ) as Fields & { invitation: { path: string } };
    const link = again.invitation.path.split('/').pop()!;
    await call('getInvitation', 'GET', `/auth/invitations/${link}`, { auth: false });
    await call('acceptInvitation', 'POST', `/auth/invitations/${link}/accept`, {
      auth: false,
      body: { password: 'a long and unusual passphrase 42' },
    });
    await call('revokeUserSessions', 'POST', `/api/v1/users/${invited.userId}/revoke-sessions`, { body: {} });

    // Projects, upload tokens, gRPC files and catalog, reservations
    await call('createProject', 'PUT', '/api/v1/projects/contract', {
      body: { id: 'contract', name: 'Contract' },
    });
    await call('createEnvironment', 'PUT', `${p}/environments/staging`, {
      body: { id: 'staging', name: 'Staging' },
    });
    await call('updateEnvironment', 'PATCH', `${p}/environments/staging`, { body: { protected: true } });
    const uploadToken = body(
      await call('createUploadToken', 'POST', `${p}/upload-tokens`, { body: { name: 'ci' } }),
    );
    await call('rotateUploadToken', 'POST', `${p}/upload-tokens/${uploadToken.id}/rotate`, { body: {} });
    await call('revokeUploadToken', 'DELETE', `${p}/upload-tokens/${uploadToken.id}`);
    const grpc = `${p}/data-sources/demo-grpc/environments/development`;
    await call('listFileVersions', 'GET', `${grpc}/file-versions`);
    await call('getDataSourceCatalog', 'GET', `${grpc}/catalog`);
    await call('getReservation', 'GET', `${env}/reservations/${reservation.id}`);

    // An MCP client connecting with OAuth: the resource's metadata, then the person's consent (0230).
    await call(
      'mcpProtectedResourceMetadata',
      'GET',
      '/.well-known/oauth-protected-resource/mcp/projects/demo/environments/development',
      { auth: false },
    );
    const redirectUri = 'http://127.0.0.1:47999/callback';
    const registered = (await (
      await fetch(`${runtime.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Contract', redirect_uris: [redirectUri] }),
      })
    ).json()) as { client_id: string };
    const authorization = new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256')
        .update('a-verifier-of-the-contract-test-0123456789')
        .digest('base64url'),
      code_challenge_method: 'S256',
      resource: `${runtime.url}/mcp/projects/demo/environments/development`,
      state: 'contract',
    });
    const started = await call('authorizeMcpClient', 'GET', `/oauth/authorize?${authorization}`, {
      auth: false,
    });
    expect(started.status).toBe(302);
    const requestId = started.headers.get('location')!.split('/').pop()!;
    await call('getMcpAuthorization', 'GET', `/oauth/requests/${requestId}`);
    const decided = await call('decideMcpAuthorization', 'POST', `/oauth/requests/${requestId}`, {
      body: { decision: 'deny' },
    });
    expect(decided.status).toBe(200);

    // Deletions and unpublishing: 204, no body
    await call('unpublishActionVersion', 'DELETE', `${p}/actions/my-orders/publications/production`);
    await call('unpublishViewVersion', 'DELETE', `${p}/views/orders/publications/production`);
    await call('deleteNotificationRule', 'DELETE', `${p}/notifications/rules/${rule.id}`);
    await call('deleteNotificationTarget', 'DELETE', `${p}/notifications/targets/${target.id}`);
    await call('deleteCronJob', 'DELETE', jobPath);
    await call('deleteTrustPolicy', 'DELETE', `${sa}/trust-policies/ci`);
    await call('deleteServiceAccount', 'DELETE', sa);
    await call('deleteActionGroup', 'DELETE', `${p}/action-groups/mine`);
    await call('deleteUserGroup', 'DELETE', `${p}/user-groups/ops`);
    await call('deleteMember', 'DELETE', `${p}/members/${added.principalId}`);
    await call('deleteView', 'DELETE', `${p}/views/orders-copy`);
    await call('deleteAction', 'DELETE', `${p}/actions/my-orders-copy`);
    await call('deleteMasterDataList', 'DELETE', `${p}/master-data/colours`);
    await call('deleteSecret', 'DELETE', `${env}/secrets/token`);
    await call('deleteDataSource', 'DELETE', `${p}/data-sources/pg-copy`);

    // Every JSON success the document describes has a schema (the calls above check the answers).
    const withoutSchema = checker.operations.filter((o) => checker.successWithoutSchema(o.name));
    expect(withoutSchema.map((o) => o.name)).toEqual([]);
    expect(findings).toEqual([]);
  }, 120_000);

  it('every operation refuses a caller without credentials, or a request that cannot work, as documented', async () => {
    findings.length = 0;
    for (const operation of checker.operations) {
      const path = operation.path.replace(/\{[^}]+\}/g, 'no-such-thing');
      const body = ['POST', 'PUT', 'PATCH'].includes(operation.method) ? '{' : undefined;
      await call(operation.name, operation.method, path, {
        auth: false,
        ...(body ? { body } : {}),
      });
    }
    if (process.env.DOGU_CONTRACT_DUMP)
      console.log(
        'NOT SUCCEEDED',
        checker.operations
          .map((o) => o.name)
          .filter((n) => !succeeded.has(n))
          .join(' '),
      );
    // Answered with success above, except what needs what this runtime has not: an external IdP
    // (token exchange, SSO sign-in and its settings, which the service checks by discovery), a
    // Google OAuth client, a protoset upload, a payload only large results leave, and the console's
    // logout (a session's CSRF token).
    expect(checker.operations.map((o) => o.name).filter((n) => !succeeded.has(n))).toEqual([
      'getExecutionPayload',
      'exchangeToken',
      'uploadFileVersion',
      'deleteFileVersion',
      'pinFileVersion',
      'startDataSourceOAuth',
      'disconnectDataSourceOAuth',
      'completeDataSourceOAuth',
      'uploadProtoset',
      'oidcLogin',
      'consoleCallback',
      'consoleLogout',
      'getSsoProvider',
      'putSsoProvider',
      'deleteSsoProvider',
    ]);
    const notRefused = checker.operations.map((o) => o.name).filter((name) => !refused.has(name));
    // Public reads answer anyone: health, this document, the IdP's discovery and keys, where the
    // CLI logs in, the console's redirect to the IdP, and the MCP authorization server's metadata.
    expect(notRefused.sort()).toEqual([
      'consoleLogin',
      'health',
      'idpDiscovery',
      'idpJwks',
      'loginConfig',
      'mcpAuthorizationServerMetadata',
      'openApi',
    ]);
    expect(findings).toEqual([]);
  }, 120_000);
});

describe("README's demo", () => {
  it('lists exactly the actions the demo seeds', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('| Action | Shows |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const documented = rows.flatMap((row) =>
      [...row.split('|')[1]!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!),
    );
    const seeded = (
      (await call('listActions', 'GET', `${p}/actions`)).body as { data: { id: string }[] }
    ).data
      .map((a) => a.id)
      .filter((id) => !['my-orders', 'broken', 'my-orders-copy', 'refund'].includes(id));
    expect(documented.sort()).toEqual(seeded.sort());
  });
});
