/** The PostgreSQL connector against the machine's real PostgreSQL server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresConnector } from '../../shared/connectors/postgresql/postgres-connector.ts';
import { PooledConnectorFactory } from '../../shared/connectors/sql/connector-factory.ts';
import type { SqlConnector } from '../../shared/connectors/sql/sql-ports.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

let database: TestDatabase;
let factory: PooledConnectorFactory;
let connector: SqlConnector;
const signal = () => AbortSignal.timeout(10_000);

beforeAll(async () => {
  database = await createTestDatabase();
  factory = new PooledConnectorFactory(4, { postgresql: openPostgresConnector });
  connector = factory.sql('postgresql', 'test/pg/dev', database.connection);
});
afterAll(async () => {
  await factory?.close();
  await database?.drop();
});

async function failure(run: Promise<unknown>): Promise<DoguError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DoguError);
  return error as DoguError;
}

describe('PostgresConnector', () => {
  it('binds values as placeholders and types the columns', async () => {
    const result = await connector.run(
      {
        title: 't',
        text: `SELECT $1::text AS name, $2::int AS n, 2.5::float8 AS f, true AS ok, 9007199254740993::int8 AS big,
                      '{"a":1}'::jsonb AS doc, DATE '2026-11-22' AS day, TIMESTAMPTZ '2026-11-22 09:00:00+09' AS at`,
        values: ["O'Brien", 7],
      },
      { signal: signal() },
    );
    expect(result.columns).toEqual([
      { name: 'name', type: 'string' },
      { name: 'n', type: 'number' },
      { name: 'f', type: 'number' },
      { name: 'ok', type: 'boolean' },
      { name: 'big', type: 'bigint' },
      { name: 'doc', type: 'string' },
      { name: 'day', type: 'string' },
      { name: 'at', type: 'string' },
    ]);
    expect(result.rows).toEqual([
      {
        name: "O'Brien",
        n: 7,
        f: 2.5,
        ok: true,
        big: '9007199254740993', // beyond 2^53: kept exact as a string
        doc: '{"a": 1}',
        day: '2026-11-22',
        at: expect.stringMatching(/^2026-11-22 00:00:00\+00/),
      },
    ]);
    expect(result.messages).toEqual([]);
  });

  it('returns unsupported types as strings with a message naming the column', async () => {
    const result = await connector.run(
      { title: 't', text: "SELECT 12.345::numeric AS price, interval '1 day' AS span", values: [] },
      { signal: signal() },
    );
    expect(result.rows).toEqual([{ price: '12.345', span: '1 day' }]);
    expect(result.columns).toEqual([
      { name: 'price', type: 'string' },
      { name: 'span', type: 'string' },
    ]);
    expect(result.messages).toEqual([
      "Column 'price' has type numeric, which is not supported; its values are returned as strings.",
      "Column 'span' has type interval, which is not supported; its values are returned as strings.",
    ]);
  });

  it('keeps duplicate column names apart', async () => {
    const result = await connector.run(
      { title: 't', text: 'SELECT 1 AS id, 2 AS id', values: [] },
      { signal: signal() },
    );
    expect(result.rows).toEqual([{ id: 1, id_2: 2 }]);
    expect(result.messages).toEqual(["Column 'id' appears more than once; occurrence 2 is named 'id_2'."]);
  });

  it('does not let a renamed duplicate take the name of a real column', async () => {
    const result = await connector.run(
      { title: 't', text: 'SELECT 1 AS id_2, 2 AS id, 3 AS id', values: [] },
      { signal: signal() },
    );
    expect(result.rows).toEqual([{ id_2: 1, id: 2, id_3: 3 }]);
  });

  it('returns no columns for a statement without a result set', async () => {
    await connector.run(
      { title: 't', text: 'CREATE TABLE notes (body text)', values: [] },
      { signal: signal() },
    );
    const insert = await connector.run(
      { title: 't', text: 'INSERT INTO notes VALUES ($1)', values: ["'); DROP TABLE notes; --"] },
      { signal: signal() },
    );
    expect(insert).toEqual({ columns: [], rows: [], messages: ['1 row affected.'] });
    const read = await connector.run(
      { title: 't', text: 'SELECT body FROM notes', values: [] },
      { signal: signal() },
    );
    expect(read.rows).toEqual([{ body: "'); DROP TABLE notes; --" }]);
  });

  it('counts the rows an UPDATE touched and says nothing for DDL', async () => {
    for (const text of ['CREATE TABLE counted (n int)', 'INSERT INTO counted VALUES (1), (2), (3)']) {
      await connector.run({ title: 't', text, values: [] }, { signal: signal() });
    }
    const update = await connector.run(
      { title: 't', text: 'UPDATE counted SET n = n + $1', values: [10] },
      { signal: signal() },
    );
    expect(update.messages).toEqual(['3 rows affected.']);
    const ddl = await connector.run(
      { title: 't', text: 'DROP TABLE counted', values: [] },
      { signal: signal() },
    );
    expect(ddl).toEqual({ columns: [], rows: [], messages: [] });
  });

  it('parses json and jsonb only when the action asks for it', async () => {
    const text = `SELECT '{"a":[1,2]}'::jsonb AS doc, '"x"'::json AS scalar, NULL::jsonb AS missing`;
    const parsed = await connector.run(
      { title: 't', text, values: [] },
      { signal: signal(), parseJsonValues: true },
    );
    expect(parsed.columns).toEqual([
      { name: 'doc', type: 'json' },
      { name: 'scalar', type: 'json' },
      { name: 'missing', type: 'json' },
    ]);
    expect(parsed.rows).toEqual([{ doc: { a: [1, 2] }, scalar: 'x', missing: null }]);
    expect(parsed.messages).toEqual([]);

    const raw = await connector.run(
      { title: 't', text, values: [] },
      { signal: signal(), parseJsonValues: false },
    );
    expect(raw.columns.map((c) => c.type)).toEqual(['string', 'string', 'string']);
    expect(raw.rows).toEqual([{ doc: '{"a": [1, 2]}', scalar: '"x"', missing: null }]);
  });

  it('reports a database error with its SQLSTATE', async () => {
    const error = await failure(
      connector.run({ title: 't', text: 'SELECT * FROM missing', values: [] }, { signal: signal() }),
    );
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe('PostgreSQL error 42P01: relation "missing" does not exist');
  });

  it('cancels the query on the server when the execution time runs out', async () => {
    const started = Date.now();
    const error = await failure(
      connector.run(
        { title: 't', text: 'SELECT pg_sleep(10)', values: [] },
        { signal: AbortSignal.timeout(300) },
      ),
    );
    expect(error.code).toBe('execution_timeout');
    expect(Date.now() - started).toBeLessThan(5_000);
    // Nothing is left running on the server.
    const running = await connector.run(
      {
        title: 't',
        text: "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(10)' AND state = 'active'",
        values: [],
      },
      { signal: signal() },
    );
    expect(running.rows).toEqual([{ n: 0 }]);
  });

  it("ends a statement at the data source's own shorter time-out", async () => {
    const short = factory.sql('postgresql', 'test/pg/short', {
      ...database.connection,
      statementTimeoutMs: 200,
    });
    const error = await failure(
      short.run({ title: 't', text: 'SELECT pg_sleep(5)', values: [] }, { signal: signal() }),
    );
    expect(error.code).toBe('execution_timeout');
    expect(error.message).toContain("data source's time-out (statementTimeoutMs 200 ms)");
  });

  it('says clearly when the database cannot be reached', async () => {
    const down = factory.sql('postgresql', 'test/pg/down', { ...database.connection, port: 1 });
    const error = await failure(down.run({ title: 't', text: 'SELECT 1', values: [] }, { signal: signal() }));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toContain('connection refused');
    expect(error.message).toContain('127.0.0.1:1');
  });

  it('never puts the password into an error', async () => {
    const wrong = factory.sql('postgresql', 'test/pg/auth', {
      ...database.connection,
      user: 'nobody_here',
      password: 's3cret-pw',
    });
    const error = await failure(
      wrong.run({ title: 't', text: 'SELECT 1', values: [] }, { signal: signal() }),
    );
    expect(error.code).toBe('data_source_error');
    expect(error.message).not.toContain('s3cret-pw');
  });

  it('lets a run on a replaced pool finish', async () => {
    const old = factory.sql('postgresql', 'test/pg/replaced', database.connection);
    // Replaced while the run is still waiting for its first connection.
    const running = old.run(
      { title: 't', text: 'SELECT 1 AS one FROM pg_sleep(0.2)', values: [] },
      { signal: signal() },
    );
    factory.sql('postgresql', 'test/pg/replaced', { ...database.connection, statementTimeoutMs: 5_000 });
    expect((await running).rows).toEqual([{ one: 1 }]);
  });

  it('replaces the pool when the connection settings change', () => {
    const a = factory.sql('postgresql', 'test/pg/swap', database.connection);
    expect(factory.sql('postgresql', 'test/pg/swap', database.connection)).toBe(a);
    expect(
      factory.sql('postgresql', 'test/pg/swap', { ...database.connection, statementTimeoutMs: 1000 }),
    ).not.toBe(a);
  });
});

describe('one statement is one statement', () => {
  it('refuses several statements in one, even without values', async () => {
    const { PooledConnectorFactory } = await import('../../shared/connectors/sql/connector-factory.ts');
    const { createTestDatabase } = await import('../support/postgres.ts');
    const database = await createTestDatabase();
    const factory = new PooledConnectorFactory(1, { postgresql: openPostgresConnector });
    try {
      const connector = factory.sql('postgresql', 'multi', database.connection);
      const run = connector.run(
        { title: 't', text: 'SELECT 1; CREATE TABLE sneaky (x int)', values: [] },
        { signal: AbortSignal.timeout(5000) },
      );
      await expect(run).rejects.toMatchObject({ code: 'data_source_error' });
      const check = await connector.run(
        { title: 't', text: "SELECT to_regclass('sneaky') IS NULL AS absent", values: [] },
        { signal: AbortSignal.timeout(5000) },
      );
      expect(check.rows).toEqual([{ absent: true }]);
    } finally {
      await factory.close();
      await database.drop();
    }
  });
});
