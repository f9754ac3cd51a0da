/**
 * The safe-run preview (decision 0185) on a real runtime against the machine's PostgreSQL and
 * MariaDB: statements run in a transaction that is always rolled back; the numbers are reported,
 * the databases are checked afterwards to hold no change and no lock; what a rollback cannot undo
 * is refused with a 422 naming the statement; a review request carries the preview.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Principal } from '../../shared/domain/model.ts';
import type { Role } from '../../shared/domain/roles.ts';
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
const executions = (actionId: string) =>
  `/public/v1/projects/demo/environments/development/actions/${actionId}/executions`;

async function saved(path: string, body: unknown) {
  const answer = await api.put(`${base}/${path}`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

/** On a connection of its own, not through Dogu. */
async function onPostgres<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(database.connection);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const balances = async () =>
  (await onPostgres((c) => c.query('SELECT id, balance FROM wallets ORDER BY id'))).rows.map((r) => [
    r.id,
    r.balance,
  ]);
const mariaBalances = () =>
  maria.admin(async (c) => {
    const [rows] = await c.query('SELECT id, balance FROM wallets ORDER BY id');
    return (rows as { id: number; balance: number }[]).map((r) => [r.id, r.balance]);
  });

async function member(id: string, role: Role) {
  const principal: Principal = { kind: 'user', id, email: `${id}@example.com`, name: id };
  await runtime.services.store
    .createUser({ ...principal, createdAt: new Date().toISOString() })
    .catch(() => {});
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: id, role });
  return apiClient(runtime, (await runtime.services.tokens.issue(principal, 3600)).token);
}

const sqlAction = (id: string, dataSourceId: string, statements: unknown[], extra = {}) => ({
  id,
  name: id,
  kind: 'sql',
  dataSourceId,
  parameters: [{ name: 'region', kind: 'text', required: true }],
  statements,
  ...extra,
});

const topUpPg = {
  title: 'Top up',
  sql: 'UPDATE wallets SET balance = balance + 100 WHERE region = {{ region }} RETURNING id, balance',
  previewSql: 'SELECT id, balance FROM wallets WHERE region = {{ region }} ORDER BY id',
};
const topUpMaria = {
  title: 'Top up',
  sql: 'UPDATE wallets SET balance = balance + 100 WHERE region = {{ region }}',
  previewSql: 'SELECT id, balance FROM wallets WHERE region = {{ region }} ORDER BY id',
};
const walletRows = "(1, 'jp', 10), (2, 'jp', 20), (3, 'jp', 30), (4, 'us', 40)";

