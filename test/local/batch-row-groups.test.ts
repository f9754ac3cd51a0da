/**
 * Batch rows run as groups (decision 0255) on a real runtime against the machine's PostgreSQL and
 * MariaDB: a chunk's rows commit in one transaction (one PostgreSQL `txid_current()`, one MariaDB
 * session inside an explicit transaction); a failing row in the middle — a duplicate key, a CHECK
 * constraint — is rolled back alone to its savepoint and reported with its own error, the rows
 * around it commit, and every row has its own execution record. A group that reaches its time limit is rolled back whole and its rows run again
 * one at a time, each within its own limit.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const limitMs = 3_000;
let runtime: LocalRuntime;
let database: TestDatabase;
let maria: TestMysqlDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';
const env = `${base}/environments/development`;

interface Row {
  index: number;
  status: string;
  executionId?: string;
  error?: { code: string; message: string };
}

async function saved(path: string, body: unknown) {
  const answer = await api.put(`${base}/${path}`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

async function onPostgres<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(database.connection);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const insertAction = (id: string, dataSourceId: string, sql: string) => ({
  id,
  name: id,
  kind: 'sql',
  dataSourceId,
  parameters: [
    { name: 'k', kind: 'number', label: 'Key', required: true },
    { name: 'label', kind: 'text', label: 'Label', required: true },
  ],
  statements: [{ title: 'insert', sql }],
});

async function runBatch(actionId: string, rows: Record<string, unknown>[], concurrency = 1): Promise<Row[]> {
  const created = await api.post(`${env}/actions/${actionId}/batches`, { rows, concurrency });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { body } = await api.get(`${env}/batches/${created.body.batch.id}`);
    if (body.batch.status === 'finished') return body.rows as Row[];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the batch did not finish in 60 s');
}

const execution = (id: string) => runtime.services.executions.getExecution(id);

/** Rows 1–9; row index 4 repeats row 1's key, row index 6's label breaks the CHECK constraint. */
const rowsWithTwoBad = () =>
  Array.from({ length: 9 }, (_, i) => ({
    k: i === 4 ? 2 : i + 1,
    label: i === 6 ? 'much-too-long-label' : `row ${i + 1}`,
  }));

beforeAll(async () => {
  dir = await tempDir('row-groups');
  [database, maria] = await Promise.all([createTestDatabase(), createTestMysqlDatabase()]);
  await onPostgres(async (c) => {
    // trx: the top-level transaction that wrote the row (xmin would name each row's savepoint).
    await c.query(`CREATE TABLE items (k int PRIMARY KEY, label text NOT NULL CHECK (length(label) <= 10),
      trx bigint NOT NULL DEFAULT txid_current())`);
    await c.query(
      'CREATE TABLE slow_items (k int PRIMARY KEY, label text NOT NULL, trx bigint NOT NULL DEFAULT txid_current())',
    );
  });
  await maria.admin(async (c) => {
    await c.query(
      `CREATE TABLE items (k int PRIMARY KEY, label varchar(40) NOT NULL CHECK (CHAR_LENGTH(label) <= 10),
        trx varchar(40) NULL) ENGINE=InnoDB`,
    );
    await c.query(
      `CREATE TABLE slow_items (k int PRIMARY KEY, label varchar(40) NOT NULL, trx varchar(40) NULL)
        ENGINE=InnoDB`,
    );
    // Which session wrote the row, and whether inside an explicit transaction (0 with autocommit).
    for (const table of ['items', 'slow_items']) {
      await c.query(
        `CREATE TRIGGER ${table}_trx BEFORE INSERT ON ${table} FOR EACH ROW
          SET NEW.trx = CONCAT(CONNECTION_ID(), ':', @@in_transaction)`,
      );
    }
  });
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url, maxExecutionMs: limitMs });
  api = apiClient(runtime, await loginToken(runtime));
  await saved('data-sources/pg', {
    id: 'pg',
    name: 'PG',
    kind: 'postgresql',
    environments: { development: database.connection },
  });
  await saved('data-sources/maria', {
    id: 'maria',
    name: 'Maria',
    kind: 'mysql',
    environments: { development: maria.connection },
  });
  await saved(
    'actions/pg-insert',
    insertAction('pg-insert', 'pg', 'INSERT INTO items (k, label) VALUES ({{ k }}, {{ label }})'),
  );
  await saved(
    'actions/maria-insert',
    insertAction('maria-insert', 'maria', 'INSERT INTO items (k, label) VALUES ({{ k }}, {{ label }})'),
  );
  await saved(
    'actions/maria-slow-insert',
    insertAction(
      'maria-slow-insert',
      'maria',
      'INSERT INTO slow_items (k, label) SELECT {{ k }}, {{ label }} FROM DUAL WHERE SLEEP(0.5) = 0',
    ),
  );
  await saved('actions/pg-two-statements', {
    ...insertAction('pg-two-statements', 'pg', 'INSERT INTO items (k, label) VALUES ({{ k }}, {{ label }})'),
    statements: [
      { title: 'insert', sql: 'INSERT INTO items (k, label) VALUES ({{ k }}, {{ label }})' },
      { title: 'count', sql: 'SELECT count(*) AS n FROM items' },
    ],
  });
  await saved(
    'actions/pg-slow-insert',
    insertAction(
      'pg-slow-insert',
      'pg',
      'INSERT INTO slow_items (k, label) SELECT {{ k }}, {{ label }} FROM pg_sleep(0.5)',
    ),
  );
}, 60_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([database?.drop(), maria?.drop()]);
});

