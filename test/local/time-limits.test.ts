/**
 * Spec 8 and 7.3 at the boundary, on a real runtime with a 2 s limit (the rule is the same at 60 s):
 * every kind ends at its limit with 504 `execution_timeout` naming the limit, the engine's work is
 * cancelled, and the answer, the execution record and the audit entry agree.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoGrpcServer, startDemoGrpcServer } from '../../local/demo-grpc/server.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';
import { createTestDatabase, postgresServer, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const limitMs = 2_000;
let runtime: LocalRuntime;
let database: TestDatabase;
let maria: TestMysqlDatabase;
let slowGrpc: DemoGrpcServer;
let slowHttp: Server;
/** Requests the slow HTTP server has seen closed by their client. */
let httpRequestsClosed = 0;
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
  slowHttp = createServer((request) => request.on('close', () => httpRequestsClosed++));
  slowHttp.listen(0, '127.0.0.1');
  [database, maria, slowGrpc] = await Promise.all([
    createTestDatabase(),
    createTestMysqlDatabase(),
    startDemoGrpcServer({ port: 0, delayMs: 30_000 }),
    once(slowHttp, 'listening'),
  ]);
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url, maxExecutionMs: limitMs });
  api = apiClient(runtime, await loginToken(runtime));
  await saved('data-sources/pg', {
    id: 'pg',
    name: 'PG',
    kind: 'postgresql',
    environments: { development: database.connection, production: database.connection },
  });
  const httpUrl = `http://127.0.0.1:${(slowHttp.address() as AddressInfo).port}`;
  await saved('data-sources/pg-short', {
    id: 'pg-short',
    name: 'PG short',
    kind: 'postgresql',
    environments: { development: { ...database.connection, statementTimeoutMs: 500 } },
  });
  await saved('data-sources/maria', {
    id: 'maria',
    name: 'Maria',
    kind: 'mysql',
    environments: { development: maria.connection },
  });
  await saved('data-sources/slow-http', {
    id: 'slow-http',
    name: 'Slow HTTP',
    kind: 'http',
    environments: { development: { url: httpUrl } },
  });
  await saved('data-sources/short-http', {
    id: 'short-http',
    name: 'Short HTTP',
    kind: 'http',
    environments: { development: { url: httpUrl, timeoutMs: 500 } },
  });
  await saved('data-sources/slow-grpc', {
    id: 'slow-grpc',
    name: 'Slow gRPC',
    kind: 'grpc',
    environments: { development: { address: slowGrpc.address } },
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
  await Promise.all([database?.drop(), maria?.drop(), slowGrpc?.close()]);
  slowHttp?.close();
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
    expect(took).toBeLessThan(limitMs + 2_500);
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
    expect(took).toBeLessThan(limitMs + 2_500);
  });

  it('MariaDB: 504 at the limit, the statement killed on the server', async () => {
    await saved('actions/maria-sleep', {
      id: 'maria-sleep',
      name: 'maria-sleep',
      kind: 'sql',
      dataSourceId: 'maria',
      statements: [{ title: 'Sleep', sql: 'SELECT SLEEP(30) AS slept' }],
    });
    const took = await timesOut('maria-sleep', /time limit of 2 s/);
    expect(took).toBeLessThan(limitMs + 2_500);
    const [rows] = await maria.admin((c) =>
      c.query("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(30)%'"),
    );
    expect(Number((rows as { n: number }[])[0]!.n)).toBe(0);
  });

  it('HTTP: 504 at the limit, the request closed', async () => {
    await saved('actions/http-slow', {
      id: 'http-slow',
      name: 'http-slow',
      kind: 'http',
      dataSourceId: 'slow-http',
      method: 'GET',
      path: '/slow',
    });
    const closedBefore = httpRequestsClosed;
    const took = await timesOut('http-slow', /time limit of 2 s/);
    expect(took).toBeLessThan(limitMs + 2_500);
    await expect.poll(() => httpRequestsClosed).toBeGreaterThan(closedBefore);
  });

  it('gRPC: 504 at the limit', async () => {
    await saved('actions/grpc-slow', {
      id: 'grpc-slow',
      name: 'grpc-slow',
      kind: 'grpc',
      dataSourceId: 'slow-grpc',
      service: 'shop.v1.OrderService',
      method: 'GetOrder',
      request: '{"id": "ord-1001"}',
    });
    const took = await timesOut('grpc-slow', /time limit of 2 s/);
    expect(took).toBeLessThan(limitMs + 2_500);
  });

  it('a JavaScript chain: the nested run and its caller end at the top-level limit', async () => {
    await saved('actions/js-chain', {
      id: 'js-chain',
      name: 'js-chain',
      kind: 'javascript',
      dataSourceId: 'scripts',
      code: 'return await actions.run("js-loop", {});',
    });
    const took = await timesOut('js-chain', /time limit of 2 s/);
    expect(took).toBeLessThan(limitMs + 2_500);
  });

  it("a data source's shorter time-out ends the run earlier with the same answer, naming that limit", async () => {
    await saved('actions/pg-short-sleep', {
      id: 'pg-short-sleep',
      name: 'pg-short-sleep',
      kind: 'sql',
      dataSourceId: 'pg-short',
      statements: [{ title: 'Sleep', sql: 'SELECT pg_sleep(30)' }],
    });
    expect(await timesOut('pg-short-sleep', /statementTimeoutMs 500 ms/)).toBeLessThan(1_500);
    await saved('actions/http-short', {
      id: 'http-short',
      name: 'http-short',
      kind: 'http',
      dataSourceId: 'short-http',
      method: 'GET',
      path: '/slow',
    });
    expect(await timesOut('http-short', /500 ms/)).toBeLessThan(1_500);
  });
});
