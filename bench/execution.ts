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
import { createScratchDatabase, serverVersion } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import type { BenchReport } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { announce, endedDuringRun, startServerProcess } from './lib/server-process.ts';
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

    const raw = rawPgSubject(database.url);
    defer(raw.close);
    const floorClient = benchClient(floor.url, parameters);
    defer(() => floorClient.close());
    const floorExecute = floorClient.prepare('POST', '/execute', { json: { arguments: actionArguments } });
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
        },
      ],
      subject: dogu.executionSubject(action, actionArguments, expectedRows),
      phases: parameters,
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
      },
      ...comparison,
      notes: [...notes, ...endedDuringRun({ runtime, 'http floor': floor })],
    };
  });
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
