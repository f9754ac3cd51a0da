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
import { compareSubjects, type Subject, standardPhases } from './lib/compare.ts';
import { benchClient, DoguSession, expectResultRows } from './lib/dogu.ts';
import { runLoad } from './lib/load.ts';
import { rssMbOf, rssSampler, untilQuiet } from './lib/memory.ts';
import { type N8nPeer, startN8n, webhookPath } from './lib/n8n-peer.ts';
import { createScratchDatabase, serverVersion } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, type Check, check, type Phase } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { announce, endedDuringRun, startServerProcess } from './lib/server-process.ts';
import { sized, smoke } from './lib/smoke.ts';
import { withTeardown } from './lib/teardown.ts';

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
  ...standardPhases,
  /** After the comparison: Dogu alone under many clients, for its resident memory (issue 20). */
  memory: {
    clients: 200,
    durationMs: sized(60_000, 500),
    targets: { rssUnderLoadMb: 250 },
  },
};

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    const postgresVersion = await serverVersion();
    const database = await createScratchDatabase('dogu_bench');
    defer(() => database.drop(), `dropped database ${database.name}`);
    progress(`created database ${database.name}`);
    // Absolute, because the runtime runs in the repository root, not in our working directory.
    const profileDir = process.env.BENCH_CPU_PROF_DIR ? resolve(process.env.BENCH_CPU_PROF_DIR) : undefined;
    const runtime = announce(
      'runtime',
      await startRuntimeProcess({
        // The real server, not the embedded PGlite: PGlite runs one query at a time and would be
        // the bottleneck.
        env: { DOGU_DEMO_DATABASE_URL: database.url },
        ...(profileDir ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] } : {}),
      }),
      defer,
    );
    const floor = announce('http floor', await startHttpFloorProcess(database.url), defer);
    // The peer: not in a smoke (bench/lib/smoke.ts), and off with BENCH_PEER=off.
    const withPeer = !smoke && process.env.BENCH_PEER !== 'off';
    const n8n: N8nPeer | undefined = withPeer
      ? announce(
          'n8n',
          await startN8n({
            dataUrl: database.url,
            sql: rawSql,
            parameterNames,
            probeBody: JSON.stringify({ arguments: actionArguments }),
          }),
          defer,
        )
      : undefined;
    // Idle: started, demo seeded, nothing asked yet.
    const idleRssMb = rssMbOf(runtime.pid);

    const raw = rawPgSubject(database.url);
    defer(raw.close);
    const floorClient = benchClient(floor.url, parameters);
    defer(() => floorClient.close());
    const floorExecute = floorClient.prepare('POST', '/execute', { json: { arguments: actionArguments } });
    const peer = n8n ? n8nSubject(n8n) : undefined;
    if (peer) defer(() => peer.close());
    const dogu = await DoguSession.login(runtime.url, parameters);
    defer(() => dogu.close());

    const comparison = await compareSubjects({
      baseline: raw,
      references: [
        // The least any HTTP service costs here: the same client, arguments and check as for Dogu.
        {
          name: 'http floor',
          request: async () =>
            expectResultRows(await floorClient.sendExpectingOk(floorExecute), expectedRows),
          rssMb: () => rssMbOf(floor.pid),
        },
        ...(peer ? [peer] : []),
      ],
      subject: {
        ...dogu.executionSubject(action, actionArguments, expectedRows),
        rssMb: () => rssMbOf(runtime.pid),
      },
      phases: parameters,
    });
    const memoryPhase = await measureMemoryUnderLoad(runtime.url, runtime.pid);
    // A failure here costs the PGlite row, not the run's other numbers.
    const demoDatabase = smoke
      ? undefined
      : await demoDatabaseShare(idleRssMb).catch((error: Error) => {
          progress(`memory: the PGlite runtime could not be measured: ${error.message.split('\n')[0]}`);
          return undefined;
        });
    const notes = profileDir ? [`CPU profile of the runtime written to ${profileDir} when it stopped`] : [];
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
        ...(n8n ? { n8n: n8n.version, n8nPid: n8n.pid } : {}),
        ...(idleRssMb === undefined ? {} : { runtimeIdleRssMb: idleRssMb }),
        ...(demoDatabase ?? {}),
      },
      phases: [...comparison.phases, memoryPhase],
      checks: [...comparison.checks, ...memoryChecks(memoryPhase, idleRssMb, demoDatabase)],
      errors: comparison.errors + memoryPhase.errors,
      notes: [
        ...notes,
        ...(smoke
          ? ['smoke run: phases shortened, numbers mean nothing; no n8n peer, no PGlite idle measurement']
          : []),
        ...(!smoke && !n8n ? ['the n8n peer was left out (BENCH_PEER=off)'] : []),
        ...(n8n
          ? [
              `n8n ${n8n.version} on Node 24 (bench/peer); its webhook asks for no authentication, Dogu's API does`,
            ]
          : []),
        ...endedDuringRun({ runtime, 'http floor': floor, ...(n8n ? { n8n } : {}) }),
      ],
    };
  });
}