async function expectTwoBadRowsAlone(rows: Row[], duplicateKey: RegExp, checkViolation: RegExp) {
  expect(rows.map((r) => r.status)).toEqual([
    'success',
    'success',
    'success',
    'success',
    'failure',
    'success',
    'failure',
    'success',
    'success',
  ]);
  expect(rows[4]!.error?.message).toMatch(duplicateKey);
  expect(rows[6]!.error?.message).toMatch(checkViolation);
  // Each row has its own execution record with its own outcome.
  for (const row of rows) {
    const recorded = await execution(row.executionId!);
    expect(recorded, `row ${row.index}`).toMatchObject({
      via: 'batch',
      status: row.status === 'success' ? 'succeeded' : 'failed',
      origin: { row: row.index },
    });
  }
  expect((await execution(rows[4]!.executionId!))?.error?.message).toMatch(duplicateKey);
  expect(new Set(rows.map((r) => r.executionId)).size).toBe(rows.length);
}

describe('batch rows as one group on PostgreSQL', () => {
  it('commits the good rows in one transaction; the failing rows in the middle fail alone', async () => {
    const rows = await runBatch('pg-insert', rowsWithTwoBad());
    await expectTwoBadRowsAlone(rows, /PostgreSQL error 23505: duplicate key/, /PostgreSQL error 23514/);
    const stored = await onPostgres((c) =>
      c.query<{ k: number; label: string; trx: string }>('SELECT k, label, trx::text FROM items ORDER BY k'),
    );
    // Row index 4 (a second k = 2) did not overwrite or add anything; index 6 (k = 7) is absent.
    expect(stored.rows.map((r) => [r.k, r.label])).toEqual([
      [1, 'row 1'],
      [2, 'row 2'],
      [3, 'row 3'],
      [4, 'row 4'],
      [6, 'row 6'],
      [8, 'row 8'],
      [9, 'row 9'],
    ]);
    expect(new Set(stored.rows.map((r) => r.trx)).size).toBe(1);
  });

  it('a group past its time limit is rolled back and its rows run one at a time', async () => {
    // Eight rows of 0.5 s: 4 s as one group pass the 3 s limit; one at a time each takes 0.5 s.
    const rows = await runBatch(
      'pg-slow-insert',
      Array.from({ length: 8 }, (_, i) => ({ k: i + 1, label: `slow ${i + 1}` })),
    );
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'success'));
    const stored = await onPostgres((c) =>
      c.query<{ k: number; trx: string }>('SELECT k, trx::text FROM slow_items ORDER BY k'),
    );
    expect(stored.rows.map((r) => r.k)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Nothing of the rolled-back group remained: each row committed on its own.
    expect(new Set(stored.rows.map((r) => r.trx)).size).toBe(8);
    for (const row of rows) expect((await execution(row.executionId!))?.status).toBe('succeeded');
  }, 60_000);

  it('an action of more than one statement runs its rows one at a time, as before', async () => {
    const rows = await runBatch(
      'pg-two-statements',
      [101, 102, 103].map((k) => ({ k, label: `solo ${k}` })),
    );
    expect(rows.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    const stored = await onPostgres((c) =>
      c.query<{ trx: string }>('SELECT trx::text FROM items WHERE k > 100 ORDER BY k'),
    );
    expect(new Set(stored.rows.map((r) => r.trx)).size).toBe(3);
  });
});

describe('batch rows as one group on MariaDB', () => {
  it('commits the good rows in one transaction; the failing rows in the middle fail alone', async () => {
    const rows = await runBatch('maria-insert', rowsWithTwoBad());
    await expectTwoBadRowsAlone(rows, /Duplicate entry '2'/, /CONSTRAINT .*items.* failed/i);
    const stored = await maria.admin(async (c) => {
      const [found] = await c.query('SELECT k, label, trx FROM items ORDER BY k');
      return found as { k: number; label: string; trx: string | null }[];
    });
    expect(stored.map((r) => [r.k, r.label])).toEqual([
      [1, 'row 1'],
      [2, 'row 2'],
      [3, 'row 3'],
      [4, 'row 4'],
      [6, 'row 6'],
      [8, 'row 8'],
      [9, 'row 9'],
    ]);
    expect(new Set(stored.map((r) => r.trx)).size).toBe(1);
    expect(stored[0]!.trx).toMatch(/^\d+:1$/);
  });

  it('a group past its time limit is rolled back and its rows run one at a time', async () => {
    const rows = await runBatch(
      'maria-slow-insert',
      Array.from({ length: 8 }, (_, i) => ({ k: i + 1, label: `slow ${i + 1}` })),
    );
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'success'));
    const stored = await maria.admin(async (c) => {
      const [found] = await c.query('SELECT k, trx FROM slow_items ORDER BY k');
      return found as { k: number; trx: string }[];
    });
    expect(stored.map((r) => r.k)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Each row committed on its own (autocommit), nothing of the killed group remained.
    expect(stored.every((r) => r.trx.endsWith(':0'))).toBe(true);
  }, 60_000);
});
