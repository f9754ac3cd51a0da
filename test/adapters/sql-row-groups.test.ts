/**
 * `runGroup` of the PostgreSQL and MySQL/MariaDB connectors against the machine's real servers
 * (decision 0255): rows in one transaction with a savepoint each; failing rows anywhere (first, two
 * in a row, last, all) roll back alone with their own errors; a deferred constraint that fails at
 * COMMIT rolls the whole group back; the connection goes back to the pool usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMysqlConnector } from '../../shared/connectors/mysql/mysql-connector.ts';
import { openPostgresConnector } from '../../shared/connectors/postgresql/postgres-connector.ts';
import { PooledConnectorFactory } from '../../shared/connectors/sql/connector-factory.ts';
import type { GroupOutcome, SqlConnector } from '../../shared/connectors/sql/sql-ports.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

let database: TestDatabase;
let maria: TestMysqlDatabase;
let factory: PooledConnectorFactory;
let postgres: SqlConnector;
let mysql: SqlConnector;

beforeAll(async () => {
  [database, maria] = await Promise.all([createTestDatabase(), createTestMysqlDatabase()]);
  factory = new PooledConnectorFactory(2, { postgresql: openPostgresConnector, mysql: openMysqlConnector });
  postgres = factory.sql('postgresql', 'test/pg/dev', database.connection);
  mysql = factory.sql('mysql', 'test/maria/dev', maria.connection);
  await postgres.run(
    { title: 'setup', text: 'CREATE TABLE entries (k int PRIMARY KEY)', values: [] },
    { signal: AbortSignal.timeout(10_000) },
  );
  await postgres.run(
    {
      title: 'setup',
      text: `CREATE TABLE deferred_keys (k int, CONSTRAINT one_k UNIQUE (k) DEFERRABLE INITIALLY DEFERRED)`,
      values: [],
    },
    { signal: AbortSignal.timeout(10_000) },
  );
  await maria.admin((c) => c.query('CREATE TABLE entries (k int PRIMARY KEY) ENGINE=InnoDB'));
}, 60_000);
afterAll(async () => {
  await factory?.close();
  await Promise.all([database?.drop(), maria?.drop()]);
});

const dialects = () => [
  {
    name: 'PostgreSQL',
    connector: postgres,
    insert: 'INSERT INTO entries (k) VALUES ($1)',
    duplicate: /23505/,
  },
  {
    name: 'MariaDB',
    connector: mysql,
    insert: 'INSERT INTO entries (k) VALUES (?)',
    duplicate: /Duplicate entry/,
  },
];

async function group(connector: SqlConnector, text: string, keys: number[]): Promise<GroupOutcome> {
  let recorded = 0;
  const outcome = await connector.runGroup!(
    keys.map((k) => ({ title: 'insert', text, values: [k] })),
    {
      signal: AbortSignal.timeout(10_000),
      beforeRun: async () => {
        recorded++;
      },
    },
  );
  expect(recorded).toBe(1);
  return outcome;
}

const okPattern = (outcome: GroupOutcome) =>
  outcome.kind === 'committed' ? outcome.rows.map((r) => (r.ok ? 'ok' : 'failed')) : outcome.kind;

async function storedKeys(connector: SqlConnector): Promise<number[]> {
  const result = await connector.run(
    { title: 'read', text: 'SELECT k FROM entries ORDER BY k', values: [] },
    { signal: AbortSignal.timeout(10_000) },
  );
  return result.rows.map((r) => Number(r.k));
}

describe.each(['PostgreSQL', 'MariaDB'])('runGroup on %s', (name) => {
  const dialect = () => dialects().find((d) => d.name === name)!;

  it('rolls back the failing rows alone wherever they are, and commits the rest', async () => {
    const { connector, insert, duplicate } = dialect();
    await group(connector, insert, [1]);
    // Key 1 exists: first row fails; 5 twice: the second 5 fails right after a success; the last repeats 2.
    const outcome = await group(connector, insert, [1, 2, 3, 5, 5, 6, 2]);
    expect(okPattern(outcome)).toEqual(['failed', 'ok', 'ok', 'ok', 'failed', 'ok', 'failed']);
    if (outcome.kind !== 'committed') throw new Error('not committed');
    for (const at of [0, 4, 6]) {
      const row = outcome.rows[at]!;
      expect(row.ok ? '' : row.error.message, `row ${at}`).toMatch(duplicate);
    }
    expect(await storedKeys(connector)).toEqual([1, 2, 3, 5, 6]);
  });

  it('a group whose every row fails commits nothing and leaves the connection usable', async () => {
    const { connector, insert } = dialect();
    const outcome = await group(connector, insert, [1, 2, 3]);
    expect(okPattern(outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(await storedKeys(connector)).toEqual([1, 2, 3, 5, 6]);
    // Both pooled connections again, each outside any transaction.
    const outcomes = await Promise.all([group(connector, insert, [7]), group(connector, insert, [8])]);
    expect(outcomes.map(okPattern)).toEqual([['ok'], ['ok']]);
    expect(await storedKeys(connector)).toEqual([1, 2, 3, 5, 6, 7, 8]);
  });
});

describe('runGroup on PostgreSQL at COMMIT', () => {
  it('a deferred constraint failing at COMMIT rolls the whole group back', async () => {
    const outcome = await group(postgres, 'INSERT INTO deferred_keys (k) VALUES ($1)', [1, 2, 1]);
    expect(outcome.kind).toBe('rolled_back');
    if (outcome.kind === 'rolled_back') expect(outcome.reason.message).toMatch(/23505/);
    const count = await postgres.run(
      { title: 'read', text: 'SELECT count(*)::int AS n FROM deferred_keys', values: [] },
      { signal: AbortSignal.timeout(10_000) },
    );
    expect(count.rows).toEqual([{ n: 0 }]);
  });
});