beforeAll(async () => {
  dir = await tempDir('preview');
  [database, maria] = await Promise.all([createTestDatabase(), createTestMysqlDatabase()]);
  await onPostgres(async (c) => {
    await c.query('CREATE TABLE wallets (id int PRIMARY KEY, region text NOT NULL, balance int NOT NULL)');
    await c.query(`INSERT INTO wallets VALUES ${walletRows}`);
  });
  await maria.admin(async (c) => {
    await c.query(
      'CREATE TABLE wallets (id int PRIMARY KEY, region varchar(8) NOT NULL, balance int NOT NULL) ENGINE=InnoDB',
    );
    await c.query(`INSERT INTO wallets VALUES ${walletRows}`);
    await c.query('CREATE TABLE ledger (id int PRIMARY KEY, note varchar(20)) ENGINE=MyISAM');
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
  await saved('actions/top-up', sqlAction('top-up', 'pg', [topUpPg]));
  await saved('actions/maria-top-up', sqlAction('maria-top-up', 'maria', [topUpMaria]));
}, 60_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([database?.drop(), maria?.drop()]);
});

describe('preview on PostgreSQL', () => {
  it('an UPDATE of three rows previews 3 with the rows before and after, and changes none', async () => {
    const answer = await api.post(executions('top-up'), { arguments: { region: 'jp' }, preview: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ status: 'succeeded', preview: true });
    const [statement] = answer.body.results;
    expect(statement.preview.rowsAffected).toBe(3);
    expect(statement.rows).toEqual([
      { id: 1, balance: 110 },
      { id: 2, balance: 120 },
      { id: 3, balance: 130 },
    ]);
    expect(statement.preview.before.rows.map((r: { balance: number }) => r.balance)).toEqual([10, 20, 30]);
    expect(statement.preview.after.rows.map((r: { balance: number }) => r.balance)).toEqual([110, 120, 130]);
    expect(statement.messages[0]).toBe('3 rows would be affected; rolled back, nothing was committed.');
    // Nothing was committed: the table as another connection sees it.
    expect(await balances()).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ]);
    // Recorded as a preview, audited as one, never as a run of the action.
    const recorded = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${answer.body.id}`,
    );
    expect(recorded.body).toMatchObject({ preview: true, status: 'succeeded' });
    const previews = await api.get(`${base}/audit-log?event=execution.preview&target=top-up`);
    expect(previews.body.data[0]).toMatchObject({ details: { executionId: answer.body.id, preview: true } });
    const runs = await api.get(`${base}/audit-log?event=execution.run&target=top-up`);
    expect(runs.body.data).toEqual([]);
  });

  it('refuses what a rollback cannot undo, naming the statement, before anything runs', async () => {
    await saved(
      'actions/sneaky',
      sqlAction('sneaky', 'pg', [
        topUpPg,
        { title: 'Reset sequence', sql: "SELECT setval('some_seq', 1)" },
        { title: 'Commit it', sql: 'COMMIT' },
      ]),
    );
    const answer = await api.post(executions('sneaky'), { arguments: { region: 'jp' }, preview: true });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      {
        pointer: '#/statements/1/sql',
        detail:
          'setval acts outside the transaction (another session, server, file or a session-level lock), so a rollback would not undo it.',
      },
      {
        pointer: '#/statements/2/sql',
        detail: "COMMIT would end the preview's transaction, and what follows would be committed.",
      },
    ]);
    expect(answer.body.detail).toContain("Statement 'Reset sequence'");
    expect(await balances()).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ]);
  });

  it('a preview that reaches the time limit leaves no lock behind', async () => {
    await saved(
      'actions/slow-top-up',
      sqlAction('slow-top-up', 'pg', [topUpPg, { title: 'Wait', sql: 'SELECT pg_sleep(20)' }]),
    );
    const answer = await api.post(executions('slow-top-up'), { arguments: { region: 'jp' }, preview: true });
    expect(answer.status).toBe(504);
    expect(answer.body.execution).toMatchObject({ status: 'timed_out', preview: true });
    // Right after the answer, another session locks the same rows without waiting.
    const locked = await onPostgres((c) =>
      c.query("SELECT id FROM wallets WHERE region = 'jp' FOR UPDATE NOWAIT"),
    );
    expect(locked.rowCount).toBe(3);
    expect(await balances()).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ]);
  });

  it('preview is a boolean, not with async or dryRun, and only for kinds that can roll back', async () => {
    const text = await api.post(executions('top-up'), { arguments: { region: 'jp' }, preview: 'yes' });
    expect(text.status).toBe(400);
    expect(text.body.errors).toEqual([{ pointer: '#/preview', detail: 'must be a boolean' }]);
    const withAsync = await api.post(executions('top-up'), {
      arguments: { region: 'jp' },
      preview: true,
      async: true,
    });
    expect(withAsync.status).toBe(400);
    expect(withAsync.body.errors).toEqual([{ pointer: '#/async', detail: 'not allowed with preview' }]);
    const http = await api.post(executions('exchange-rates'), { arguments: {}, preview: true });
    expect(http.status).toBe(422);
    expect(http.body.errors).toEqual([
      { pointer: '#/preview', detail: 'not supported by this data source kind' },
    ]);
  });

  it('a preview query is checked at save: it reads', async () => {
    const answer = await api.put(
      `${base}/actions/bad-preview`,
      sqlAction('bad-preview', 'pg', [{ ...topUpPg, previewSql: 'DELETE FROM wallets' }]),
    );
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body.errors)).toContain('#/statements/0/previewSql');
  });
});

describe('preview on MariaDB', () => {
  it('an UPDATE of three rows previews 3 and changes none', async () => {
    const answer = await api.post(executions('maria-top-up'), { arguments: { region: 'jp' }, preview: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [statement] = answer.body.results;
    expect(statement.preview.rowsAffected).toBe(3);
    expect(statement.preview.before.rows.map((r: { balance: number }) => r.balance)).toEqual([10, 20, 30]);
    expect(statement.preview.after.rows.map((r: { balance: number }) => r.balance)).toEqual([110, 120, 130]);
    expect(await mariaBalances()).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ]);
  });

  it('refuses DDL (MySQL commits it implicitly), and the table is as it was', async () => {
    await saved(
      'actions/maria-ddl',
      sqlAction('maria-ddl', 'maria', [
        topUpMaria,
        { title: 'Add column', sql: 'ALTER TABLE wallets ADD COLUMN note varchar(10)' },
      ]),
    );
    const answer = await api.post(executions('maria-ddl'), { arguments: { region: 'jp' }, preview: true });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      {
        pointer: '#/statements/1/sql',
        detail:
          'MySQL commits a ALTER statement implicitly (and DDL cannot be rolled back): it cannot be previewed.',
      },
    ]);
    const columns = await maria.admin(async (c) => {
      const [rows] = await c.query('SHOW COLUMNS FROM wallets');
      return (rows as { Field: string }[]).map((r) => r.Field);
    });
    expect(columns).toEqual(['id', 'region', 'balance']);
    expect(await mariaBalances()).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ]);
  });

  it('refuses LOCK TABLES, SET GLOBAL, hidden COMMITs and tables of engines without transactions', async () => {
    const refusal = async (sql: string) => {
      await saved('actions/maria-one', sqlAction('maria-one', 'maria', [{ title: 'One', sql }]));
      const answer = await api.post(executions('maria-one'), { arguments: { region: 'jp' }, preview: true });
      expect(answer.status, sql).toBe(422);
      return answer.body.errors[0].detail as string;
    };
    expect(await refusal('LOCK TABLES wallets WRITE')).toMatch(/^LOCK TABLES commits/);
    expect(await refusal('SET GLOBAL max_connections = 10')).toMatch(/^SET changes the session/);
    expect(await refusal('/*!50000 DROP TABLE wallets */')).toMatch(/^MySQL commits a DROP/);
    expect(await refusal("INSERT INTO ledger VALUES (1, 'x')")).toMatch(
      new RegExp(`${maria.name}\\.ledger \\(MyISAM\\)`),
    );
    const ledger = await maria.admin(async (c) => (await c.query('SELECT COUNT(*) AS n FROM ledger'))[0]);
    expect((ledger as { n: number }[])[0]!.n).toBe(0);
  });

  it('a preview that reaches the time limit leaves no lock behind', async () => {
    await saved(
      'actions/maria-slow',
      sqlAction('maria-slow', 'maria', [topUpMaria, { title: 'Wait', sql: 'SELECT SLEEP(20)' }]),
    );
    const answer = await api.post(executions('maria-slow'), { arguments: { region: 'jp' }, preview: true });
    expect(answer.status).toBe(504);
    const locked = await maria.admin(async (c) => {
      const [rows] = await c.query("SELECT id FROM wallets WHERE region = 'jp' FOR UPDATE NOWAIT");
      return (rows as unknown[]).length;
    });
    expect(locked).toBe(3);
    expect(await mariaBalances()).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ]);
  });
});

describe('a review request carries the preview', () => {
  it('taken at request time for the approver; taken again on approval, stopping when the numbers changed', async () => {
    await saved(
      'actions/gated-top-up',
      sqlAction('gated-top-up', 'pg', [topUpPg], { review: { required: true, expiresInMinutes: 60 } }),
    );
    const requester = await member('usr_preview_req', 'member');
    const approver = await member('usr_preview_ok', 'admin');
    const requested = await requester.post(executions('gated-top-up'), { arguments: { region: 'jp' } });
    expect(requested.status, JSON.stringify(requested.body)).toBe(202);
    const id = requested.body.reviewRequest.id;
    // What the approver reads: the same numbers and rows.
    const seen = await approver.get(`${base}/review-requests/${id}`);
    expect(seen.body.preview.statements).toEqual([
      expect.objectContaining({ title: 'Top up', status: 'succeeded', rowsAffected: 3 }),
    ]);
    expect(seen.body.preview.statements[0].after.rows.map((r: { balance: number }) => r.balance)).toEqual([
      110, 120, 130,
    ]);
    expect(await balances()).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ]);

    // Meanwhile a fourth wallet joins the region: the approval stops and says what changed.
    await onPostgres((c) => c.query("INSERT INTO wallets VALUES (5, 'jp', 50)"));
    const stopped = await approver.post(`${base}/review-requests/${id}/approve`, {});
    expect(stopped.status).toBe(409);
    expect(stopped.body).toMatchObject({ code: 'state_conflict', reason: 'preview_changed' });
    expect(stopped.body.detail).toContain("'Top up' 3 rows → 4 rows");
    expect(stopped.body.previewAtApproval.statements[0].rowsAffected).toBe(4);
    expect((await approver.get(`${base}/review-requests/${id}`)).body.status).toBe('pending');
    expect((await balances()).map(([, balance]) => balance)).toEqual([10, 20, 30, 40, 50]);

    // Seen and accepted: it runs, for real this time.
    const approved = await approver.post(`${base}/review-requests/${id}/approve`, {
      acceptPreviewChange: true,
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.reviewRequest).toMatchObject({
      status: 'executed',
      previewAtApproval: { statements: [expect.objectContaining({ rowsAffected: 4 })] },
    });
    expect(approved.body.execution.preview).toBeUndefined();
    expect((await balances()).map(([, balance]) => balance)).toEqual([110, 120, 130, 40, 150]);
  });
});
