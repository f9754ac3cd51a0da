/**
 * Bench `mysql`: what does running a MySQL action through Dogu cost compared
 * with running its SQL yourself? An orders query through the public API of
 * the embedded runtime (in its own process) against the identical statement
 * through a raw `mysql2` pool, on the same MariaDB/MySQL database, in one run
 * so both sides see the same machine state. Same phases, order and targets
 * as bench `execution` (PostgreSQL), so the two read side by side.
 *
 * The data source and the action are created through the management API
 * (PUT /api/v1/projects/demo/...), as a user would; without that API the
 * bench stops with a message saying so.
 */
import mysql from 'mysql2/promise';
import { deferCleanup } from './lib/cleanup.ts';
import { compareSubjects, type Subject, standardPhases } from './lib/compare.ts';
import { DoguSession } from './lib/dogu.ts';
import { rssMbOf } from './lib/memory.ts';
import { createScratchDatabase } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import type { BenchReport } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { announce, endedDuringRun } from './lib/server-process.ts';
import { withTeardown } from './lib/teardown.ts';

export const title = "a MySQL orders action via Dogu's public API vs the same SQL via raw mysql2";

/** The maintenance connection; only loopback traffic, root without a password as on a developer machine. */
const server = {
  host: process.env.BENCH_MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.BENCH_MYSQL_PORT ?? 3306),
  user: process.env.BENCH_MYSQL_USER ?? 'root',
  password: process.env.BENCH_MYSQL_PASSWORD ?? '',
};

const action = { project: 'demo', environment: 'development', id: 'bench-mysql-orders' } as const;
const dataSourceId = 'bench-mysql';
const actionArguments = { status: 'shipped', limit: 5 };
/** What the action's template compiles to for MySQL: `{{ name }}` becomes `?`. */
const rawSql =
  'SELECT id, customer_id, status, total_yen, ordered_at FROM orders WHERE status = ? ORDER BY id LIMIT ?';
const rawValues = [actionArguments.status, actionArguments.limit];
const expectedRows = actionArguments.limit;

const parameters = {
  action: `${action.project}/${action.environment}/${action.id}`,
  arguments: actionArguments,
  rawSql,
  rawValues,
  /** The runtime's pool size when DOGU_DEMO_DATABASE_URL is set (see run()); raw mysql2 gets the same. */
  poolSize: 10,
  /** Both sides use server-side prepared statements (mysql2 `execute`), as the connector does. */
  rawDriverCall: 'pool.execute(sql, values)',
  ...standardPhases,
};

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    const mysqlVersion = await withServer(async (c) => {
      const [rows] = await c.query('SELECT VERSION() AS version');
      return String((rows as { version: string }[])[0]?.version ?? 'unknown');
    });
    const database = await createScratchMysqlDatabase('dogu_bench_mysql');
    defer(() => database.drop(), `dropped MySQL database ${database.name}`);
    progress(`created MySQL database ${database.name} (${mysqlVersion})`);
    await seedOrders(database.name);
    // The runtime picks its pool size by its demo database: 10 with a real PostgreSQL server (as on AWS),
    // 4 for the embedded PGlite. A scratch PostgreSQL database gives the MySQL pool the production size too.
    const demo = await createScratchDatabase('dogu_bench_mysql_demo');
    defer(() => demo.drop());
    const runtime = announce(
      'runtime',
      await startRuntimeProcess({ env: { DOGU_DEMO_DATABASE_URL: demo.url } }),
      defer,
    );

    const raw = rawMysqlSubject(database.name);
    defer(raw.close);
    const dogu = await DoguSession.login(runtime.url, parameters);
    defer(() => dogu.close());
    await createDefinitions(dogu, database.name);

    const comparison = await compareSubjects({
      baseline: raw,
      subject: {
        ...dogu.executionSubject(action, actionArguments, expectedRows),
        rssMb: () => rssMbOf(runtime.pid),
      },
      phases: parameters,
    });
    return {
      bench: 'mysql',
      title,
      startedAt,
      finishedAt: new Date().toISOString(),
      parameters,
      environment: { mysql: mysqlVersion, database: database.name, runtimePid: runtime.pid },
      ...comparison,
      notes: endedDuringRun({ runtime }),
    };
  });
}

