/**
 * The API and its document agree: real answers of a real embedded runtime, success and error,
 * validated against the `/openapi.json` it serves (Ajv, JSON Schema 2020-12). Every operation is
 * called at least once with an error (without credentials, or with a body or path that cannot
 * work); the operations of a newcomer's first tasks are called with success too, and their JSON
 * answers must have a schema.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
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
  options: { body?: unknown; auth?: boolean; contentType?: string } = {},
): Promise<Answer> {
  const operation = checker.operations.find((o) => o.name === name);
  expect(operation, name).toBeDefined();
  const template = new RegExp(`^${operation!.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  expect(path.split('?')[0], name).toMatch(template);
  expect(method, name).toBe(operation!.method);
  const headers: Record<string, string> = {};
  if (options.auth !== false) headers.authorization = `Bearer ${token}`;
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
  const body: unknown = contentType.includes('json') && text ? JSON.parse(text) : text || undefined;
  const answer = { status: response.status, contentType, body };
  if (process.env.DOGU_CONTRACT_DUMP)
    console.log('DUMP', name, response.status, String(JSON.stringify(body)).slice(0, 700));
  findings.push(...checker.check(name, answer));
  (response.status < 400 ? succeeded : refused).add(name);
  return answer;
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
    const notRefused = checker.operations.map((o) => o.name).filter((name) => !refused.has(name));
    // Public reads answer anyone: health, this document, the IdP's discovery and keys, where the
    // CLI logs in, and the console's redirect to the IdP.
    expect(notRefused.sort()).toEqual([
      'consoleLogin',
      'health',
      'idpDiscovery',
      'idpJwks',
      'loginConfig',
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
      .filter((id) => !['my-orders', 'broken'].includes(id));
    expect(documented.sort()).toEqual(seeded.sort());
  });
});
