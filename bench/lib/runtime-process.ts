/**
 * Starts the embedded runtime (`local/main.ts`) as its own process, as a
 * developer would with `npm start`, so the server never shares an event loop
 * (or a CPU profile) with the load generator.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { deferCleanup } from './cleanup.ts';
import { HttpClient } from './http-client.ts';
import { repoRoot } from './paths.ts';

export interface RuntimeProcessOptions {
  /** Added to the runtime's environment, e.g. DOGU_DEMO_DATABASE_URL. */
  env?: Record<string, string>;
  /** Node flags for the runtime, e.g. ['--cpu-prof', '--cpu-prof-dir', dir]. */
  nodeArgs?: string[];
  startTimeoutMs?: number;
}

export interface RuntimeProcess {
  url: string;
  pid: number;
  dataDir: string;
  /** The last lines the runtime printed, for error messages. */
  outputTail(): string;
  /** Why the runtime has ended (exit code or signal), or undefined while it runs. */
  endedBecause(): string | undefined;
  /** SIGTERM, wait for a clean exit (SIGKILL after 10 s), then remove the data directory. */
  stop(): Promise<void>;
}

const outputTailBytes = 16 * 1024;

export async function startRuntimeProcess(options: RuntimeProcessOptions = {}): Promise<RuntimeProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dogu-bench-'));
  const removeDataDir = deferCleanup(`remove ${dataDir}`, () =>
    rm(dataDir, { recursive: true, force: true }),
  );
  // A port we pick, rather than PORT=0 and parsing the banner, so a reworded banner cannot break the bench.
  const port = await freeLoopbackPort();
  // `node --import tsx` instead of the tsx CLI: one process (the CLI forks a second one),
  // so the pid we signal and profile is the server itself.
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'local/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DOGU_DATA_DIR: dataDir,
      DOGU_DEMO_DB_PORT: '0',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  let spawnError: Error | undefined;
  // Resolves on exit, or on a failed spawn, after which 'exit' may never come.
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      spawnError = error;
      resolve();
    });
  });
  const stopProcess = deferCleanup(`stop runtime pid ${child.pid}`, () => terminate(child, exited));
  const stop = async () => {
    await stopProcess();
    await removeDataDir();
  };

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilHealthy(url, () => endedBecause(child, spawnError), options.startTimeoutMs ?? 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- runtime output ---\n${output()}`);
  }
  return {
    url,
    pid: child.pid!,
    dataDir,
    outputTail: output,
    endedBecause: () => endedBecause(child, spawnError),
    stop,
  };
}

async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('Could not find a free port.');
  return address.port;
}

/** Keeps reading both pipes (a full pipe would stall the runtime) and remembers the tail. */
function captureOutput(child: ChildProcess): () => string {
  let tail = '';
  const append = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-outputTailBytes);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => tail;
}

/** Why the process is gone, or undefined while it runs. */
function endedBecause(child: ChildProcess, spawnError: Error | undefined): string | undefined {
  if (spawnError) return `could not start: ${spawnError.message}`;
  if (child.exitCode !== null) return `exit code ${child.exitCode}`;
  if (child.signalCode !== null) return `signal ${child.signalCode}`;
  return undefined;
}

async function waitUntilHealthy(
  url: string,
  ended: () => string | undefined,
  timeoutMs: number,
): Promise<void> {
  const client = new HttpClient(url, { maxSockets: 1, timeoutMs: 2_000 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const reason = ended();
      if (reason) throw new Error(`The runtime ended during start-up (${reason}).`);
      const status = await client
        .get('/healthz')
        .then((response) => response.status)
        .catch(() => 0);
      if (status === 200) return;
      await sleep(100);
    }
    throw new Error(`The runtime did not answer GET /healthz with 200 within ${timeoutMs} ms.`);
  } finally {
    client.close();
  }
}

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
