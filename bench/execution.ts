/**
 * Bench `execution`: what does running an action through Dogu cost compared
 * with running its SQL yourself? The demo action `list-orders` through the
 * public API of the embedded runtime (in its own process) against the
 * identical statement through a raw `pg` pool, on the same PostgreSQL
 * database, in one run so both sides see the same machine state.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import { HttpClient } from './lib/http-client.ts';
import { type LoadLimit, type RequestFn, runLoad } from './lib/load.ts';
import { createScratchDatabase, serverVersion } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, errorsIn, type Phase } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { round3 } from './lib/stats.ts';

export const title = "list-orders via Dogu's public API vs the same SQL via raw pg";

const action = { project: 'demo', environment: 'development', id: 'list-orders' } as const;
const actionArguments = { status: 'shipped', limit: 5 };
/** What the action's template compiles to, less its line breaks. */
const rawSql =
  'SELECT id, customer_id, status, total_yen, ordered_at FROM orders WHERE status = $1 ORDER BY id LIMIT $2';
const rawValues = [actionArguments.status, actionArguments.limit];
const expectedRows = actionArguments.limit;

const parameters = {
  action: `${action.project}/${action.environment}/${action.id}`,
  arguments: actionArguments,
  rawSql,
  rawValues,
  /** The runtime's pool size when DOGU_DEMO_DATABASE_URL is set; the baseline gets the same. */
  poolSize: 10,
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
      const dogu = await doguSubject(runtime.url);
      const raw = rawPgSubject(database.url);
      try {
        const phases = await measure(raw, dogu);
        const notes = profileDir
          ? [`CPU profile of the runtime written to ${profileDir} when it stopped`]
          : [];
        // A runtime that died mid-run explains every later error; its last words belong in the report.
        const ended = runtime.endedBecause();
        if (ended) {
          notes.push(
            `the runtime ended during the run (${ended}); its last output:\n${runtime.outputTail()}`,
          );
        }
        return {
          bench: 'execution',
          title,
          startedAt,
          finishedAt: new Date().toISOString(),
          parameters,
          environment: { postgres: postgresVersion, database: database.name, runtimePid: runtime.pid },
          phases,
          checks: compare(phases, raw.name, dogu.name),
          errors: errorsIn(phases),
          notes,
        };
      } finally {
        await dogu.close();
        await raw.close();
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

/**
 * Warm both up first (JIT, pool connections, PostgreSQL's caches), then
 * alternate the sides phase by phase so slow drift of the machine hits both alike.
 */
async function measure(raw: Subject, dogu: Subject): Promise<Phase[]> {
  const p = parameters;
  const oneAtATime = (requests: number) => ({ concurrency: p.latencyConcurrency, limit: { requests } });
  const concurrent = (limit: LoadLimit) => ({ concurrency: p.throughputConcurrency, limit });
  const plan: [name: string, subject: Subject, load: { concurrency: number; limit: LoadLimit }][] = [
    ['warm-up', raw, oneAtATime(p.warmUpSequentialRequests)],
    ['warm-up', dogu, oneAtATime(p.warmUpSequentialRequests)],
    ['warm-up', raw, concurrent({ requests: p.warmUpConcurrentRequests })],
    ['warm-up', dogu, concurrent({ requests: p.warmUpConcurrentRequests })],
    ['latency', raw, oneAtATime(p.latencyRequests)],
    ['latency', dogu, oneAtATime(p.latencyRequests)],
    ['throughput', raw, concurrent({ durationMs: p.throughputDurationMs })],
    ['throughput', dogu, concurrent({ durationMs: p.throughputDurationMs })],
  ];
  const phases: Phase[] = [];
  for (const [name, subject, load] of plan) {
    progress(`${name}: ${subject.name} at concurrency ${load.concurrency}`);
    const result = await runLoad(subject.request, load);
    if (result.errors > 0) progress(`  ${result.errors} error(s), e.g. ${result.errorSamples[0]}`);
    phases.push({ name, subject: subject.name, ...result });
  }
  return phases;
}

function compare(phases: readonly Phase[], rawName: string, doguName: string) {
  const find = (name: string, subject: string) =>
    phases.find((p) => p.name === name && p.subject === subject)!;
  const rawLatency = find('latency', rawName).latencyMs;
  const doguLatency = find('latency', doguName).latencyMs;
  const rawThroughput = find('throughput', rawName).requestsPerSecond;
  const doguThroughput = find('throughput', doguName).requestsPerSecond;
  const { targets } = parameters;
  return [
    check('added p50 latency (dogu - raw)', round3(doguLatency.p50 - rawLatency.p50), 'ms', {
      comparison: '<=',
      value: targets.addedP50LatencyMs,
    }),
    check('added p99 latency (dogu - raw)', round3(doguLatency.p99 - rawLatency.p99), 'ms'),
    check('throughput ratio (dogu / raw)', round3((doguThroughput / rawThroughput) * 100), '%', {
      comparison: '>=',
      value: targets.throughputRatioPercent,
    }),
  ];
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
    async request() {
      const response = await client.send(execute);
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
      const rows = firstResultRowCount(response.body);
      if (rows !== expectedRows) throw new Error(`expected ${expectedRows} rows, got ${rows}`);
    },
    async close() {
      client.close();
    },
  };
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
