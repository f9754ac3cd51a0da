/**
 * PostgreSQL and MySQL through a real bridge process: the data source names a host only the bridge
 * resolves (`pg.bridge.internal`), so the run succeeds only through the tunnel; refusals and the
 * bridge's time-out are clear errors and nothing stays open (docs/bridge.md).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActionEngines } from '../../shared/connectors/engines.ts';
import { openBridgeTunnel } from '../../shared/connectors/network/bridge-tunnel.ts';
import { loadConnectorRuntime } from '../../shared/connectors/runtimes.ts';
import type { Action, DataSource, StatementResult } from '../../shared/domain/model.ts';
import type { ActionEngines, BridgeRoute, EngineRun } from '../../shared/domain/ports.ts';
import {
  type BridgeProcess,
  routeTo,
  startBridgeProcess,
  startTestIdp,
  type TestIdp,
} from '../support/bridge.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';
import { createTestDatabase, postgresServer, type TestDatabase } from '../support/postgres.ts';

const privateHost = 'pg.bridge.internal';
let idp: TestIdp;
let bridge: BridgeProcess;
let database: TestDatabase;
let mysqlDatabase: TestMysqlDatabase;
let engines: ActionEngines;
let route: BridgeRoute;
let counter = 0;

beforeAll(async () => {
  [idp, database, mysqlDatabase] = await Promise.all([
    startTestIdp(),
    createTestDatabase('dogu_bridge'),
    createTestMysqlDatabase('dogu_bridge'),
  ]);
  bridge = await startBridgeProcess({
    id: 'office',
    issuer: idp.issuer,
    allow: [`${privateHost}:5432`, 'mysql.bridge.internal:3306'],
    hosts: { [privateHost]: '127.0.0.1', 'mysql.bridge.internal': '127.0.0.1' },
    timeoutMs: 1500,
  });
  engines = createActionEngines({ poolSize: 2 }, { loadRuntime: loadConnectorRuntime });
  route = routeTo({ id: 'office', url: bridge.url, certificates: [bridge.certificate] }, idp.idp);
});

afterAll(async () => {
  await engines?.close();
  await bridge?.stop();
  await Promise.all([idp?.close(), database?.drop(), mysqlDatabase?.drop()]);
});

function sqlRun(
  sql: string,
  extra: Partial<EngineRun> & { host?: string; limitMs?: number; kind?: 'postgresql' | 'mysql' } = {},
): EngineRun {
  counter += 1;
  const { host = privateHost, limitMs = 10_000, kind = 'postgresql', ...rest } = extra;
  const connection =
    kind === 'mysql'
      ? { host, port: 3306, database: mysqlDatabase.name, user: 'root', password: '', via: 'office' }
      : { host, port: 5432, database: database.name, user: postgresServer.user, via: 'office' };
  const dataSource = {
    id: `db-${counter}`,
    name: 'Private',
    kind,
    projectId: 'p',
    createdAt: '',
    updatedAt: '',
    environments: { dev: connection },
  } as DataSource;
  return {
    action: {
      id: 'q',
      name: 'Query',
      kind: 'sql',
      parameters: [],
      statements: [{ title: 'q', sql }],
    } as unknown as Action,
    dataSource,
    environmentId: 'dev',
    connection,
    key: `p/db-${counter}/dev`,
    values: {},
    signal: AbortSignal.timeout(limitMs),
    deadlineAt: Date.now() + limitMs,
    callAction: async (): Promise<StatementResult[]> => [],
    bridge: route,
    ...rest,
  };
}

async function backends(): Promise<number> {
  const client = new pg.Client(postgresServer);
  await client.connect();
  try {
    const result = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
      database.name,
    ]);
    return result.rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL through a bridge', () => {
  it('runs SQL on a host only the bridge can resolve; directly the host is unknown', async () => {
    const [result] = await engines.run(sqlRun('SELECT 41 + 1 AS answer, current_database() AS db'));
    expect(result).toMatchObject({ status: 'succeeded', rows: [{ answer: 42, db: database.name }] });

    const { bridge: _direct, ...direct } = sqlRun('SELECT 1');
    const [failed] = await engines.run(direct);
    expect(failed?.status).toBe('failed');
    expect(failed?.error?.message).toMatch(/host not found/);
    await expect
      .poll(() => bridge.output())
      .toMatch(/"event":"tunnel_opened".*"target":"pg\.bridge\.internal:5432".*"dataSource":"db"/);
    expect(bridge.output()).not.toMatch(/eyJ/); // no token in the bridge's log
  });

  it('ends a run at the bridge time-out with timed_out naming the bridge, and the database cancels', async () => {
    const started = Date.now();
    const [result] = await engines.run(sqlRun('SELECT pg_sleep(20)'));
    expect(Date.now() - started).toBeLessThan(6000);
    expect(result?.status).toBe('failed');
    expect(result?.error).toEqual({
      code: 'execution_timeout',
      message: expect.stringContaining("Bridge 'office' ended the run at its time-out of 1500 ms"),
    });
    await expect
      .poll(
        async () => {
          const client = new pg.Client(postgresServer);
          await client.connect();
          try {
            const r = await client.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(20)%' AND state = 'active'",
            );
            return r.rows[0].n;
          } finally {
            await client.end();
          }
        },
        { timeout: 5000 },
      )
      .toBe(0);
  });

  it('says which hop failed: a target outside the allow-list, a refused token, a bridge that is down', async () => {
    const outside = await engines.run(sqlRun('SELECT 1', { host: 'other.internal' }));
    expect(outside[0]?.error?.message).toMatch(
      /bridge 'office' refused the tunnel to other\.internal:5432: other\.internal:5432 is not on this bridge's allow-list/,
    );

    const wrongPin = routeTo({ id: 'office', url: bridge.url, certificates: [await selfSigned()] }, idp.idp);
    const pinned = engines.testConnection('postgresql', check(wrongPin));
    await expect(pinned).rejects.toThrow(/not the certificate or CA pinned for it/);

    const down = routeTo(
      { id: 'office', url: 'https://127.0.0.1:9', certificates: [bridge.certificate] },
      idp.idp,
    );
    await expect(engines.testConnection('postgresql', check(down))).rejects.toThrow(
      /Dogu could not reach bridge 'office' at https:\/\/127\.0\.0\.1:9: connection refused/,
    );
  });
});

describe('MySQL through a bridge', () => {
  it('runs SQL through the tunnel and ends a run at the bridge time-out, killing the query', async () => {
    const [result] = await engines.run(
      sqlRun('SELECT 40 + 2 AS answer, DATABASE() AS db', { kind: 'mysql', host: 'mysql.bridge.internal' }),
    );
    expect(result).toMatchObject({ status: 'succeeded', rows: [{ answer: 42, db: mysqlDatabase.name }] });

    const [slow] = await engines.run(
      sqlRun('SELECT SLEEP(20) AS slept', { kind: 'mysql', host: 'mysql.bridge.internal' }),
    );
    expect(slow?.error).toEqual({
      code: 'execution_timeout',
      message: expect.stringContaining("Bridge 'office' ended the run at its time-out of 1500 ms"),
    });
    await expect
      .poll(
        () =>
          mysqlDatabase.admin(async (c) => {
            const [rows] = await c.query(
              "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(20)%'",
            );
            return Number((rows as { n: number }[])[0]?.n);
          }),
        { timeout: 5000 },
      )
      .toBe(0);
  });
});

describe('tokens the bridge refuses', () => {
  const tunnel = (token: (target: string) => Promise<string>) =>
    openBridgeTunnel({ ...route, token }, privateHost, 5432);

  it('refuses a wrong issuer, an expired token and a replay, and opens nothing for them', async () => {
    const other = await startTestIdp('other-key');
    try {
      const foreign = routeTo(
        { id: 'office', url: bridge.url, certificates: [bridge.certificate] },
        other.idp,
      );
      await expect(tunnel(foreign.token)).rejects.toThrow(
        /bridge 'office' refused the tunnel to pg\.bridge\.internal:5432: Refused: the token's key is not in Dogu's key set/,
      );
    } finally {
      await other.close();
    }

    const impostor = { ...idp.idp, issuer: () => 'https://elsewhere.example/idp' };
    const wrongIssuer = routeTo(
      { id: 'office', url: bridge.url, certificates: [bridge.certificate] },
      impostor,
    );
    await expect(tunnel(wrongIssuer.token)).rejects.toThrow(/Refused: the token's iss claim is not accepted/);
    const otherBridge = routeTo(
      { id: 'elsewhere', url: bridge.url, certificates: [bridge.certificate] },
      idp.idp,
    );
    await expect(tunnel(otherBridge.token)).rejects.toThrow(/Refused: the token's aud claim is not accepted/);

    const past = { ...idp.idp, clock: { now: () => new Date(Date.now() - 10 * 60_000) } };
    const expired = routeTo({ id: 'office', url: bridge.url, certificates: [bridge.certificate] }, past);
    await expect(tunnel(expired.token)).rejects.toThrow(/Refused: the token has expired/);

    const once = await route.token(`${privateHost}:5432`);
    const first = await tunnel(async () => once);
    first.destroy();
    await expect(tunnel(async () => once)).rejects.toThrow(
      /refused the tunnel to pg\.bridge\.internal:5432: This token was used before/,
    );
    // The bridge's log arrives through a pipe: on a busy machine a moment after the answer.
    await expect.poll(() => bridge.output()).toMatch(/"reason":"replayed"/);
  });

  it('leaves nothing open once the engines close', async () => {
    await engines.close();
    await expect.poll(backends, { timeout: 5000 }).toBe(0);
    const metrics = await fetchMetrics();
    expect(metrics).toMatch(/dogu_bridge_tunnels_open 0/);
    expect(metrics).toMatch(/dogu_bridge_tunnels_refused_total\{reason="target_not_allowed"\} 1/);
  });
});

async function fetchMetrics(): Promise<string> {
  const { default: https } = await import('node:https');
  return new Promise((resolve, reject) => {
    https
      .get(`${bridge.url}/metrics`, { ca: bridge.certificate }, (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

async function selfSigned(): Promise<string> {
  const { selfSignedCertificate } = await import('../support/http-server.ts');
  return (await selfSignedCertificate()).cert;
}

function check(bridgeRoute: BridgeRoute) {
  return {
    key: 'p/check/dev',
    connection: { host: privateHost, port: 5432, database: database.name, user: 'postgres', via: 'office' },
    signal: AbortSignal.timeout(10_000),
    bridge: bridgeRoute,
  };
}