/** The data source and the action, through the management API as a user would create them. */
async function createDefinitions(dogu: DoguSession, databaseName: string): Promise<void> {
  await dogu.put(`/api/v1/projects/${action.project}/data-sources/${dataSourceId}`, {
    id: dataSourceId,
    name: 'Bench MySQL',
    kind: 'mysql',
    environments: {
      [action.environment]: {
        host: server.host,
        port: server.port,
        database: databaseName,
        user: server.user,
        password: server.password,
      },
    },
  });
  await dogu.put(`/api/v1/projects/${action.project}/actions/${action.id}`, {
    id: action.id,
    name: 'Bench MySQL orders',
    kind: 'sql',
    dataSourceId,
    statements: [
      {
        title: 'Orders',
        sql: 'SELECT id, customer_id, status, total_yen, ordered_at FROM orders WHERE status = {{ status }} ORDER BY id LIMIT {{ limit }}',
      },
    ],
    parameters: [
      { name: 'status', kind: 'text', required: true },
      { name: 'limit', kind: 'number' },
    ],
  });
}

/** The baseline: what an engineer would write by hand with the same driver, pool size and prepared statements. */
function rawMysqlSubject(databaseName: string): Subject & { close(): Promise<void> } {
  const pool = mysql.createPool({ ...server, database: databaseName, connectionLimit: parameters.poolSize });
  return {
    name: 'raw mysql2',
    label: 'raw',
    async request() {
      const [rows] = await pool.execute(rawSql, rawValues);
      const count = Array.isArray(rows) ? rows.length : undefined;
      if (count !== expectedRows) throw new Error(`expected ${expectedRows} rows, got ${count}`);
    },
    close: () => pool.end(),
  };
}

interface ScratchMysqlDatabase {
  name: string;
  drop(): Promise<void>;
}

/** A throwaway database per run, recognisable by its name if a crashed run leaves it behind. */
async function createScratchMysqlDatabase(prefix: string): Promise<ScratchMysqlDatabase> {
  const name = `${prefix}_${process.pid}`;
  // Identifiers cannot be bound; the name is ours and only [a-z0-9_], but refuse anything else anyway.
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe database name '${name}'.`);
  await withServer(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await c.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  });
  const drop = deferCleanup(`drop MySQL database ${name}`, () =>
    withServer((c) => c.query(`DROP DATABASE IF EXISTS \`${name}\``)).then(() => {}),
  );
  return { name, drop };
}

/** The demo's customers and orders (local/demo-database.ts), in MySQL's dialect and with the same rows. */
async function seedOrders(databaseName: string): Promise<void> {
  const statuses = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];
  const countries = ['JP', 'US', 'DE', 'FR', 'GB'];
  const range = (n: number) => Array.from({ length: n }, (_, k) => k + 1);
  // The demo's times are in +09:00; DATETIME keeps that wall-clock time.
  const at = (start: string, hours: number) =>
    new Date(Date.parse(`${start}+09:00`) + (hours + 9) * 3_600_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
  await withServer(async (c) => {
    await c.query(`USE \`${databaseName}\``);
    await c.query(`CREATE TABLE customers (
      id INT AUTO_INCREMENT PRIMARY KEY,
      name VARCHAR(100) NOT NULL,
      email VARCHAR(200) NOT NULL UNIQUE,
      country CHAR(2) NOT NULL,
      created_at DATETIME NOT NULL
    )`);
    await c.query(`CREATE TABLE orders (
      id INT AUTO_INCREMENT PRIMARY KEY,
      customer_id INT NOT NULL,
      status VARCHAR(20) NOT NULL CHECK (status IN ('pending','paid','shipped','delivered','cancelled')),
      total_yen INT NOT NULL,
      ordered_at DATETIME NOT NULL,
      FOREIGN KEY (customer_id) REFERENCES customers (id),
      INDEX orders_status_idx (status, id)
    )`);
    // Seed data is ours and fixed: mysql2's bulk VALUES ? expansion is fine here.
    await c.query('INSERT INTO customers (name, email, country, created_at) VALUES ?', [
      range(60).map((i) => [
        `Customer ${i}`,
        `customer${i}@example.com`,
        countries[i % 5],
        at('2026-01-01T00:00:00', i * 24),
      ]),
    ]);
    await c.query('INSERT INTO orders (customer_id, status, total_yen, ordered_at) VALUES ?', [
      range(300).map((i) => [
        1 + ((i * 7) % 60),
        statuses[(i * 3) % 5],
        500 + ((i * 997) % 30000),
        at('2026-03-01T09:00:00', i * 5),
      ]),
    ]);
  });
}

async function withServer<T>(work: (connection: mysql.Connection) => Promise<T>): Promise<T> {
  const connection = await mysql.createConnection(server);
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}
