/**
 * The management API on a real embedded runtime: data sources, actions,
 * variables and secrets; validation at save time; write-only secrets;
 * versions and concurrent edits; rights.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';

beforeAll(async () => {
  dir = await tempDir('manage');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  api = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

const pgSource = (password?: string) => ({
  id: 'shop',
  name: 'Shop',
  kind: 'postgresql',
  environments: {
    development: { ...database.connection, ...(password === undefined ? {} : { password }) },
    production: { ...database.connection },
  },
});

const countAction = {
  id: 'count-orders',
  name: 'Count orders',
  kind: 'sql',
  dataSourceId: 'shop',
  parameters: [{ name: 'status', kind: 'text', required: true }],
  statements: [{ title: 'Count', sql: 'SELECT count(*)::int AS n FROM orders WHERE status = {{ status }}' }],
};

describe('data sources', () => {
  it('creates (201), replaces (200), reads and lists without ever returning the password', async () => {
    const created = await api.put(`${base}/data-sources/shop`, pgSource('s3cret-pw'));
    expect(created.status).toBe(201);
    expect(created.body.environments.development).toEqual({ ...database.connection, hasPassword: true });
    expect(JSON.stringify(created.body)).not.toContain('s3cret-pw');

    const replaced = await api.put(`${base}/data-sources/shop`, { ...pgSource(), name: 'Shop DB' });
    expect(replaced.status).toBe(200);
    // Omitting the password keeps the stored one.
    expect(replaced.body.environments.development.hasPassword).toBe(true);
    expect((await api.get(`${base}/data-sources/shop`)).body.name).toBe('Shop DB');
    const list = await api.get(`${base}/data-sources`);
    expect(list.body.data.map((d: { id: string }) => d.id).sort()).toEqual([
      'demo-api',
      'demo-grpc',
      'demo-postgres',
      'demo-scripts',
      'shop',
    ]);
    expect(JSON.stringify(list.body)).not.toContain('s3cret-pw');
  });

  it('stores the password encrypted, never in plain text', async () => {
    const { Items = [] } = await runtime.storage.client.send(
      new ScanCommand({ TableName: runtime.storage.tableName }),
    );
    const item = JSON.stringify(Items.find((i) => i.sk === 'DATASOURCE#shop'));
    expect(item).toContain('passwordCiphertext');
    expect(item).not.toContain('s3cret-pw');
  });

  it('an empty password removes it', async () => {
    const cleared = await api.put(`${base}/data-sources/shop`, pgSource(''));
    expect(cleared.body.environments.development.hasPassword).toBe(false);
  });

  it('refuses bad definitions naming each field, and an unknown environment', async () => {
    const bad = await api.put(`${base}/data-sources/bad`, {
      id: 'bad',
      name: '',
      kind: 'postgresql',
      environments: { development: { host: 'h', port: 70000, database: 'd', user: 'u' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_definition');
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/environments/development/port',
      '#/name',
    ]);
    const unknownEnv = await api.put(`${base}/data-sources/x`, {
      ...pgSource(),
      id: 'x',
      environments: { staging: database.connection },
    });
    expect(unknownEnv.status).toBe(404);
    expect(unknownEnv.body.detail).toBe("Environment 'staging' was not found.");
    const mismatch = await api.put(`${base}/data-sources/other`, pgSource());
    expect(mismatch.status).toBe(400);
    const kindChange = await api.put(`${base}/data-sources/shop`, {
      id: 'shop',
      name: 'x',
      kind: 'http',
      environments: { development: { url: 'http://127.0.0.1:1' } },
    });
    expect(kindChange.status).toBe(409);
  });
});

describe('actions', () => {
  it('saves versions, guards concurrent edits with If-Match, and runs the saved version', async () => {
    const first = await api.put(`${base}/actions/count-orders`, countAction);
    expect(first.status).toBe(201);
    expect(first.body.version).toBe(1);
    expect(first.headers.get('etag')).toBe('"1"');
    const second = await api.put(
      `${base}/actions/count-orders`,
      { ...countAction, name: 'Count' },
      { 'if-match': '"1"' },
    );
    expect(second.body.version).toBe(2);
    const stale = await api.put(
      `${base}/actions/count-orders`,
      { ...countAction, name: 'Stale' },
      { 'if-match': '"1"' },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('state_conflict');

    const run = await api.execute('count-orders', { status: 'paid' });
    expect(run.status).toBe(200);
    expect(run.body.actionVersion).toBe(2);
    expect(run.body.results[0].rows).toEqual([{ n: 60 }]);
  });

  it('a refused update changes nothing', async () => {
    const before = await api.get(`${base}/actions/count-orders`);
    const refused = await api.put(`${base}/actions/count-orders`, {
      ...countAction,
      statements: [{ title: 'Count', sql: 'SELECT {{ nope }}' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        pointer: '#/statements/0/sql',
        detail: '{{ nope }} is not a parameter, vars.*, secrets.* or currentUser.* of this action',
      },
    ]);
    expect(await api.get(`${base}/actions/count-orders`)).toMatchObject({ status: 200, body: before.body });
  });

  it.each([
    ['a kind not allowed in SQL', { parameters: [{ name: 'doc', kind: 'json' }] }, '#/parameters/0/kind'],
    ['an unknown data source', { dataSourceId: 'missing' }, '#/dataSourceId'],
    ['a missing statement', { statements: [] }, '#/statements'],
    ['an unknown parameter kind', { parameters: [{ name: 'x', kind: 'colour' }] }, '#/parameters/0/kind'],
    ['a bad parameter name', { parameters: [{ name: '1x', kind: 'text' }] }, '#/parameters/0/name'],
  ])('refuses %s with 422 naming the field', async (_name, change, pointer) => {
    const response = await api.put(`${base}/actions/broken`, { ...countAction, id: 'broken', ...change });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect((await api.get(`${base}/actions/broken`)).status).toBe(404);
  });

  it('refuses to delete a data source that actions use, then deletes in order', async () => {
    const refused = await api.delete(`${base}/data-sources/shop`);
    expect(refused.status).toBe(409);
    expect(refused.body.actions).toEqual(['count-orders']);
    expect((await api.delete(`${base}/actions/count-orders`)).status).toBe(204);
    expect((await api.delete(`${base}/actions/count-orders`)).status).toBe(404);
    expect((await api.delete(`${base}/data-sources/shop`)).status).toBe(204);
  });
});

describe('variables and secrets', () => {
  const env = `${base}/environments/development`;

  it('variables are readable; secrets are write-only and never echoed', async () => {
    expect((await api.put(`${env}/variables/region`, { value: 'jp' })).status).toBe(201);
    expect((await api.put(`${env}/variables/region`, { value: 'ap-northeast-1' })).status).toBe(200);
    expect((await api.get(`${env}/variables`)).body.data).toContainEqual({
      name: 'region',
      value: 'ap-northeast-1',
    });

    const put = await api.put(`${env}/secrets/api_key`, { value: 'sk-live-123' });
    expect(put).toMatchObject({ status: 201, body: { name: 'api_key' } });
    const list = await api.get(`${env}/secrets`);
    expect(list.body.data).toContainEqual({ name: 'api_key', updatedAt: expect.any(String) });
    expect(JSON.stringify(list.body)).not.toContain('sk-live');
    expect(JSON.stringify((await api.get(`${env}/secrets/api_key`)).body)).not.toContain('sk-live');

    const { Items = [] } = await runtime.storage.client.send(
      new ScanCommand({ TableName: runtime.storage.tableName }),
    );
    expect(JSON.stringify(Items)).not.toContain('sk-live-123');
  });

  it('an action using them runs; the secret is bound, not recorded', async () => {
    const action = {
      id: 'whoami-sql',
      name: 'Who am I',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      statements: [
        {
          title: 'Context',
          sql: 'SELECT {{ vars.region }} AS region, length({{ secrets.api_key }}) AS key_length, {{ currentUser.email }} AS email',
        },
      ],
    };
    const saved = await api.put(`${base}/actions/whoami-sql`, action);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const run = await api.execute('whoami-sql', {});
    expect(run.body.results[0].rows).toEqual([
      { region: 'ap-northeast-1', key_length: 11, email: 'admin@dogu.local' },
    ]);
    const recorded = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${run.body.id}`,
    );
    expect(JSON.stringify(recorded.body)).not.toContain('sk-live-123');

    // Production defines neither: once published there, the run is refused clearly.
    await api.put(`${base}/actions/whoami-sql/publications/production`, { version: 1 });
    const production = await api.execute('whoami-sql', {}, 'production');
    expect(production.status).toBe(409);
    expect(production.body.detail).toBe(
      "The action uses variable 'region', which environment 'production' does not define.",
    );
  });

  it('a database error names the {{ reference }}, not $n, and says how to cast', async () => {
    await api.put(`${base}/actions/untyped`, {
      id: 'untyped',
      name: 'Untyped',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      parameters: [{ name: 'limit', kind: 'number' }],
      statements: [{ title: 'Check', sql: 'SELECT {{ limit }} IS NULL AS missing' }],
    });
    const run = await api.execute('untyped', {});
    expect(run.status).toBe(422);
    expect(run.body.detail).toBe(
      "Check: PostgreSQL error 42P18: could not determine data type of parameter {{ limit }}. Where PostgreSQL cannot infer a value's type (as in {{ x }} IS NULL), cast it: CAST({{ x }} AS integer).",
    );
  });

  it('refuses invalid names and values', async () => {
    expect((await api.put(`${env}/variables/bad-name`, { value: 'x' })).status).toBe(400);
    expect((await api.put(`${env}/secrets/ok`, { value: 5 })).status).toBe(400);
    expect((await api.delete(`${env}/secrets/missing`)).status).toBe(404);
  });
});

describe('master data', () => {
  it('offers choices with labels; a label converts to its value; unknown values are refused', async () => {
    const list = {
      id: 'statuses',
      name: 'Order statuses',
      entries: [
        { value: 'shipped', label: 'Shipped' },
        { value: 'paid', label: 'Paid' },
      ],
    };
    expect((await api.put(`${base}/master-data/statuses`, list)).status).toBe(201);
    const action = {
      id: 'by-status',
      name: 'By status',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      parameters: [{ name: 'status', kind: 'text', masterData: 'statuses', required: true }],
      statements: [{ title: 'n', sql: 'SELECT count(*)::int AS n FROM orders WHERE status = {{ status }}' }],
    };
    expect((await api.put(`${base}/actions/by-status`, action)).status).toBe(201);
    const byLabel = await api.execute('by-status', { status: 'Shipped' });
    expect(byLabel.body.arguments).toEqual({ status: 'shipped' });
    const refused = await api.execute('by-status', { status: 'lost' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].detail).toBe(`'status' must be one of "shipped", "paid".`);
    expect((await api.delete(`${base}/master-data/statuses`)).status).toBe(409);
    const missing = await api.put(`${base}/actions/by-other`, {
      ...action,
      id: 'by-other',
      parameters: [{ name: 'status', kind: 'text', masterData: 'nope' }],
    });
    expect(missing.status).toBe(422);
  });
});

describe('rights', () => {
  it('a developer edits actions but may not manage data sources or secrets; the refusal names the right', async () => {
    const developer = { kind: 'user' as const, id: 'usr_dev', email: 'dev@example.com', name: 'Dev' };
    await runtime.services.store.putMembership({
      projectId: 'demo',
      principalId: developer.id,
      role: 'developer',
    });
    const dev = apiClient(runtime, (await runtime.services.tokens.issue(developer, 600)).token);
    const refused = await dev.put(`${base}/data-sources/devs`, { ...pgSource(), id: 'devs' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      "Your role 'developer' lacks the right 'manage_data_sources' in project 'demo'.",
    );
    expect((await dev.put(`${base}/environments/development/secrets/x`, { value: 'y' })).status).toBe(403);
    expect((await dev.get(`${base}/actions`)).status).toBe(200);
  });

  it('a non-member gets 403, an unknown project 404', async () => {
    const outsider = { kind: 'user' as const, id: 'usr_out', email: 'out@example.com', name: 'Out' };
    const out = apiClient(runtime, (await runtime.services.tokens.issue(outsider, 600)).token);
    expect((await out.get(`${base}/actions`)).status).toBe(403);
    expect((await out.get('/api/v1/projects/nope/actions')).status).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('describes every deployed route with the request schemas', async () => {
    const response = await fetch(`${runtime.url}/openapi.json`);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.values(document.paths).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(operations).toEqual(
      expect.arrayContaining(['executeAction', 'putAction', 'putDataSource', 'putSecret']),
    );
    expect(operations).not.toContain('localLogin');
    expect(JSON.stringify(document.components.schemas.ActionInput)).toContain('SqlActionInput');
    expect(JSON.stringify(document.components.schemas.SqlActionInput)).toContain('"statements"');
  });
});