/**
 * `memory.clients` clients in a closed loop against Dogu alone for `memory.durationMs`: the
 * runtime's resident memory at the end (and its peak, sampled every 250 ms) with external
 * PostgreSQL as the demo database.
 */
async function measureMemoryUnderLoad(url: string, pid: number): Promise<Phase> {
  const { clients, durationMs } = parameters.memory;
  const session = await DoguSession.login(url, { ...parameters, throughputConcurrency: clients });
  try {
    progress(`memory: dogu at concurrency ${clients} for ${durationMs / 1000} s`);
    const sampler = rssSampler(pid);
    const result = await runLoad(session.executionSubject(action, actionArguments, expectedRows).request, {
      concurrency: clients,
      limit: { durationMs },
    });
    const peakRssMb = sampler.stop();
    const rssMb = rssMbOf(pid);
    return {
      name: 'memory',
      subject: 'dogu',
      ...result,
      ...(rssMb === undefined ? {} : { rssMb }),
      ...(peakRssMb === undefined ? {} : { peakRssMb }),
    };
  } finally {
    session.close();
  }
}

/**
 * The embedded PGlite demo's share of the runtime's memory: a second runtime, started without
 * DOGU_DEMO_DATABASE_URL (so with PGlite inside, on a fresh data directory), idle, against the
 * idle runtime of the comparison (external PostgreSQL).
 */
async function demoDatabaseShare(
  externalIdleRssMb: number | undefined,
): Promise<{ runtimeIdleRssMbWithPglite: number; pgliteShareMb?: number } | undefined> {
  progress('memory: idle runtime with the embedded PGlite demo');
  const withPglite = await startRuntimeProcess({ startTimeoutMs: 120_000 });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rss = rssMbOf(withPglite.pid);
    if (rss === undefined) return undefined;
    return {
      runtimeIdleRssMbWithPglite: rss,
      ...(externalIdleRssMb === undefined
        ? {}
        : { pgliteShareMb: Math.round((rss - externalIdleRssMb) * 10) / 10 }),
    };
  } finally {
    await withPglite.stop();
  }
}

function memoryChecks(
  phase: Phase,
  idleRssMb: number | undefined,
  demo: { runtimeIdleRssMbWithPglite: number; pgliteShareMb?: number } | undefined,
): Check[] {
  const checks: Check[] = [];
  if (phase.rssMb !== undefined) {
    checks.push(
      check(
        `runtime RSS after ${parameters.memory.clients} clients for ${parameters.memory.durationMs / 1000} s`,
        phase.rssMb,
        'MB',
        { comparison: '<=', value: parameters.memory.targets.rssUnderLoadMb },
      ),
    );
  }
  if (phase.peakRssMb !== undefined)
    checks.push(check('runtime RSS peak in that phase', phase.peakRssMb, 'MB'));
  if (idleRssMb !== undefined) checks.push(check('runtime RSS idle (external PostgreSQL)', idleRssMb, 'MB'));
  if (demo) {
    checks.push(check('runtime RSS idle (PGlite demo inside)', demo.runtimeIdleRssMbWithPglite, 'MB'));
    if (demo.pgliteShareMb !== undefined)
      checks.push(check('  of which the PGlite demo', demo.pgliteShareMb, 'MB'));
  }
  return checks;
}

/** The peer: POST /webhook/list-orders with the same body; n8n answers the rows as a JSON array. */
function n8nSubject(n8n: N8nPeer): Subject & { close(): void } {
  const client = benchClient(n8n.url, parameters);
  const execute = client.prepare('POST', webhookPath, { json: { arguments: actionArguments } });
  return {
    name: 'n8n',
    // n8n answers in tens of milliseconds under load: 2,000 requests one at a time would take minutes.
    maxRequests: 300,
    async request() {
      const rows = JSON.parse(await client.sendExpectingOk(execute)) as unknown;
      const count = Array.isArray(rows) ? rows.length : -1;
      if (count !== expectedRows) throw new Error(`expected ${expectedRows} rows, got ${count}`);
    },
    rssMb: () => rssMbOf(n8n.pid),
    // Under load n8n keeps working off queued executions after its phase; the next side waits.
    settle: () => untilQuiet(n8n.pid),
    close: () => client.close(),
  };
}

/** The http floor's server, on the bench database, with the same statement and pool size. */
function startHttpFloorProcess(databaseUrl: string) {
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

/** The baseline: what an engineer would write by hand with the same driver and pool size. */
function rawPgSubject(url: string): Subject & { close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: parameters.poolSize });
  pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
  return {
    name: 'raw pg',
    label: 'raw',
    async request() {
      const result = await pool.query(rawSql, rawValues);
      if (result.rows.length !== expectedRows) {
        throw new Error(`expected ${expectedRows} rows, got ${result.rows.length}`);
      }
    },
    close: () => pool.end(),
  };
}
