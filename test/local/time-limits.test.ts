/**
 * Spec 8 and 7.3 at the boundary, on a real runtime with a 2 s limit (the rule is the same at 60 s):
 * every kind ends at its limit with 504 `execution_timeout` naming the limit, the engine's work is
 * cancelled, and the answer, the execution record and the audit entry agree.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, postgresServer, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const limitMs = 2_000;
let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';

async function saved(path: string, body: unknown) {
  const answer = await api.put(`${base}/${path}`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

/** Runs the action, checks the 504 answer, its execution record and its audit entry agree. */
async function timesOut(actionId: string, limitText: RegExp) {
  const started = Date.now();
  const answer = await api.execute(actionId, {});
  const took = Date.now() - started;
  expect(answer.status, JSON.stringify(answer.body)).toBe(504);
  expect(answer.body).toMatchObject({ code: 'execution_timeout', status: 504 });
  expect(answer.body.detail).toMatch(limitText);
  expect(answer.body.execution.error.message).toBe(answer.body.detail);
  const execution = answer.body.execution;
  expect(execution.status).toBe('timed_out');
  const recorded = await api.get(
    `/public/v1/projects/demo/environments/development/executions/${execution.id}`,
  );
  expect(recorded.body).toMatchObject({ status: 'timed_out', error: { code: 'execution_timeout' } });
  const audit = await api.get(`${base}/audit-log?event=execution.run&target=${actionId}`);
  expect(audit.body.data[0]).toMatchObject({
    outcome: 'failed',
    details: { status: 504, code: 'execution_timeout', executionId: execution.id },
  });
  return took;
}

beforeAll(async () => {
  dir = await tempDir('time-limits');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url, maxExecutionMs: limitMs });
  api = apiClient(runtime, await loginToken(runtime));
  await saved('data-sources/pg', {
    id: 'pg',
    name: 'PG',
    kind: 'postgresql',
    environments: { development: database.connection, production: database.connection },
  });
  await saved('data-sources/scripts', {
    id: 'scripts',
    name: 'Scripts',
    kind: 'javascript',
    environments: { development: {}, production: {} },
  });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

describe('the time limit', () => {
  it('PostgreSQL: 504 at the limit, the query cancelled on the server', async () => {
    await saved('actions/pg-sleep', {
      id: 'pg-sleep',
      name: 'pg-sleep',
      kind: 'sql',
      dataSourceId: 'pg',
      statements: [{ title: 'Sleep', sql: 'SELECT pg_sleep(30)' }],
    });
    const took = await timesOut('pg-sleep', /time limit of 2 s/);
    expect(took).toBeLessThan(limitMs + 1_500);
    const admin = new pg.Client(postgresServer);
    await admin.connect();
    const { rows } = await admin.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(30)%' AND state = 'active'",
    );
    await admin.end();
    expect(rows[0].n).toBe(0);
  });

  it('JavaScript: 504 at the limit', async () => {
    await saved('actions/js-loop', {
      id: 'js-loop',
      name: 'js-loop',
      kind: 'javascript',
      dataSourceId: 'scripts',
      code: 'while (true) {}',
    });
    const took = await timesOut('js-loop', /time limit of 2 s/);
    expect(took).toBeLessThan(limitMs + 1_500);
  });
});
