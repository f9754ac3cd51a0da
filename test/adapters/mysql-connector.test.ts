/** The MySQL connector against the machine's real MariaDB server, in a fresh database per run. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMysqlConnector } from '../../shared/connectors/mysql/mysql-connector.ts';
import { openPostgresConnector } from '../../shared/connectors/postgresql/postgres-connector.ts';
import { PooledConnectorFactory } from '../../shared/connectors/sql/connector-factory.ts';
import type { SqlConnector, SqlRunOptions } from '../../shared/connectors/sql/sql-ports.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';

let database: TestMysqlDatabase;
let factory: PooledConnectorFactory;
let connector: SqlConnector;
const options = (extra: Partial<SqlRunOptions> = {}): SqlRunOptions => ({
  signal: AbortSignal.timeout(10_000),
  ...extra,
});
const run = (text: string, values: unknown[] = [], extra: Partial<SqlRunOptions> = {}) =>
  connector.run({ title: 't', text, values }, options(extra));

beforeAll(async () => {
  database = await createTestMysqlDatabase();
  // Both drivers: one test swaps the dialect under the same key.
  factory = new PooledConnectorFactory(4, { mysql: openMysqlConnector, postgresql: openPostgresConnector });
  connector = factory.sql('mysql', 'test/my/dev', database.connection);
});
afterAll(async () => {
  await factory?.close();
  await database?.drop();
});

async function failure(promise: Promise<unknown>): Promise<DoguError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DoguError);
  return error as DoguError;
}

/** Statements of this test database still running on the server, seen from a connection of its own. */
async function runningStatements(marker: string): Promise<number> {
  return database.admin(async (c) => {
    const [rows] = await c.query(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE CONCAT('%', ?, '%') AND ID <> CONNECTION_ID()",
      [marker],
    );
    return Number((rows as { n: number | string }[])[0]!.n);
  });
}

