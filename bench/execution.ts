/**
 * Bench `execution`: what does running an action through Dogu cost compared
 * with running its SQL yourself? The demo action `list-orders` through the
 * public API of the embedded runtime (in its own process) against the
 * identical statement through a raw `pg` pool, on the same PostgreSQL
 * database, in one run so all sides see the same machine state.
 *
 * A third side, the "http floor", is a bare node:http server doing the same
 * query (bench/lib/http-floor-server.ts, also its own process): the least
 * any HTTP service pays on this machine. The targets compare Dogu with raw
 * pg; the comparison with the floor is information, it says how much of the
 * gap is Dogu's own.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import { HttpClient, type PreparedRequest } from './lib/http-client.ts';
import { type LoadLimit, type RequestFn, runLoad } from './lib/load.ts';
import { createScratchDatabase, serverVersion } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, errorsIn, type Phase } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { type ServerProcess, startServerProcess } from './lib/server-process.ts';
import { round3 } from './lib/stats.ts';

export const title = "list-orders via Dogu's public API vs the same SQL via raw pg";

const action = { project: 'demo', environment: 'development', id: 'list-orders' } as const;
const actionArguments = { status: 'shipped', limit: 5 };
/** What the action's template compiles to, less its line breaks. */
const rawSql =
  'SELECT id, customer_id, status, total_yen, ordered_at FROM orders WHERE status = $1 ORDER BY id LIMIT $2';
/** The action's arguments in $n order; the http floor maps the request's arguments with these names. */
const parameterNames = ['status', 'limit'] as const;
const rawValues = parameterNames.map((name) => actionArguments[name]);
const expectedRows = actionArguments.limit;

const parameters = {
  action: `${action.project}/${action.environment}/${action.id}`,
  arguments: actionArguments,
  rawSql,
  rawValues,
  /** The runtime's pool size when DOGU_DEMO_DATABASE_URL is set; raw pg and the http floor get the same. */
  poolSize: 10,
  httpFloor: {
    server: 'bench/lib/http-floor-server.ts',
    request: 'POST /execute {"arguments":{...}}, no authentication',
    response: '{"results":[{"rows":[...]}]}',
  },
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
  const postgresVersion = await serverVersion();
  const database = await createScratchDatabase('dogu_bench');
  progress(`created database ${database.name}`);
  try {
    // Absolute, because the runtime runs in the repository root, not in our working directory.
    const profileDir = process.env.BENCH_CPU_PROF_DIR ? resolve(process.env.BENCH_CPU_PROF_DIR) : undefined;
    const runtime = await startRuntimeProcess({
      // The real server, not the embedded PGlite: PGlite runs one query at a time and would be
      // the bottleneck.
      env: { DOGU_DEMO_DATABASE_URL: database.url },
      ...(profileDir ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] } : {}),
    });
    progress(`runtime pid ${runtime.pid} listening at ${runtime.url}`);
    try {
      const floor = await startHttpFloorProcess(database.url);
      progress(`http floor pid ${floor.pid} listening at ${floor.url}`);
      try {
        const subjects = {
          raw: rawPgSubject(database.url),
          floor: httpFloorSubject(floor.url),
          dogu: await doguSubject(runtime.url),
        };
        try {
          const phases = await measure(subjects);
          const notes = profileDir
            ? [`CPU profile of the runtime written to ${profileDir} when it stopped`]
            : [];
          // A server that died mid-run explains every later error; its last words belong in the report.
          for (const [label, server] of [
            ['runtime', runtime],
            ['http floor', floor],
          ] as const) {
            const ended = server.endedBecause();
            if (ended)
              notes.push(
                `the ${label} ended during the run (${ended}); its last output:\n${server.outputTail()}`,
              );
          }
          return {
            bench: 'execution',
            title,
            startedAt,
            finishedAt: new Date().toISOString(),
            parameters,
            environment: {
              postgres: postgresVersion,
              database: database.name,
              runtimePid: runtime.pid,
              httpFloorPid: floor.pid,
            },
            phases,
            checks: compare(phases, subjects),
            errors: errorsIn(phases),
            notes,
          };
        } finally {
          for (const subject of Object.values(subjects)) await subject.close();
        }
      } finally {
        await floor.stop();
        progress('http floor stopped');
      }
    } finally {
      await runtime.stop();
      progress('runtime stopped');
    }
  } finally {
    await database.drop();
    progress(`dropped database ${database.name}`);
  }
}

interface Subjects {
  raw: Subject;
  floor: Subject;
  dogu: Subject;
}

/**
 * Warm all sides up first (JIT, pool connections, PostgreSQL's caches), then
 * alternate the sides phase by phase so slow drift of the machine hits them alike.
 */
