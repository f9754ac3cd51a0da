/**
 * The embedded runtime as a real `local/main.ts` process, for fault tests that kill it with SIGKILL
 * and start it again: an in-process runtime cannot die mid-write the way a killed process does. The
 * demo data source points at a fresh test database, and every start uses the same data directory,
 * so a restart finds what the killed process left behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { processStartMs, repoRoot, waitForOutput } from './process.ts';
import { tempDir } from './runtime.ts';

export interface MainProcess {
  child: ChildProcess;
  /** Where it serves HTTP. */
  url: string;
}

export interface MainProcessFixture {
  /** A client of the demo data source's database, connected in the suite's beforeAll. */
  readonly database: pg.Client;
  /** The data directory every start uses. */
  readonly dataDir: string;
  /** Starts `local/main.ts` on the suite's data directory; resolves once it serves HTTP. */
  start(): Promise<MainProcess>;
}

/**
 * Registers the suite's beforeAll/afterAll: a test database set up with `schemaSql`, a data directory
 * named after `name`, and, at the end, SIGKILL for any process still running.
 */
export function mainProcessFixture(name: string, schemaSql: string): MainProcessFixture {
  let testDatabase: TestDatabase;
  let dataDir: Awaited<ReturnType<typeof tempDir>>;
  let client: pg.Client | undefined;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    dataDir = await tempDir(name);
    client = new pg.Client(testDatabase.connection);
    await client.connect();
    await client.query(schemaSql);
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await client?.end();
    await dataDir?.remove();
    await testDatabase?.drop();
  });

  return {
    get database() {
      if (!client) throw new Error('The main process fixture is used before its beforeAll ran.');
      return client;
    },
    get dataDir() {
      if (!dataDir) throw new Error('The main process fixture is used before its beforeAll ran.');
      return dataDir.path;
    },
    async start() {
      const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
        cwd: repoRoot,
        env: {
          ...process.env,
          DOGU_DATA_DIR: dataDir.path,
          PORT: '0',
          DOGU_DEMO_DATABASE_URL: testDatabase.url,
          DOGU_DEV_IDP_PORT: '0',
          POWERTOOLS_LOG_LEVEL: 'WARN',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      child.once('exit', () => children.delete(child));
      const [, url] = await waitForOutput(child, /Dogu is running at (http:\/\/\S+)/, processStartMs);
      return { child, url: url! };
    },
  };
}

/** A token from the embedded runtime's local login; it stays valid across restarts on one data directory. */
export async function localLoginToken(url: string): Promise<string> {
  const login = await fetch(`${url}/local/v1/login`, { method: 'POST' });
  return ((await login.json()) as { token: string }).token;
}

export type HttpApi = ReturnType<typeof httpApi>;

/** JSON calls to a process over HTTP, answering status and parsed body. */
export function httpApi(url: string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: the test asserts on the bodies it reads
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
}

/** Stops a process the way an operator would (SIGTERM) and waits until it is gone. */
export async function stopGracefully(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}