describe('MysqlConnector', () => {
  it('binds text, number, boolean and null values and types the columns', async () => {
    const result = await run('SELECT ? AS name, ? AS n, ? AS yes, ? AS no, ? AS nothing, ? + 1 AS fraction', [
      "O'Brien",
      7,
      true,
      false,
      null,
      1.5,
    ]);
    expect(result.rows).toEqual([{ name: "O'Brien", n: 7, yes: 1, no: 0, nothing: null, fraction: 2.5 }]);
    expect(result.columns).toEqual([
      { name: 'name', type: 'string' },
      { name: 'n', type: 'number' },
      { name: 'yes', type: 'number' }, // MySQL has no boolean type: TRUE is 1
      { name: 'no', type: 'number' },
      { name: 'nothing', type: 'string' },
      { name: 'fraction', type: 'number' },
    ]);
  });

  it('maps the column types of a table as spec 2.2 says, dates exactly as the server sends them', async () => {
    await database.admin(async (c) => {
      await c.query(`CREATE TABLE typed (
        ti TINYINT, si SMALLINT, mi MEDIUMINT, i INT, y YEAR, f FLOAT, d DOUBLE, big BIGINT, ubig BIGINT UNSIGNED,
        day DATE, at DATETIME(3), ts TIMESTAMP NULL, t TIME, c CHAR(3), v VARCHAR(20), tx TEXT,
        e ENUM('small','large'), s SET('red','blue'))`);
      await c.query(`INSERT INTO typed VALUES (-5, 300, 70000, 2000000000, 2026, 0.1, 0.1, 9007199254740993,
        18446744073709551615, '2026-11-22', '2026-11-22 09:00:00.123', '2026-11-22 23:30:00', '-01:02:03',
        'abc', 'héllo ✓', 'long text', 'large', 'red,blue')`);
    });
    const result = await run('SELECT * FROM typed');
    expect(result.columns).toEqual([
      { name: 'ti', type: 'number' },
      { name: 'si', type: 'number' },
      { name: 'mi', type: 'number' },
      { name: 'i', type: 'number' },
      { name: 'y', type: 'number' },
      { name: 'f', type: 'number' },
      { name: 'd', type: 'number' },
      { name: 'big', type: 'bigint' },
      { name: 'ubig', type: 'bigint' },
      { name: 'day', type: 'string' },
      { name: 'at', type: 'string' },
      { name: 'ts', type: 'string' },
      { name: 't', type: 'string' },
      { name: 'c', type: 'string' },
      { name: 'v', type: 'string' },
      { name: 'tx', type: 'string' },
      { name: 'e', type: 'string' },
      { name: 's', type: 'string' },
    ]);
    expect(result.rows).toEqual([
      {
        ti: -5,
        si: 300,
        mi: 70000,
        i: 2000000000,
        y: 2026,
        f: 0.1, // a FLOAT's shortest form, not 0.10000000149011612
        d: 0.1,
        big: '9007199254740993', // beyond 2^53: exact as a string
        ubig: '18446744073709551615',
        day: '2026-11-22',
        at: '2026-11-22 09:00:00.123',
        ts: '2026-11-22 23:30:00', // no Date, no time-zone shift
        t: '-01:02:03',
        c: 'abc',
        v: 'héllo ✓',
        tx: 'long text',
        e: 'large',
        s: 'red,blue',
      },
    ]);
    expect(result.messages).toEqual([]);
  });

  it('keeps a BIGINT exact in and out', async () => {
    const result = await run('SELECT CAST(? AS SIGNED) + 0 AS big', ['9007199254740993']);
    expect(result.columns).toEqual([{ name: 'big', type: 'bigint' }]);
    expect(result.rows).toEqual([{ big: '9007199254740993' }]);
  });

  it('takes a JS number for LIMIT ?', async () => {
    await database.admin((c) => c.query('CREATE TABLE numbers (n INT PRIMARY KEY)'));
    await run('INSERT INTO numbers VALUES (?), (?), (?), (?), (?)', [1, 2, 3, 4, 5]);
    const result = await run('SELECT n FROM numbers WHERE n > ? ORDER BY n LIMIT ?', [1, 2]);
    expect(result.rows).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('returns unsupported types as strings, binary data in base64, with a message naming the column', async () => {
    await database.admin(async (c) => {
      await c.query(
        'CREATE TABLE odd (price DECIMAL(10,2), flags BIT(3), data BLOB, code BINARY(3), raw VARBINARY(8), place POINT)',
      );
      await c.query("INSERT INTO odd VALUES (12.34, b'101', 'hi', 'ab', 'xyz', POINT(1, 2))");
    });
    const result = await run('SELECT * FROM odd');
    expect(result.columns.every((column) => column.type === 'string')).toBe(true);
    expect(result.rows).toEqual([
      {
        price: '12.34',
        flags: Buffer.from([0b101]).toString('base64'),
        data: Buffer.from('hi').toString('base64'),
        code: Buffer.from('ab\0').toString('base64'),
        raw: Buffer.from('xyz').toString('base64'),
        place: '{"x":1,"y":2}',
      },
    ]);
    expect(result.messages).toEqual([
      "Column 'price' has type decimal, which is not supported; its values are returned as strings.",
      "Column 'flags' has type bit, which is not supported; its values are returned as strings (base64).",
      "Column 'data' has type blob, which is not supported; its values are returned as strings (base64).",
      "Column 'code' has type binary, which is not supported; its values are returned as strings (base64).",
      "Column 'raw' has type varbinary, which is not supported; its values are returned as strings (base64).",
      "Column 'place' has type geometry, which is not supported; its values are returned as strings (JSON of the coordinates).",
    ]);
  });

  it("parses JSON (MariaDB's LONGTEXT with a JSON check, and JSON functions) only when asked", async () => {
    await database.admin(async (c) => {
      await c.query('CREATE TABLE docs (doc JSON, note LONGTEXT)');
      await c.query(`INSERT INTO docs VALUES ('{"a": [1, 2]}', '{"not": "json column"}'), (NULL, NULL)`);
    });
    const text = "SELECT doc, note, JSON_OBJECT('k', 1) AS made FROM docs ORDER BY doc IS NULL";
    const parsed = await run(text, [], { parseJsonValues: true });
    expect(parsed.columns).toEqual([
      { name: 'doc', type: 'json' },
      { name: 'note', type: 'string' },
      { name: 'made', type: 'json' },
    ]);
    expect(parsed.rows).toEqual([
      { doc: { a: [1, 2] }, note: '{"not": "json column"}', made: { k: 1 } },
      { doc: null, note: null, made: { k: 1 } },
    ]);

    const raw = await run(text, [], { parseJsonValues: false });
    expect(raw.columns.map((c) => c.type)).toEqual(['string', 'string', 'string']);
    expect(raw.rows[0]).toEqual({ doc: '{"a": [1, 2]}', note: '{"not": "json column"}', made: '{"k": 1}' });
  });

  it('keeps duplicate column names apart', async () => {
    const result = await run('SELECT 1 AS id, 2 AS id, 3 AS id');
    expect(result.rows).toEqual([{ id: 1, id_2: 2, id_3: 3 }]);
    expect(result.messages).toEqual([
      "Column 'id' appears more than once; occurrence 2 is named 'id_2'.",
      "Column 'id' appears more than once; occurrence 3 is named 'id_3'.",
    ]);
  });

  it('reports the rows a statement without a result set affected', async () => {
    await database.admin((c) => c.query('CREATE TABLE counted (n INT)'));
    const insert = await run('INSERT INTO counted VALUES (?), (?), (?)', [1, 2, 3]);
    expect(insert).toEqual({ columns: [], rows: [], messages: ['3 rows affected.'] });
    const update = await run('UPDATE counted SET n = n + 1 WHERE n >= ?', [2]);
    expect(update).toEqual({ columns: [], rows: [], messages: ['2 rows affected.'] });
  });

  it('stores and compares an injection attempt literally', async () => {
    await database.admin((c) => c.query('CREATE TABLE notes (body VARCHAR(100))'));
    const attack = "'; DROP TABLE notes; --";
    await run('INSERT INTO notes VALUES (?)', [attack]);
    const found = await run('SELECT body FROM notes WHERE body = ?', [attack]);
    expect(found.rows).toEqual([{ body: attack }]);
    const backslash = await run('SELECT body FROM notes WHERE body = ?', ["\\' OR 1=1 -- "]);
    expect(backslash.rows).toEqual([]);
    // One statement is one statement: a second one is a syntax error, not a second statement.
    const error = await failure(run('SELECT 1; DROP TABLE notes'));
    expect(error.code).toBe('data_source_error');
    expect((await run('SELECT COUNT(*) AS n FROM notes')).rows).toEqual([{ n: '1' }]);
  });

  it('reports a database error with its number and SQLSTATE', async () => {
    const error = await failure(run('SELECT * FROM missing WHERE id = ?', [1]));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe(`MySQL error 1146 (42S02): Table '${database.name}.missing' doesn't exist`);
  });

  it('shows the first of several result sets and says so', async () => {
    await database.admin((c) =>
      c.query('CREATE PROCEDURE two_sets() BEGIN SELECT 1 AS a; SELECT 2 AS b; END'),
    );
    const result = await run('CALL two_sets()');
    expect(result.rows).toEqual([{ a: 1 }]);
    expect(result.messages).toEqual(['The statement returned 2 result sets; only the first is shown.']);
  });

  it('does not carry an open transaction or a changed session over to the next run', async () => {
    // One connection, so the next run must reuse it unless the connector closed it.
    const singleFactory = new PooledConnectorFactory(1, { mysql: openMysqlConnector });
    try {
      const oneConnection = singleFactory.sql('mysql', 'test/my/one', database.connection);
      const begin = await oneConnection.run(
        { title: 't', text: 'SET autocommit = 0', values: [] },
        options(),
      );
      expect(begin.messages[1]).toContain('Each statement runs in its own transaction');
      const after = await oneConnection.run(
        { title: 't', text: 'SELECT @@autocommit AS ac, DATABASE() AS db', values: [] },
        options(),
      );
      expect(after.rows).toEqual([{ ac: '1', db: database.name }]);
      const use = await oneConnection.run({ title: 't', text: 'USE mysql', values: [] }, options());
      expect(use.messages[1]).toContain('changed the session');
      const db = await oneConnection.run(
        { title: 't', text: 'SELECT DATABASE() AS db', values: [] },
        options(),
      );
      expect(db.rows).toEqual([{ db: database.name }]);
    } finally {
      await singleFactory.close();
    }
  });

  it('cancels the query on the server when the execution deadline passes', async () => {
    const marker = `deadline_${Date.now()}`;
    const started = Date.now();
    const error = await failure(
      connector.run(
        { title: 't', text: `SELECT SLEEP(10) AS ${marker}`, values: [] },
        { signal: AbortSignal.timeout(300) },
      ),
    );
    expect(error.code).toBe('execution_timeout');
    expect(error.message).toBe('The execution exceeded its time limit and the query was cancelled.');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await runningStatements(marker)).toBe(0);
  });

  it("ends a statement at the data source's own time-out, on the server too", async () => {
    const short = factory.sql('mysql', 'test/my/short', { ...database.connection, statementTimeoutMs: 300 });
    const marker = `own_limit_${Date.now()}`;
    const started = Date.now();
    const error = await failure(
      short.run({ title: 't', text: `SELECT SLEEP(10) AS ${marker}`, values: [] }, options()),
    );
    expect(error.code).toBe('execution_timeout');
    expect(error.message).toBe('The statement exceeded the data source time-out (300 ms) and was cancelled.');
    // Our own timer and KILL QUERY, well before the server's backstop (1.3 s) would end it.
    expect(Date.now() - started).toBeLessThan(1_200);
    expect(await runningStatements(marker)).toBe(0);
    // The server's backstop of the same limit (a second later) is set on the session.
    const session = await short.run(
      { title: 't', text: 'SELECT @@max_statement_time AS limit_s', values: [] },
      options(),
    );
    expect(Number(session.rows[0]!.limit_s)).toBeCloseTo(1.3);
  });

  it('says clearly when the database cannot be reached', async () => {
    const down = factory.sql('mysql', 'test/my/down', { ...database.connection, port: 1 });
    const error = await failure(down.run({ title: 't', text: 'SELECT 1', values: [] }, options()));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe(
      `Could not connect to MySQL data source 'test/my/down' (127.0.0.1:1/${database.name}): connection refused.`,
    );
  });

  it('says clearly when the host does not exist', async () => {
    const nowhere = factory.sql('mysql', 'test/my/nowhere', {
      ...database.connection,
      host: 'no-such-host.invalid',
    });
    const error = await failure(nowhere.run({ title: 't', text: 'SELECT 1', values: [] }, options()));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toContain('host not found');
  });

  it('says access was denied and never puts the password into the error', async () => {
    const wrong = factory.sql('mysql', 'test/my/auth', { ...database.connection, password: 's3cret-pw' });
    const error = await failure(wrong.run({ title: 't', text: 'SELECT 1', values: [] }, options()));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toContain("access denied for user 'root'");
    expect(error.message).not.toContain('s3cret-pw');
    expect(JSON.stringify(error)).not.toContain('s3cret-pw');
  });

  it('lets a run on a replaced pool finish', async () => {
    const old = factory.sql('mysql', 'test/my/replaced', database.connection);
    // Replaced while the run is still waiting for its first connection.
    const running = old.run({ title: 't', text: 'SELECT SLEEP(0.2) AS slept', values: [] }, options());
    factory.sql('mysql', 'test/my/replaced', { ...database.connection, statementTimeoutMs: 5_000 });
    expect((await running).rows).toEqual([{ slept: 0 }]);
  });

  it('replaces the pool when the connection settings or the dialect change', () => {
    const a = factory.sql('mysql', 'test/my/swap', database.connection);
    expect(factory.sql('mysql', 'test/my/swap', database.connection)).toBe(a);
    expect(
      factory.sql('mysql', 'test/my/swap', { ...database.connection, statementTimeoutMs: 1000 }),
    ).not.toBe(a);
    const b = factory.sql('mysql', 'test/my/swap', database.connection);
    expect(factory.sql('postgresql', 'test/my/swap', database.connection)).not.toBe(b);
  });
});
