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
import { HttpClient, type PreparedRequest } from './lib/http-client.ts';
import { type LoadLimit, type RequestFn, runLoad } from './lib/load.ts';
import { createScratchDatabase } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, errorsIn, type Phase } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { round3 } from './lib/stats.ts';

export const title = "a MySQL orders action via Dogu's public API vs the same SQL via raw mysql2";

/** The maintenance connection; only loopback traffic, root without a password as on a developer machine. */
const server = {
  host: process.env.BENCH_MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.BENCH_MYSQL_PORT ?? 3306),
  user: process.env.BENCH_MYSQL_USER ?? 'root',
  password: process.env.BENCH_MYSQL_PASSWORD ?? '',
};

const project = 'demo';
const environment = 'development';
const dataSourceId = 'bench-mysql';
const actionId = 'bench-mysql-orders';
const actionArguments = { status: 'shipped', limit: 5 };
/** What the action's template compiles to for MySQL: `{{ name }}` becomes `?`. */
const rawSql =
  'SELECT id, customer_id, status, total_yen, ordered_at FROM orders WHERE status = ? ORDER BY id LIMIT ?';
const rawValues = [actionArguments.status, actionArguments.limit];
const expectedRows = actionArguments.limit;

const parameters = {
  action: `${project}/${environment}/${actionId}`,
  arguments: actionArguments,
  rawSql,
  rawValues,
  /** The runtime's pool size when DOGU_DEMO_DATABASE_URL is set (see run()); raw mysql2 gets the same. */
  poolSize: 10,
  /** Both sides use server-side prepared statements (mysql2 `execute`), as the connector does. */
  rawDriverCall: 'pool.execute(sql, values)',
  warmUpSequentialRequests: 200,
  warmUpConcurrentRequests: 1_000,
  latencyConcurrency: 1,
  latencyRequests: 2_000,
  throughputConcurrency: 32,
  throughputDurationMs: 5_000,
  targets: { addedP50LatencyMs: 2, throughputRatioPercent: 40 },
};

interface Subject {
  name: string;
  request: RequestFn;
  close(): Promise<void>;
}

export async function run(): Promise<BenchReport> {
  const startedAt = new Date().toISOString();
  const mysqlVersion = await withServer(async (c) => {
    const [rows] = await c.query('SELECT VERSION() AS version');
    return String((rows as { version: string }[])[0]?.version ?? 'unknown');
  });
  const database = await createScratchMysqlDatabase('dogu_bench_mysql');
  progress(`created MySQL database ${database.name} (${mysqlVersion})`);
  try {
    await seedOrders(database.name);
    // The runtime picks its pool size by its demo database: 10 with a real PostgreSQL server (as on AWS),
    // 4 for the embedded PGlite. A scratch PostgreSQL database gives the MySQL pool the production size too.
    const demo = await createScratchDatabase('dogu_bench_mysql_demo');
    try {
      const runtime = await startRuntimeProcess({ env: { DOGU_DEMO_DATABASE_URL: demo.url } });
      progress(`runtime pid ${runtime.pid} listening at ${runtime.url}`);
      try {
        const subjects = {
          raw: rawMysqlSubject(database.name),
          dogu: await doguSubject(runtime.url, database.name),
        };
        try {
          const phases = await measure(subjects);
          const notes: string[] = [];
          const ended = runtime.endedBecause();
          if (ended)
            notes.push(
              `the runtime ended during the run (${ended}); its last output:\n${runtime.outputTail()}`,
            );
          return {
            bench: 'mysql',
            title,
            startedAt,
            finishedAt: new Date().toISOString(),
            parameters,
            environment: { mysql: mysqlVersion, database: database.name, runtimePid: runtime.pid },
            phases,
            checks: compare(phases, subjects),
            errors: errorsIn(phases),
            notes,
          };
        } finally {
          for (const subject of Object.values(subjects)) await subject.close();
        }
      } finally {
        await runtime.stop();
        progress('runtime stopped');
      }
    } finally {
      await demo.drop();
    }
  } finally {
    await database.drop();
    progress(`dropped MySQL database ${database.name}`);
  }
}

interface Subjects {
  raw: Subject;
  dogu: Subject;
}

