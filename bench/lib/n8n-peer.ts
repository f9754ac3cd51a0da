/**
 * The peer of bench `execution`: n8n, the tool users would otherwise pick, running the same query
 * behind a webhook. A bench-only install in bench/peer (its own package.json and lockfile, never
 * part of `npm ci` at the root), installed on first use from the npm registry.
 *
 * n8n 1.123 (the last 1.x; 2.x needs a package the registry here does not serve) depends on
 * isolated-vm 7, whose prebuilt binaries exist only for Node 24+, so n8n runs on the `node@24`
 * npm package installed beside it, not on the Node running the bench. Its own database is a
 * scratch PostgreSQL database (DB_TYPE=postgresdb), so no sqlite3 build is needed.
 *
 * The workflow (imported with `n8n import:workflow`, activated with `n8n update:workflow`): a
 * Webhook node (POST /webhook/list-orders, answering with the last node's items) into a Postgres
 * node running the bench's statement with `$1`, `$2` bound from the request's arguments. n8n saves
 * every execution (its default), as Dogu records every execution. Unlike Dogu, the webhook asks
 * for no authentication.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deferCleanup } from './cleanup.ts';
import { repoRoot } from './paths.ts';
import { createScratchDatabase } from './postgres.ts';
import { progress } from './progress.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

export const peerDir = join(repoRoot, 'bench', 'peer');
const nodeBinary = join(peerDir, 'node_modules', '.bin', 'node');
const n8nMain = join(peerDir, 'node_modules', 'n8n', 'bin', 'n8n');
export const webhookPath = '/webhook/list-orders';

export interface N8nPeer extends ServerProcess {
  version: string;
  /** The same PostgreSQL database the other sides query (for the Postgres node's credential). */
  dataDatabase: string;
}

export function n8nInstalled(): boolean {
  return existsSync(nodeBinary) && existsSync(n8nMain);
}

/**
 * `npm ci` in bench/peer (scripts off: n8n's dependencies would build native modules against the
 * bench's Node), then the two packages whose install scripts matter: `node` (fetches the Node 24
 * binary from the registry) and isolated-vm (picks its Node 24 prebuilt binary).
 */
export async function installN8n(): Promise<void> {
  progress('installing the n8n peer into bench/peer (first run only; about 1 GB, several minutes)');
  await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], peerDir);
  await run('npm', ['rebuild', 'node'], peerDir);
  await run('npm', ['rebuild', 'isolated-vm'], peerDir, {
    PATH: `${join(peerDir, 'node_modules', '.bin')}:${process.env.PATH}`,
  });
}

export async function startN8n(options: {
  dataUrl: string;
  sql: string;
  parameterNames: readonly string[];
  /** A request body the workflow answers with 200; sent until the webhook is registered. */
  probeBody: string;
}): Promise<N8nPeer> {
  if (!n8nInstalled()) await installN8n();
  const own = await createScratchDatabase('dogu_bench_n8n');
  const home = await mkdtemp(join(tmpdir(), 'dogu-bench-n8n-'));
  deferCleanup(`remove ${home}`, () => rm(home, { recursive: true, force: true }));
  const data = new URL(options.dataUrl);
  const env = n8nEnvironment(own.url, home);
  const credentials = join(home, 'credentials.json');
  const workflow = join(home, 'workflow.json');
  await writeFile(
    credentials,
    JSON.stringify([
      {
        id: 'benchPostgres',
        name: 'bench postgres',
        type: 'postgres',
        data: {
          host: data.hostname,
          port: Number(data.port || 5432),
          database: data.pathname.slice(1),
          user: decodeURIComponent(data.username || 'postgres'),
          password: decodeURIComponent(data.password),
          ssl: 'disable',
          maxConnections: 10,
        },
      },
    ]),
  );
  await writeFile(workflow, JSON.stringify([workflowJson(options.sql, options.parameterNames)]));
  progress('n8n: importing the credential and the workflow');
  await run(nodeBinary, [n8nMain, 'import:credentials', `--input=${credentials}`], home, env);
  await run(nodeBinary, [n8nMain, 'import:workflow', `--input=${workflow}`], home, env);
  await run(nodeBinary, [n8nMain, 'update:workflow', '--id=benchListOrders', '--active=true'], home, env);
  const version = (await run(nodeBinary, [n8nMain, '--version'], home, env)).trim();
  progress(`n8n ${version}: starting`);
  const server = await startServerProcess({
    label: 'n8n',
    command: { executable: nodeBinary, args: [n8nMain, 'start'] },
    healthPath: '/healthz',
    portVariable: 'N8N_PORT',
    env,
    startTimeoutMs: 180_000,
  });
  // /healthz answers before the active workflows' webhooks are registered.
  try {
    await untilWebhookAnswers(server.url, options.probeBody);
  } catch (error) {
    await server.stop();
    await own.drop();
    throw new Error(`${(error as Error).message}\n--- n8n output ---\n${server.outputTail()}`);
  }
  return {
    ...server,
    version,
    dataDatabase: data.pathname.slice(1),
    async stop() {
      await server.stop();
      await own.drop();
    },
  };
}

async function untilWebhookAnswers(url: string, body: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let last = '';
  while (Date.now() < deadline) {
    const response = await fetch(`${url}${webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).catch((error: Error) => ({ status: 0, text: async () => error.message }));
    if (response.status === 200) return;
    last = `${response.status} ${(await response.text()).slice(0, 300)}`;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The n8n webhook did not answer 200 within 120 s; last answer: ${last}`);
}

function n8nEnvironment(ownDatabaseUrl: string, home: string): Record<string, string> {
  const own = new URL(ownDatabaseUrl);
  return {
    N8N_USER_FOLDER: home,
    N8N_ENCRYPTION_KEY: 'dogu-bench-only-not-a-secret',
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: own.hostname,
    DB_POSTGRESDB_PORT: own.port || '5432',
    DB_POSTGRESDB_DATABASE: own.pathname.slice(1),
    DB_POSTGRESDB_USER: decodeURIComponent(own.username || 'postgres'),
    DB_POSTGRESDB_PASSWORD: decodeURIComponent(own.password),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_LOG_LEVEL: 'warn',
    N8N_RUNNERS_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_SECURE_COOKIE: 'false',
  };
}

/** Webhook → Postgres (executeQuery with bound parameters), answering with the rows. */
function workflowJson(sql: string, parameterNames: readonly string[]) {
  // n8n's expression sandbox refuses any property named "arguments" (also through $jmespath); the
  // body has only that one property, so it is read as the body's first value.
  const replacement = parameterNames.map((name) => `{{ Object.values($json.body)[0].${name} }}`).join(',');
  return {
    id: 'benchListOrders',
    name: 'bench list-orders',
    active: false,
    nodes: [
      {
        id: 'a1b2c3d4-0000-4000-8000-000000000001',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: 'b1b2c3d4-0000-4000-8000-000000000001',
        parameters: {
          httpMethod: 'POST',
          path: webhookPath.replace('/webhook/', ''),
          responseMode: 'lastNode',
          responseData: 'allEntries',
          options: {},
        },
      },
      {
        id: 'a1b2c3d4-0000-4000-8000-000000000002',
        name: 'Postgres',
        type: 'n8n-nodes-base.postgres',
        typeVersion: 2.5,
        position: [220, 0],
        parameters: {
          operation: 'executeQuery',
          query: sql,
          options: { queryReplacement: `=${replacement}` },
        },
        credentials: { postgres: { id: 'benchPostgres', name: 'bench postgres' } },
      },
    ],
    connections: { Webhook: { main: [[{ node: 'Postgres', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-3000)}`)),
    );
  });
}
