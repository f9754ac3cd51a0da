/**
 * The connector seam seen through the API of a real runtime: every kind described by
 * GET /api/v1/connector-kinds, and "test connection" against real PostgreSQL, MariaDB and HTTP
 * servers (success with the time taken, and each way it fails, never echoing a secret).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { startHttpServer, type TestServer, unusedPort } from '../support/http-server.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let mysql: TestMysqlDatabase;
let web: TestServer;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';
const canary = 'canary-Pa55word-7f3e';

beforeAll(async () => {
  dir = await tempDir('connectors');
  [database, mysql, web] = await Promise.all([
    createTestDatabase(),
    createTestMysqlDatabase(),
    startHttpServer((_request, response) => response.writeHead(204).end()),
  ]);
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  api = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([database?.drop(), mysql?.drop(), web?.close()]);
});

async function testConnection(kind: string, connection: Record<string, unknown>) {
  const id = `try-${kind}-${Math.random().toString(36).slice(2, 8)}`;
  const saved = await api.put(`${base}/data-sources/${id}`, {
    id,
    name: id,
    kind,
    environments: { development: connection },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return api.post(`${base}/data-sources/${id}/environments/development/test-connection`, {});
}

describe('GET /api/v1/connector-kinds', () => {
  it('describes every kind with its forms in English and Japanese', async () => {
    const answer = await api.get('/api/v1/connector-kinds');
    expect(answer.status).toBe(200);
    const kinds = answer.body.data as { kind: string; actionKind: string; secretFields: string[] }[];
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['postgresql', 'mysql', 'http']));
    const postgres = answer.body.data.find((k: { kind: string }) => k.kind === 'postgresql');
    expect(postgres.actionKind).toBe('sql');
    expect(postgres.secretFields).toEqual(['password']);
    const password = postgres.connectionFields.find((f: { name: string }) => f.name === 'password');
    expect(password).toMatchObject({
      type: 'password',
      secret: true,
      label: { en: 'Password', ja: 'パスワード' },
    });
    const http = answer.body.data.find((k: { kind: string }) => k.kind === 'http');
    expect(http.authAction).toBe(true);
    expect(http.connectionFields.map((f: { name: string }) => f.name)).toContain('headers');
  });

  it('answers only signed-in callers', async () => {
    const anonymous = await fetch(`${runtime.url}/api/v1/connector-kinds`);
    expect(anonymous.status).toBe(401);
  });
});

describe('test connection', () => {
  it('succeeds on PostgreSQL, MariaDB and an HTTP server, with the time taken', async () => {
    for (const [kind, connection] of [
      ['postgresql', database.connection],
      ['mysql', mysql.connection],
      ['http', { url: web.url }],
    ] as const) {
      const answer = await testConnection(kind, connection);
      expect(answer.status, kind).toBe(200);
      expect(answer.body, kind).toMatchObject({ ok: true });
      expect(answer.body.durationMs, kind).toBeGreaterThanOrEqual(0);
    }
  });

  it('names a refused password, a missing database and an unreachable host, never the password', async () => {
    const wrongPassword = await testConnection('mysql', { ...mysql.connection, password: canary });
    expect(wrongPassword.body.ok).toBe(false);
    expect(wrongPassword.body.error.message).toMatch(/denied|authentication|password/i);

    const noDatabase = await testConnection('postgresql', {
      ...database.connection,
      database: 'no_such_db_xyz',
    });
    expect(noDatabase.body.ok).toBe(false);
    expect(noDatabase.body.error.message).toMatch(/no_such_db_xyz|does not exist/);

    const port = await unusedPort();
    const unreachable = await testConnection('postgresql', {
      ...database.connection,
      port,
      password: canary,
    });
    expect(unreachable.body).toMatchObject({ ok: false, error: { code: 'data_source_error' } });
    const http = await testConnection('http', { url: `http://127.0.0.1:${port}` });
    expect(http.body.ok).toBe(false);

    for (const answer of [wrongPassword, noDatabase, unreachable])
      expect(JSON.stringify(answer.body)).not.toContain(canary);
  });

  it('tries settings before they are saved: a new data source, and a saved one with its stored password', async () => {
    const draftTest = (id: string, body: unknown) =>
      api.post(`${base}/data-sources/${id}/environments/development/test-connection`, body);
    // Nothing saved under this id: the form's settings alone are tried.
    const unsaved = await draftTest('not-saved-yet', { kind: 'postgresql', connection: database.connection });
    expect(unsaved.status, JSON.stringify(unsaved.body)).toBe(200);
    expect(unsaved.body).toMatchObject({ ok: true });
    expect((await api.get(`${base}/data-sources/not-saved-yet`)).status).toBe(404);
    const wrong = await draftTest('not-saved-yet', {
      kind: 'postgresql',
      connection: { ...database.connection, database: 'no_such_db_xyz' },
    });
    expect(wrong.body.ok).toBe(false);
    expect(wrong.body.error.message).toMatch(/no_such_db_xyz|does not exist/);

    // A saved MariaDB source: the form leaves the password empty, so the stored one is used.
    const id = 'saved-mysql';
    expect(
      (
        await api.put(`${base}/data-sources/${id}`, {
          id,
          name: id,
          kind: 'mysql',
          environments: { development: mysql.connection },
        })
      ).status,
    ).toBe(201);
    const { password: _stored, ...withoutPassword } = mysql.connection as Record<string, unknown>;
    const kept = await draftTest(id, { kind: 'mysql', connection: withoutPassword });
    expect(kept.body).toMatchObject({ ok: true });
    const changed = await draftTest(id, {
      kind: 'mysql',
      connection: { ...withoutPassword, password: canary },
    });
    expect(changed.body.ok).toBe(false);
    expect(JSON.stringify(changed.body)).not.toContain(canary);

    // A wrong draft is refused in words, per field.
    const refused = await draftTest(id, { kind: 'mysql', connection: { ...withoutPassword, port: 70000 } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { pointer: '#/connection/port', detail: 'must be at most 65535', ja: '65535 以下にしてください' },
    ]);
    const unknownKind = await draftTest(id, { kind: 'oracle', connection: {} });
    expect(unknownKind.body.errors).toEqual([
      { pointer: '#/kind', detail: "'oracle' is not a data source kind" },
    ]);
    expect((await draftTest(id, { kind: 'mysql', connection: withoutPassword, extra: 1 })).status).toBe(422);
  });

  it('is refused to members who may not manage data sources, and 404s for an unknown environment', async () => {
    const missing = await api.post(
      `${base}/data-sources/demo-postgres/environments/nowhere/test-connection`,
      {},
    );
    expect(missing.status).toBe(404);
    const outsider = await fetch(
      `${runtime.url}${base}/data-sources/demo-postgres/environments/development/test-connection`,
      { method: 'POST' },
    );
    expect(outsider.status).toBe(401);
  });
});