async function measure({ raw, floor, dogu }: Subjects): Promise<Phase[]> {
  const p = parameters;
  const oneAtATime = (requests: number) => ({ concurrency: p.latencyConcurrency, limit: { requests } });
  const concurrent = (limit: LoadLimit) => ({ concurrency: p.throughputConcurrency, limit });
  const sides = [raw, floor, dogu];
  const plan: [name: string, load: { concurrency: number; limit: LoadLimit }][] = [
    ['warm-up', oneAtATime(p.warmUpSequentialRequests)],
    ['warm-up', concurrent({ requests: p.warmUpConcurrentRequests })],
    ['latency', oneAtATime(p.latencyRequests)],
    ['throughput', concurrent({ durationMs: p.throughputDurationMs })],
  ];
  const phases: Phase[] = [];
  for (const [name, load] of plan) {
    for (const subject of sides) {
      progress(`${name}: ${subject.name} at concurrency ${load.concurrency}`);
      const result = await runLoad(subject.request, load);
      if (result.errors > 0) progress(`  ${result.errors} error(s), e.g. ${result.errorSamples[0]}`);
      phases.push({ name, subject: subject.name, ...result });
    }
  }
  return phases;
}

function compare(phases: readonly Phase[], { raw, floor, dogu }: Subjects) {
  const find = (name: string, subject: Subject) =>
    phases.find((p) => p.name === name && p.subject === subject.name)!;
  const p50 = (subject: Subject) => find('latency', subject).latencyMs.p50;
  const p99 = (subject: Subject) => find('latency', subject).latencyMs.p99;
  const perSecond = (subject: Subject) => find('throughput', subject).requestsPerSecond;
  const percentOf = (part: Subject, whole: Subject) => round3((perSecond(part) / perSecond(whole)) * 100);
  const { targets } = parameters;
  return [
    // The targets: Dogu against doing it yourself.
    check('added p50 latency (dogu - raw)', round3(p50(dogu) - p50(raw)), 'ms', {
      comparison: '<=',
      value: targets.addedP50LatencyMs,
    }),
    check('added p99 latency (dogu - raw)', round3(p99(dogu) - p99(raw)), 'ms'),
    check('throughput ratio (dogu / raw)', percentOf(dogu, raw), '%', {
      comparison: '>=',
      value: targets.throughputRatioPercent,
    }),
    // Information: the same against the least any HTTP service costs here.
    check('added p50 latency (dogu - http floor)', round3(p50(dogu) - p50(floor)), 'ms'),
    check('throughput ratio (dogu / http floor)', percentOf(dogu, floor), '%'),
    check('throughput ratio (http floor / raw)', percentOf(floor, raw), '%'),
  ];
}

/** The http floor's server, on the bench database, with the same statement and pool size. */
function startHttpFloorProcess(databaseUrl: string): Promise<ServerProcess> {
  return startServerProcess({
    label: 'http floor',
    script: parameters.httpFloor.server,
    healthPath: '/healthz',
    env: {
      BENCH_FLOOR_DATABASE_URL: databaseUrl,
      BENCH_FLOOR_SQL: rawSql,
      BENCH_FLOOR_PARAMETERS: JSON.stringify(parameterNames),
      BENCH_FLOOR_POOL_SIZE: String(parameters.poolSize),
    },
  });
}

/** The http floor as a client sees it: the same client, arguments and check as for Dogu. */
function httpFloorSubject(url: string): Subject {
  const client = new HttpClient(url, { maxSockets: parameters.throughputConcurrency * 2, timeoutMs: 30_000 });
  const execute = client.prepare('POST', '/execute', { json: { arguments: actionArguments } });
  return {
    name: 'http floor',
    request: () => sendAndCheck(client, execute),
    async close() {
      client.close();
    },
  };
}

/** Dogu as a client sees it: HTTP with a bearer token from the local login. */
async function doguSubject(url: string): Promise<Subject> {
  const client = new HttpClient(url, { maxSockets: parameters.throughputConcurrency * 2, timeoutMs: 30_000 });
  const login = await client.send(client.prepare('POST', '/local/v1/login'));
  if (login.status !== 200) throw new Error(`Local login answered ${login.status}: ${login.body}`);
  const { token } = JSON.parse(login.body) as { token: string };
  const execute = client.prepare(
    'POST',
    `/public/v1/projects/${action.project}/environments/${action.environment}/actions/${action.id}/executions`,
    { headers: { authorization: `Bearer ${token}` }, json: { arguments: actionArguments } },
  );
  return {
    name: 'dogu',
    request: () => sendAndCheck(client, execute),
    async close() {
      client.close();
    },
  };
}

/** Successful only with status 200 and the expected rows in results[0].rows. */
async function sendAndCheck(client: HttpClient, request: PreparedRequest): Promise<void> {
  const response = await client.send(request);
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  const rows = firstResultRowCount(response.body);
  if (rows !== expectedRows) throw new Error(`expected ${expectedRows} rows, got ${rows}`);
}

function firstResultRowCount(body: string): number | undefined {
  const parsed = JSON.parse(body) as { results?: { rows?: unknown[] }[] };
  return parsed.results?.[0]?.rows?.length;
}

/** The baseline: what an engineer would write by hand with the same driver and pool size. */
function rawPgSubject(url: string): Subject {
  const pool = new pg.Pool({ connectionString: url, max: parameters.poolSize });
  pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
  return {
    name: 'raw pg',
    async request() {
      const result = await pool.query(rawSql, rawValues);
      if (result.rows.length !== expectedRows) {
        throw new Error(`expected ${expectedRows} rows, got ${result.rows.length}`);
      }
    },
    close: () => pool.end(),
  };
}
