/**
 * Bench `startup`: how long from starting Dogu's embedded runtime to its first answer? Each start is
 * a fresh process (its own process group), timed from the spawn to the first 200 of GET /healthz,
 * polled every 10 ms (answered only once the runtime is ready: requests wait for the start-up to
 * finish); the console index (GET /) is then checked too.
 *
 * - **first start:** `node scripts/start.mjs` (what `npm start` runs after prestart: the prebuilt
 *   runtime bundle) on an empty data directory (creates the store, the embedded demo database and
 *   seeds the demo): reported, no target.
 * - **restart (bundle):** the same on the data directory the first start left.
 * - **restart (tsx):** `node --import tsx local/main.ts`, the TypeScript sources through tsx (what
 *   `npm start` ran before the bundle, and still runs when the bundle cannot be built).
 * - **npm start (restart):** `npm start` itself: npm, the prestart step (console and runtime bundle
 *   built already, so it only compares the source hashes) and the bundle. Target ≤ 2 s.
 * - **floor:** `node -e` with a bare node:http server on the same port protocol: what any Node
 *   process costs to answer its first request on this machine, measured in the same run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildConsoleIfChanged } from '../scripts/build-console.ts';
import { buildRuntimeIfChanged } from '../scripts/build-runtime.ts';
import { HttpClient } from './lib/http-client.ts';
import { repoRoot } from './lib/paths.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, type Phase } from './lib/report.ts';
import { sized } from './lib/smoke.ts';
import { round3, roundSummary, summarizeLatencies } from './lib/stats.ts';
import { withTeardown } from './lib/teardown.ts';

export const title = 'npm start to first answer (console already built) vs a bare node:http server';

const parameters = {
  floorStarts: sized(5, 1),
  restarts: sized(5, 1),
  tsxRestarts: sized(5, 1),
  npmStarts: sized(5, 1),
  pollEveryMs: 10,
  targets: { npmStartRestartMs: 2000 },
};

interface Start {
  command: string[];
  env: Record<string, string>;
  port: number;
}

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    const dataDir = await mkdtemp(join(tmpdir(), 'dogu-bench-startup-'));
    defer(() => rm(dataDir, { recursive: true, force: true }));
    const ports = await freePorts(4);
    const runtimeEnv = {
      DOGU_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(ports[0]),
      DOGU_DEMO_DB_PORT: String(ports[1]),
      DOGU_DEMO_GRPC_PORT: String(ports[2]),
      DOGU_DEV_IDP_PORT: String(ports[3]),
    };
    // As prestart would: the measured starts find the console and the bundle built.
    await Promise.all([buildConsoleIfChanged(repoRoot), buildRuntimeIfChanged(repoRoot)]);
    const bundle: Start = {
      command: [process.execPath, 'scripts/start.mjs'],
      env: runtimeEnv,
      port: ports[0]!,
    };
    const tsx: Start = {
      command: [process.execPath, '--import', 'tsx', 'local/main.ts'],
      env: runtimeEnv,
      port: ports[0]!,
    };
    const npmStart: Start = { command: ['npm', 'start', '--silent'], env: runtimeEnv, port: ports[0]! };
    const floor: Start = {
      command: [
        process.execPath,
        '-e',
        "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')",
      ],
      env: { PORT: String(ports[0]) },
      port: ports[0]!,
    };

    progress('first start (seeds the demo)');
    const first = [await timeToFirstAnswer(bundle)];
    // Interleaved, so a burst of other work on the machine touches every side alike.
    const floorTimes: number[] = [];
    const restartTimes: number[] = [];
    const tsxTimes: number[] = [];
    const npmTimes: number[] = [];
    const { floorStarts, restarts, tsxRestarts, npmStarts } = parameters;
    const shown = (times: number[]) => times.at(-1)?.toFixed(0) ?? '-';
    for (let i = 0; i < Math.max(floorStarts, restarts, tsxRestarts, npmStarts); i++) {
      if (i < floorStarts) floorTimes.push(await timeToFirstAnswer(floor));
      if (i < restarts) restartTimes.push(await timeToFirstAnswer(bundle));
      if (i < tsxRestarts) tsxTimes.push(await timeToFirstAnswer(tsx));
      if (i < npmStarts) npmTimes.push(await timeToFirstAnswer(npmStart));
      progress(
        `round ${i + 1}: floor ${shown(floorTimes)} ms, bundle ${shown(restartTimes)} ms, tsx ${shown(tsxTimes)} ms, npm start ${shown(npmTimes)} ms`,
      );
    }
    const phases = [
      phase('floor: node -e http server', floorTimes),
      phase('dogu: first start (seeds the demo)', first),
      phase('dogu: restart (bundle, node scripts/start.mjs)', restartTimes),
      phase('dogu: npm start (restart)', npmTimes),
      phase('dogu: restart (tsx, node --import tsx local/main.ts)', tsxTimes),
    ];
    const p50 = (i: number) => phases[i]!.latencyMs.p50;
    return {
      bench: 'startup',
      title,
      startedAt,
      finishedAt: new Date().toISOString(),
      parameters,
      environment: {
        command: bundle.command.slice(1).join(' '),
        tsx: tsx.command.slice(1).join(' '),
        npm: npmStart.command.join(' '),
        loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
      },
      phases,
      checks: [
        check('npm start to first answer, restart (median)', p50(3), 'ms', {
          comparison: '<=',
          value: parameters.targets.npmStartRestartMs,
        }),
        check('bundle to first answer, restart (median)', p50(2), 'ms'),
        check('tsx to first answer, restart (median)', p50(4), 'ms'),
        check('tsx / bundle (medians)', round3(p50(4) / Math.max(p50(2), 1)), 'x'),
        check('runtime to first answer, first start', p50(1), 'ms'),
        check('floor: bare node:http to first answer (median)', p50(0), 'ms'),
        check('restart / floor (medians)', round3(p50(2) / Math.max(p50(0), 1)), 'x'),
        check('npm start / floor (medians)', round3(p50(3) / Math.max(p50(0), 1)), 'x'),
      ],
      errors: 0,
      notes: [
        'time from spawn to the first 200 of GET /healthz, polled every 10 ms; "requests" = starts measured',
        'the console index (GET /) answered 200 after each start (checked, not timed)',
      ],
    };
  });
}

function phase(subject: string, samples: number[]): Phase {
  return {
    name: 'start',
    subject,
    concurrency: 1,
    requests: samples.length,
    errors: 0,
    errorSamples: [],
    elapsedMs: Number.NaN,
    requestsPerSecond: Number.NaN,
    latencyMs: roundSummary(summarizeLatencies(samples)),
  };
}

/** Spawns the command, polls until the first 200, checks the console index, stops the process group. */
async function timeToFirstAnswer(start: Start): Promise<number> {
  const t0 = performance.now();
  const [file, ...args] = start.command;
  const child = spawn(file!, args, {
    cwd: repoRoot,
    env: { ...process.env, ...start.env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = once(child, 'exit');
  const client = new HttpClient(`http://127.0.0.1:${start.port}`, { maxSockets: 1, timeoutMs: 30_000 });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${start.command.join(' ')} exited: ${stderr}`);
      const status = await client
        .get('/healthz')
        .then((r) => r.status)
        .catch(() => 0);
      if (status === 200) break;
      if (performance.now() - t0 > 120_000) throw new Error(`${start.command.join(' ')}: no answer in 120 s`);
      await sleep(parameters.pollEveryMs);
    }
    const elapsed = performance.now() - t0;
    if (!start.command.includes('-e')) {
      const index = await client.get('/');
      if (index.status !== 200 || !index.body.includes('<div id="root">'))
        throw new Error(`the console index answered ${index.status}`);
    }
    return elapsed;
  } finally {
    client.close();
    await stopGroup(child, exited);
  }
}

async function stopGroup(child: ChildProcess, exited: Promise<unknown>) {
  if (child.exitCode !== null || child.pid === undefined) return;
  process.kill(-child.pid, 'SIGINT');
  const timer = setTimeout(() => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, 15_000);
  await exited;
  clearTimeout(timer);
  // The data directory's lock goes with the process; the next start may take it at once.
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer();
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    }),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
