/**
 * Starts the embedded runtime (`local/main.ts`) as its own process, as a
 * developer would with `npm start`, with a fresh data directory that is
 * removed again when it stops.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deferCleanup } from './cleanup.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

export interface RuntimeProcessOptions {
  /** Added to the runtime's environment, e.g. DOGU_DEMO_DATABASE_URL. */
  env?: Record<string, string>;
  /** Node flags for the runtime, e.g. ['--cpu-prof', '--cpu-prof-dir', dir]. */
  nodeArgs?: string[];
  startTimeoutMs?: number;
}

export interface RuntimeProcess extends ServerProcess {
  dataDir: string;
  /** SIGTERM, wait for a clean exit (SIGKILL after 10 s), then remove the data directory. */
  stop(): Promise<void>;
}

export async function startRuntimeProcess(options: RuntimeProcessOptions = {}): Promise<RuntimeProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dogu-bench-'));
  // Registered before the process, so on Ctrl-C (newest first) the process stops before its directory goes.
  const removeDataDir = deferCleanup(`remove ${dataDir}`, () =>
    rm(dataDir, { recursive: true, force: true }),
  );
  let server: ServerProcess;
  try {
    server = await startServerProcess({
      label: 'runtime',
      script: 'local/main.ts',
      healthPath: '/healthz',
      env: {
        DOGU_DATA_DIR: dataDir,
        DOGU_DEMO_DB_PORT: '0',
        // Free ports, so two runtimes (or a developer's npm start) never collide.
        DOGU_DEMO_GRPC_PORT: '0',
        DOGU_DEV_IDP_PORT: '0',
        POWERTOOLS_LOG_LEVEL: 'WARN',
        AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1',
        ...options.env,
      },
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
      ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}),
    });
  } catch (error) {
    await removeDataDir();
    throw error;
  }
  return {
    ...server,
    dataDir,
    async stop() {
      await server.stop();
      await removeDataDir();
    },
  };
}
