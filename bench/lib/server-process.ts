/**
 * Starts a server script of this repository as its own Node process
 * (`node --import tsx <script>`) on a loopback port we pick, waits until it
 * answers its health path, and registers its stop with the cleanup, so a
 * failed run or Ctrl-C never leaves it behind. The servers measured never
 * share an event loop (or a CPU profile) with the load generator.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { deferCleanup } from './cleanup.ts';
import { HttpClient } from './http-client.ts';
import { repoRoot } from './paths.ts';
import { progress } from './progress.ts';
import type { Defer } from './teardown.ts';

export interface ServerProcessOptions {
  /** For messages, e.g. 'runtime'. */
  label: string;
  /** Relative to the repository root, which is also the working directory. */
  script?: string;
  /** Another program instead of `node --import tsx <script>` (the n8n peer runs on its own Node). */
  command?: { executable: string; args: string[] };
  /** Added to the environment; HOST and PORT are set to the address picked. */
  env?: Record<string, string>;
  /** The variable the server reads its port from (PORT unless set, e.g. N8N_PORT). */
  portVariable?: string;
  /** Node flags, e.g. ['--cpu-prof', '--cpu-prof-dir', dir]. */
  nodeArgs?: string[];
  /** Answered with 200 once the server is ready. */
  healthPath: string;
  startTimeoutMs?: number;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** The last output the process printed, for error messages. */
  outputTail(): string;
  /** Why the process has ended (exit code or signal), or undefined while it runs. */
  endedBecause(): string | undefined;
  /** SIGTERM and wait for the exit (SIGKILL after 10 s). Later calls do nothing. */
  stop(): Promise<void>;
}

const outputTailBytes = 16 * 1024;

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  // A port we pick, rather than PORT=0 and parsing a banner, so a reworded banner cannot break the bench.
  const port = await freeLoopbackPort();
  // `node --import tsx` instead of the tsx CLI: one process (the CLI forks a second one),
  // so the pid we signal and profile is the server itself.
  const [executable, args] = options.command
    ? [options.command.executable, options.command.args]
    : [process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script ?? '']];
  const child = spawn(executable, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...options.env,
      HOST: '127.0.0.1',
      [options.portVariable ?? 'PORT']: String(port),
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
  const stop = deferCleanup(`stop ${options.label} pid ${child.pid}`, () => terminate(child, exited));
  const ended = () => endedBecause(child, spawnError);

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilHealthy(options, url, ended);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- ${options.label} output ---\n${output()}`);
  }
  return { url, pid: child.pid!, outputTail: output, endedBecause: ended, stop };
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

/** Keeps reading both pipes (a full pipe would stall the server) and remembers the tail. */
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
  options: ServerProcessOptions,
  url: string,
  ended: () => string | undefined,
): Promise<void> {
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const client = new HttpClient(url, { maxSockets: 1, timeoutMs: 2_000 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const reason = ended();
      if (reason) throw new Error(`The ${options.label} ended during start-up (${reason}).`);
      const status = await client
        .get(options.healthPath)
        .then((response) => response.status)
        .catch(() => 0);
      if (status === 200) return;
      await sleep(100);
    }
    throw new Error(
      `The ${options.label} did not answer GET ${options.healthPath} with 200 within ${timeoutMs} ms.`,
    );
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

/** Logs where the server listens and registers its stop as a teardown step; returns the server. */
export function announce<S extends ServerProcess>(label: string, server: S, defer: Defer): S {
  progress(`${label} pid ${server.pid} listening at ${server.url}`);
  defer(() => server.stop(), `${label} stopped`);
  return server;
}

/** Notes for the report: a server that died mid-run explains every later error, so its last words belong there. */
export function endedDuringRun(servers: Record<string, ServerProcess>): string[] {
  return Object.entries(servers).flatMap(([label, server]) => {
    const ended = server.endedBecause();
    return ended
      ? [`the ${label} ended during the run (${ended}); its last output:\n${server.outputTail()}`]
      : [];
  });
}
