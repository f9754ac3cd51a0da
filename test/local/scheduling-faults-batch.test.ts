/**
 * kill -9 of the embedded runtime while a batch runs (issue 6): after a restart on the same data
 * directory the batch finishes with every row settled, no argument set inserted twice, and only the
 * rows that were running at the kill (at most the batch's concurrency) left as "interrupted".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { repoRoot, waitForOutput } from '../support/process.ts';
import { tempDir } from '../support/runtime.ts';

const rowCount = 300;
const concurrency = 4;
const base = '/api/v1/projects/demo';
const scope = `${base}/environments/development`;

let database: TestDatabase;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let client: pg.Client;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await tempDir('batch-kill');
  client = new pg.Client(database.connection);
  await client.connect();
  // No unique key on purpose: a row run twice must show up as a second row, not as an error.
  await client.query('CREATE TABLE batch_fault (k integer NOT NULL, at timestamptz NOT NULL DEFAULT now())');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await client?.end();
  await dataDir?.remove();
  await database?.drop();
});

async function startMain(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DOGU_DATA_DIR: dataDir.path,
      PORT: '0',
      DOGU_DEMO_DATABASE_URL: database.url,
      DOGU_DEV_IDP_PORT: '0',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const [, url] = await waitForOutput(child, /Dogu is running at (http:\/\/\S+)/, 45_000);
  return { child, url: url! };
}

function api(url: string, token: string) {
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

interface Progress {
  total: number;
  waiting: number;
  running: number;
  success: number;
  failure: number;
}
interface Row {
  index: number;
  arguments: { k: number };
  status: string;
  error?: { code: string; message: string };
}

describe('kill -9 during a batch', () => {
  it('finishes after a restart with nothing lost and nothing run twice', { timeout: 150_000 }, async () => {
    const first = await startMain();
    const login = await fetch(`${first.url}/local/v1/login`, { method: 'POST' });
    const { token } = (await login.json()) as { token: string };
    let call = api(first.url, token);
    const saved = await call('PUT', `${base}/actions/insert-key`, {
      id: 'insert-key',
      name: 'Insert key',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      // The sleep keeps each row busy long enough to kill the process mid-batch.
      statements: [
        { title: 'insert', sql: 'INSERT INTO batch_fault (k) SELECT {{ k }} FROM pg_sleep(0.03)' },
      ],
      parameters: [{ name: 'k', kind: 'number', label: 'Key', required: true }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);

    const rows = Array.from({ length: rowCount }, (_, i) => ({ k: i + 1 }));
    const created = await call('POST', `${scope}/actions/insert-key/batches`, { rows, concurrency });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const batchId: string = created.body.batch.id;

    // Kill once between 10 % and 90 % of the rows have an outcome.
    let progressAtKill: Progress | undefined;
    const deadline = Date.now() + 60_000;
    while (!progressAtKill && Date.now() < deadline) {
      const { body } = await call('GET', `${scope}/batches/${batchId}`);
      const { success, failure } = body.progress as Progress;
      const done = (success + failure) / rowCount;
      if (done >= 0.9) throw new Error(`the batch ran too fast to be killed mid-way (${done * 100} % done)`);
      if (done >= 0.1) {
        first.child.kill('SIGKILL');
        progressAtKill = body.progress;
      } else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(progressAtKill, 'the batch reached 10 % in time').toBeDefined();
    await once(first.child, 'exit');
    const { rows: insertedAtKill } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM batch_fault',
    );
    expect(insertedAtKill[0]!.n).toBeLessThan(rowCount);

    const second = await startMain();
    try {
      call = api(second.url, token);
      let finished: { batch: { status: string }; progress: Progress; rows: Row[] } | undefined;
      while (Date.now() < deadline + 60_000) {
        const { body } = await call('GET', `${scope}/batches/${batchId}`);
        if (body.batch.status === 'finished') {
          finished = body;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(finished, 'the batch finished after the restart').toBeDefined();
      const { progress, rows: batchRows } = finished!;

      // Every row settled.
      expect(progress.total).toBe(rowCount);
      expect(progress.waiting + progress.running).toBe(0);
      expect(batchRows.map((r) => r.status).filter((s) => s !== 'success' && s !== 'failure')).toEqual([]);

      // No argument set inserted twice.
      const { rows: perKey } = await client.query<{ k: number; n: number }>(
        'SELECT k, count(*)::int AS n FROM batch_fault GROUP BY k ORDER BY k',
      );
      expect(perKey.filter((r) => r.n > 1)).toEqual([]);
      const inserted = new Set(perKey.map((r) => r.k));

      // Rows counted success are exactly inserted; the only failures are the rows running at the kill,
      // which may or may not have committed (they are never run again without a person deciding).
      const success = batchRows.filter((r) => r.status === 'success').map((r) => r.arguments.k);
      const interrupted = batchRows.filter((r) => r.status === 'failure');
      expect(interrupted.map((r) => r.error?.code)).toEqual(interrupted.map(() => 'interrupted'));
      expect(interrupted.length).toBeLessThanOrEqual(concurrency);
      expect(success.filter((k) => !inserted.has(k))).toEqual([]);
      const successSet = new Set(success);
      const insertedNotSuccess = [...inserted].filter((k) => !successSet.has(k));
      const interruptedKeys = new Set(interrupted.map((r) => r.arguments.k));
      expect(insertedNotSuccess.filter((k) => !interruptedKeys.has(k))).toEqual([]);
      expect(success.length + interrupted.length).toBe(rowCount);
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }
  });
});