/** Warm both sides up first, then alternate them phase by phase so slow drift of the machine hits them alike. */
async function measure({ raw, dogu }: Subjects): Promise<Phase[]> {
  const p = parameters;
  const oneAtATime = (requests: number) => ({ concurrency: p.latencyConcurrency, limit: { requests } });
  const concurrent = (limit: LoadLimit) => ({ concurrency: p.throughputConcurrency, limit });
  const plan: [name: string, load: { concurrency: number; limit: LoadLimit }][] = [
    ['warm-up', oneAtATime(p.warmUpSequentialRequests)],
    ['warm-up', concurrent({ requests: p.warmUpConcurrentRequests })],
    ['latency', oneAtATime(p.latencyRequests)],
    ['throughput', concurrent({ durationMs: p.throughputDurationMs })],
  ];
  const phases: Phase[] = [];
  for (const [name, load] of plan) {
    for (const subject of [raw, dogu]) {
      progress(`${name}: ${subject.name} at concurrency ${load.concurrency}`);
      const result = await runLoad(subject.request, load);
      if (result.errors > 0) progress(`  ${result.errors} error(s), e.g. ${result.errorSamples[0]}`);
      phases.push({ name, subject: subject.name, ...result });
    }
  }
  return phases;
}

function compare(phases: readonly Phase[], { raw, dogu }: Subjects) {
  const find = (name: string, subject: Subject) =>
    phases.find((p) => p.name === name && p.subject === subject.name)!;
  const p50 = (subject: Subject) => find('latency', subject).latencyMs.p50;
  const p99 = (subject: Subject) => find('latency', subject).latencyMs.p99;
  const perSecond = (subject: Subject) => find('throughput', subject).requestsPerSecond;
  const { targets } = parameters;
  return [
    check('added p50 latency (dogu - raw)', round3(p50(dogu) - p50(raw)), 'ms', {
      comparison: '<=',
      value: targets.addedP50LatencyMs,
    }),
    check('added p99 latency (dogu - raw)', round3(p99(dogu) - p99(raw)), 'ms'),
    check('throughput ratio (dogu / raw)', round3((perSecond(dogu) / perSecond(raw)) * 100), '%', {
      comparison: '>=',
      value: targets.throughputRatioPercent,
    }),
  ];
}

/** Dogu as a client sees it: a data source and an action created through the management API, then HTTP. */
async function doguSubject(url: string, databaseName: string): Promise<Subject> {
  const client = new HttpClient(url, { maxSockets: parameters.throughputConcurrency * 2, timeoutMs: 30_000 });
  const login = await client.send(client.prepare('POST', '/local/v1/login'));
  if (login.status !== 200) throw new Error(`Local login answered ${login.status}: ${login.body}`);
  const { token } = JSON.parse(login.body) as { token: string };
  const authorization = `Bearer ${token}`;
  await putDefinition(url, authorization, `/api/v1/projects/${project}/data-sources/${dataSourceId}`, {
    id: dataSourceId,
    name: 'Bench MySQL',
    kind: 'mysql',
    environments: {
      [environment]: {
        host: server.host,
        port: server.port,
        database: databaseName,
        user: server.user,
        password: server.password,
      },
    },
  });
  await putDefinition(url, authorization, `/api/v1/projects/${project}/actions/${actionId}`, {
    id: actionId,
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
  const execute = client.prepare(
    'POST',
    `/public/v1/projects/${project}/environments/${environment}/actions/${actionId}/executions`,
    { headers: { authorization }, json: { arguments: actionArguments } },
  );
  return {
    name: 'dogu',
    request: () => sendAndCheck(client, execute),
    async close() {
      client.close();
    },
  };
}

/**
 * Creates or replaces a definition; anything but 200/201 stops the bench with the answer in the message.
 * Setup, not measured: plain fetch (the bench's HttpClient sends only GET and POST).
 */
async function putDefinition(
  baseUrl: string,
  authorization: string,
  path: string,
  body: unknown,
): Promise<void> {
  const response = await fetch(new URL(path, baseUrl), {
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status === 200 || response.status === 201) return;
  const text = (await response.text()).slice(0, 300);
  const missingApi = response.status === 404 || response.status === 405;
  throw new Error(
    `PUT ${path} answered ${response.status}: ${text}` +
      (missingApi
        ? '\nThis bench creates its MySQL data source and action through the management API ' +
          '(PUT /api/v1/projects/{projectId}/data-sources/{id} and .../actions/{id}); this runtime does not serve it yet.'
        : ''),
  );
}

/** Successful only with status 200 and the expected rows in results[0].rows. */
async function sendAndCheck(client: HttpClient, request: PreparedRequest): Promise<void> {
  const response = await client.send(request);
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  const parsed = JSON.parse(response.body) as { results?: { rows?: unknown[] }[] };
  const rows = parsed.results?.[0]?.rows?.length;
  if (rows !== expectedRows) throw new Error(`expected ${expectedRows} rows, got ${rows}`);
}

/** The baseline: what an engineer would write by hand with the same driver, pool size and prepared statements. */
function rawMysqlSubject(databaseName: string): Subject {
  const pool = mysql.createPool({ ...server, database: databaseName, connectionLimit: parameters.poolSize });
  return {
    name: 'raw mysql2',
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
