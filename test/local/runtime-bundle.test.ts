/**
 * The prebuilt runtime bundle `npm start` runs (scripts/build-runtime.ts), as a real process under
 * Node's own loader (no tsx, no vitest): built once into a folder of its own, started on a fresh data
 * directory with the embedded PGlite demo, then signed in and used. The demo actions prove the parts
 * a bundle can break: lazily loaded connector chunks (SQL, HTTP, gRPC with its CommonJS protobufjs),
 * the JavaScript sandbox's worker thread (its own bundle entry), the embedded store's worker, files
 * read beside the sources (the demo gRPC proto, demo media, web/dist).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../infra/console-hosting.ts';
import { buildRuntime } from '../../scripts/build-runtime.ts';
import { processStartMs, repoRoot, waitForOutput } from '../support/process.ts';
import { executionsPath, tempDir } from '../support/runtime.ts';

let buildDir: string;
let entry: string;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let child: ChildProcess;
let url: string;
let token: string;
let stderr = '';

beforeAll(async () => {
  ensureConsoleBuilt();
  // Inside the repository: the bundle's dependencies are external and resolve from node_modules.
  await mkdir(join(repoRoot, '.dogu', 'build'), { recursive: true });
  buildDir = await mkdtemp(join(repoRoot, '.dogu', 'build', 'test-runtime-'));
  entry = await buildRuntime(repoRoot, buildDir);
  dataDir = await tempDir('runtime-bundle');
  child = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      // No loader: the bundle must run on Node alone.
      NODE_OPTIONS: '',
      DOGU_DATA_DIR: dataDir.path,
      PORT: '0',
      DOGU_DEMO_DB_PORT: '0',
      DOGU_DEMO_GRPC_PORT: '0',
      DOGU_DEV_IDP_PORT: '0',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (data) => {
    stderr += data;
  });
  [, url] = (await waitForOutput(
    child,
    /Dogu is running at (http:\/\/127\.0\.0\.1:\d+)/,
    processStartMs,
  )) as [string, string];
  const login = await fetch(`${url}/public/v1/login/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@dogu.local', password: 'try-dogu-demo-2026' }),
  });
  expect(login.status).toBe(200);
  token = ((await login.json()) as { token: string }).token;
}, 120_000 + processStartMs);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  await dataDir?.remove();
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

async function execute(action: string, args: Record<string, unknown>) {
  const response = await fetch(`${url}${executionsPath('demo', 'development', action)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ arguments: args }),
  });
  const body = (await response.json()) as {
    status: string;
    results: { rows: unknown[][]; columns: { name: string }[] }[];
  };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.status).toBe('succeeded');
  return body.results[0]!;
}

describe('the runtime bundle as npm start runs it', () => {
  it('is plain JavaScript beside its worker entries, each connector runtime a chunk of its own', async () => {
    const dir = join(entry, '..');
    const files = await readdir(dir);
    expect(files).toEqual(
      expect.arrayContaining([
        'main.mjs',
        'dynalite-worker.mjs',
        'checkpoint-worker.mjs',
        'sandbox-worker-entry.mjs',
      ]),
    );
    const sourcesOf = async (file: string) =>
      (JSON.parse(await readFile(join(dir, `${file}.map`), 'utf8')) as { sources: string[] }).sources;
    expect((await sourcesOf('main.mjs')).filter((source) => source.includes('shared/connectors/'))).toEqual(
      [],
    );
    const chunks = files.filter((name) => /^runtime-\w+\.mjs$/.test(name));
    const chunkSources = (await Promise.all(chunks.map(sourcesOf))).flat();
    for (const kind of ['postgresql', 'mysql', 'http', 'grpc', 'javascript', 's3', 'bigquery'])
      expect(chunkSources, kind).toContainEqual(
        expect.stringMatching(`shared/connectors/${kind}/runtime\\.ts$`),
      );
    // The worker threads start the bundle's entries (no TypeScript loader), not the source tree's files.
    const code = (
      await Promise.all(
        files.filter((name) => name.endsWith('.mjs')).map((name) => readFile(join(dir, name), 'utf8')),
      )
    ).join('\n');
    for (const worker of ['dynalite-worker', 'checkpoint-worker', 'sandbox-worker-entry'])
      expect(code).toMatch(new RegExp(`new URL\\("\\./${worker}\\.mjs", __doguBundleFileUrl\\d*\\)`));
    expect(code).not.toContain('tsx/esm/api');
  });

  it('runs the SQL demo on the embedded PGlite database', async () => {
    const result = await execute('list-orders', { status: 'shipped', limit: 3 });
    expect(result.rows.length).toBe(3);
  });

  it('runs a gRPC demo action through reflection (protobufjs under Node’s own loader)', async () => {
    const result = await execute('grpc-get-order', { order_id: 'ord-1002', include_items: true });
    expect(result.rows.length).toBe(1);
    expect(JSON.stringify(result.rows[0])).toContain('ord-1002');
  });

  it('runs the JavaScript demo action in the sandbox worker', async () => {
    const result = await execute('orders-digest', {});
    expect(result.rows.length).toBeGreaterThan(0);
  });

  it('runs an HTTP demo action and serves the demo media from the source tree', async () => {
    await execute('exchange-rates', {});
    const picture = await fetch(`${url}/demo-api/v1/media/sku-0001.png`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toContain('image/png');
  });

  it('serves the console index from web/dist', async () => {
    const index = await fetch(`${url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<div id="root">');
  });

  it('redirects a single sign-on to the development IdP started from the bundle', async () => {
    const response = await fetch(`${url}/auth/login`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const idp = await fetch(response.headers.get('location')!, { redirect: 'manual' });
    expect(idp.status).toBe(303);
    expect(stderr).not.toMatch(/Error|ERR_/);
  });
});
