/**
 * The Athena kind against a mocked SDK client (no Athena runs here): the exact StartQueryExecution,
 * polling, result pages with the header row, the spec's type table, cancellation and bad input.
 */
import {
  AthenaClient,
  GetDatabaseCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { athenaCloudPermissions } from '../../../shared/connectors/athena/definition.ts';
import { athenaRuntime } from '../../../shared/connectors/athena/runtime.ts';
import { athenaConnection, sqlRun } from './support.ts';

const athena = mockClient(AthenaClient);
beforeEach(() => athena.reset());
afterEach(() => athena.reset());

const runtime = athenaRuntime({ pollMs: 1 });
const column = (Name: string, Type: string) => ({ Name, Label: Name, Type });
const row = (...values: (string | null)[]) => ({
  Data: values.map((v) => (v === null ? {} : { VarCharValue: v })),
});
const succeeded = (id: string, scanned = 0) => ({
  QueryExecution: {
    QueryExecutionId: id,
    StatementType: 'DML' as const,
    Status: { State: 'SUCCEEDED' as const },
    Statistics: { DataScannedInBytes: scanned },
  },
});

describe('StartQueryExecution', () => {
  it('sends the statement with ? placeholders, execution parameters as literals, result location and workgroup', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
    athena.on(GetQueryExecutionCommand).resolves(succeeded('q-1'));
    athena
      .on(GetQueryResultsCommand)
      .resolves({ ResultSet: { ResultSetMetadata: { ColumnInfo: [] }, Rows: [] } });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [
          {
            title: 'Orders',
            sql: 'SELECT * FROM {{ table }} WHERE name = {{ name }} AND n > {{ n }} AND paid = {{ paid }} AND m = {{ missing }} AND id IN {{ ids }} AND s = {{ flag }}',
          },
        ],
        parameters: [
          { name: 'table', kind: 'sql' },
          { name: 'name', kind: 'text' },
          { name: 'n', kind: 'number' },
          { name: 'paid', kind: 'boolean' },
          { name: 'missing', kind: 'number' },
          { name: 'ids', kind: 'array', itemKind: 'number', format: 'sql' },
          { name: 'flag', kind: 'boolean', format: 'string' },
        ],
        values: {
          table: 'orders',
          name: "O'Brien",
          n: 1.5,
          paid: true,
          missing: null,
          ids: [7, 8],
          flag: false,
        },
      }),
    );
    expect(result?.status, JSON.stringify(result)).toBe('succeeded');
    const calls = athena.commandCalls(StartQueryExecutionCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      QueryString:
        'SELECT * FROM orders WHERE name = ? AND n > ? AND paid = ? AND m = ? AND id IN (?, ?) AND s = ?',
      QueryExecutionContext: { Database: 'sales' },
      ResultConfiguration: { OutputLocation: 's3://dogu-results/athena/' },
      WorkGroup: 'analysts',
      ExecutionParameters: ["'O''Brien'", '1.5', 'true', 'NULL', '7', '8', "'false'"],
    });
  });

  it('sends no ExecutionParameters without references and no WorkGroup without one', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-2' });
    athena.on(GetQueryExecutionCommand).resolves(succeeded('q-2'));
    athena.on(GetQueryResultsCommand).resolves({ ResultSet: { Rows: [] } });
    const { workgroup: _, ...withoutWorkgroup } = athenaConnection;
    await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: withoutWorkgroup,
        statements: [{ title: 'All', sql: 'SELECT 1' }],
      }),
    );
    expect(athena.commandCalls(StartQueryExecutionCommand)[0]!.args[0].input).toEqual({
      QueryString: 'SELECT 1',
      QueryExecutionContext: { Database: 'sales' },
      ResultConfiguration: { OutputLocation: 's3://dogu-results/athena/' },
    });
  });
});

describe('polling and result pages', () => {
  it('polls until the query ends, reads every page, skips the header once, shows cost and query id', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-3' });
    athena
      .on(GetQueryExecutionCommand)
      .resolvesOnce({ QueryExecution: { Status: { State: 'QUEUED' } } })
      .resolvesOnce({ QueryExecution: { Status: { State: 'RUNNING' } } })
      .resolves(succeeded('q-3', 3 * 1024 * 1024));
    const info = [column('id', 'bigint'), column('name', 'varchar')];
    athena
      .on(GetQueryResultsCommand, { QueryExecutionId: 'q-3', MaxResults: 1000, NextToken: undefined })
      .resolves({
        ResultSet: {
          ResultSetMetadata: { ColumnInfo: info },
          Rows: [row('id', 'name'), row('9007199254740993', 'a')],
        },
        NextToken: 'page-2',
      })
      .on(GetQueryResultsCommand, { QueryExecutionId: 'q-3', MaxResults: 1000, NextToken: 'page-2' })
      .resolves({
        // A later page has no header row, even when a value looks like one.
        ResultSet: { ResultSetMetadata: { ColumnInfo: info }, Rows: [row('id', 'name'), row('2', null)] },
      });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Big', sql: 'SELECT id, name FROM t' }],
      }),
    );
    expect(athena.commandCalls(GetQueryExecutionCommand)).toHaveLength(3);
    expect(athena.commandCalls(GetQueryResultsCommand)).toHaveLength(2);
    expect(result).toMatchObject({
      title: 'Big',
      status: 'succeeded',
      columns: [
        { name: 'id', type: 'bigint' },
        { name: 'name', type: 'string' },
      ],
      rows: [
        { id: '9007199254740993', name: 'a' },
        { id: 'id', name: 'name' },
        { id: '2', name: null },
      ],
      rowCount: 3,
    });
    expect(result?.messages).toEqual(['Athena query q-3: data scanned 3.00 MB (3145728 bytes).']);
  });

  it('stops reading pages at the result size limit and marks the statement truncated', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-4' });
    athena.on(GetQueryExecutionCommand).resolves(succeeded('q-4'));
    const wide = 'x'.repeat(2000);
    const page = (header: boolean) => ({
      ResultSet: {
        ResultSetMetadata: { ColumnInfo: [column('v', 'varchar')] },
        Rows: [...(header ? [row('v')] : []), ...Array.from({ length: 1000 }, () => row(wide))],
      },
      NextToken: 'more',
    });
    athena.on(GetQueryResultsCommand).resolvesOnce(page(true)).resolves(page(false));
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Wide', sql: 'SELECT v FROM t' }],
      }),
    );
    // 32 MB (UTF-8 bytes) of ~2 KB rows is about 16,700 rows: 17 pages read, not an endless stream.
    expect(athena.commandCalls(GetQueryResultsCommand)).toHaveLength(17);
    expect(result?.truncated).toBe(true);
    expect(result?.rowCount).toBeGreaterThan(16_600);
    expect(result?.rowCount).toBeLessThan(16_800);
    expect(result?.messages.some((m) => m.startsWith(`The result was cut at ${result.rowCount} rows`))).toBe(
      true,
    );
  });
});

describe('statements without rows', () => {
  it('says how many rows an INSERT wrote', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-ins' });
    athena.on(GetQueryExecutionCommand).resolves(succeeded('q-ins', 10));
    athena
      .on(GetQueryResultsCommand)
      .resolves({ UpdateCount: 3, ResultSet: { ResultSetMetadata: { ColumnInfo: [] }, Rows: [] } });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Copy', sql: 'INSERT INTO a SELECT * FROM b' }],
      }),
    );
    expect(result).toMatchObject({ status: 'succeeded', columns: [], rows: [], rowCount: 0 });
    expect(result?.messages).toEqual([
      '3 rows affected.',
      'Athena query q-ins: data scanned 10 bytes (10 bytes).',
    ]);
  });
});

describe('the type table (spec 2.2, query service)', () => {
  const types: [string, string, string | null][] = [
    ['varchar', 'varchar', 'text'],
    ['char', 'char(3)', 'abc'],
    ['uuid', 'uuid', '6f1c2a7e-1f1e-4c55-9d2a-1b2c3d4e5f60'],
    ['ipaddress', 'ipaddress', '10.0.0.1'],
    ['date', 'date', '2026-11-26'],
    ['time', 'time', '07:15:00.000'],
    ['timetz', 'time with time zone', '07:15:00.000 +09:00'],
    ['ts', 'timestamp', '2026-11-26 07:15:00.000'],
    ['tstz', 'timestamp with time zone', '2026-11-26 07:15:00.000 Asia/Tokyo'],
    ['arr', 'array', '[1, 2]'],
    ['rw', 'row', '{a=1, b=x}'],
    ['mp', 'map', '{k=v}'],
    ['dbl', 'double', '1.5'],
    ['int', 'integer', '42'],
    ['flt', 'float', '2.25'],
    ['tiny', 'tinyint', '-8'],
    ['small', 'smallint', '300'],
    ['bool', 'boolean', 'true'],
    ['big', 'bigint', '-9223372036854775808'],
    ['js', 'json', '{"a":[1,2],"b":null}'],
    ['dec', 'decimal(20,2)', '123456789012345678.90'],
    ['bin', 'varbinary', '68 65 6c 6c 6f'],
    ['ym', 'interval year to month', '1-2'],
    ['ds', 'interval day to second', '1 02:03:04.000'],
    ['nothing', 'integer', null],
  ];

  async function query(parseJsonValues: boolean) {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-types' });
    athena.on(GetQueryExecutionCommand).resolves(succeeded('q-types'));
    athena.on(GetQueryResultsCommand).resolves({
      ResultSet: {
        ResultSetMetadata: { ColumnInfo: types.map(([name, type]) => column(name, type)) },
        Rows: [row(...types.map(([name]) => name)), row(...types.map(([, , value]) => value))],
      },
    });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        parseJsonValues,
        statements: [{ title: 'Types', sql: 'SELECT …' }],
      }),
    );
    return result!;
  }

  it('maps every type as the table says, JSON parsed when asked', async () => {
    const result = await query(true);
    expect(Object.fromEntries(result.columns.map((c) => [c.name, c.type]))).toEqual({
      varchar: 'string',
      char: 'string',
      uuid: 'string',
      ipaddress: 'string',
      date: 'string',
      time: 'string',
      timetz: 'string',
      ts: 'string',
      tstz: 'string',
      arr: 'string',
      rw: 'string',
      mp: 'string',
      dbl: 'number',
      int: 'number',
      flt: 'number',
      tiny: 'number',
      small: 'number',
      bool: 'boolean',
      big: 'bigint',
      js: 'json',
      dec: 'string',
      bin: 'string',
      ym: 'string',
      ds: 'string',
      nothing: 'number',
    });
    expect(result.rows[0]).toEqual({
      varchar: 'text',
      char: 'abc',
      uuid: '6f1c2a7e-1f1e-4c55-9d2a-1b2c3d4e5f60',
      ipaddress: '10.0.0.1',
      date: '2026-11-26',
      time: '07:15:00.000',
      timetz: '07:15:00.000 +09:00',
      ts: '2026-11-26 07:15:00.000',
      tstz: '2026-11-26 07:15:00.000 Asia/Tokyo',
      arr: '[1, 2]',
      rw: '{a=1, b=x}',
      mp: '{k=v}',
      dbl: 1.5,
      int: 42,
      flt: 2.25,
      tiny: -8,
      small: 300,
      bool: true,
      big: '-9223372036854775808',
      js: { a: [1, 2], b: null },
      dec: '123456789012345678.90',
      bin: '68 65 6c 6c 6f',
      ym: '1-2',
      ds: '1 02:03:04.000',
      nothing: null,
    });
    expect(result.messages.filter((m) => m.includes('not supported'))).toEqual([
      "Column 'dec' has type DECIMAL(20,2), which is not supported; its values are returned as strings.",
      "Column 'bin' has type VARBINARY, which is not supported; its values are returned as strings.",
      "Column 'ym' has type INTERVAL YEAR TO MONTH, which is not supported; its values are returned as strings.",
      "Column 'ds' has type INTERVAL DAY TO SECOND, which is not supported; its values are returned as strings.",
    ]);
  });

  it('keeps JSON as text when parsing is off', async () => {
    const result = await query(false);
    expect(result.columns.find((c) => c.name === 'js')?.type).toBe('string');
    expect(result.rows[0]?.js).toBe('{"a":[1,2],"b":null}');
  });
});

describe('cancellation and failures', () => {
  it('stops the query on Athena when the time limit ends the run', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-slow' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'RUNNING' } } });
    athena.on(StopQueryExecutionCommand).resolves({});
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Slow scan', sql: 'SELECT count(*) FROM huge' }],
        signal: AbortSignal.timeout(80),
      }),
    );
    expect(athena.commandCalls(StopQueryExecutionCommand).map((c) => c.args[0].input)).toEqual([
      { QueryExecutionId: 'q-slow' },
    ]);
    expect(result).toMatchObject({
      title: 'Slow scan',
      status: 'failed',
      error: { code: 'execution_timeout' },
    });
    expect(result?.error?.message).toContain('Statement "Slow scan"');
    expect(result?.error?.message).toContain('q-slow was stopped on Athena');
  });

  it('stops at the data source time limit too', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-own-limit' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'RUNNING' } } });
    athena.on(StopQueryExecutionCommand).resolves({});
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: { ...athenaConnection, statementTimeoutMs: 1000 },
        statements: [{ title: 'Slow', sql: 'SELECT 1' }],
      }),
    );
    expect(result?.error?.code).toBe('execution_timeout');
    expect(athena.commandCalls(StopQueryExecutionCommand)).toHaveLength(1);
  });

  it("reports a syntax error with Athena's message and position, naming the statement, and runs no later statement", async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-bad' });
    athena.on(GetQueryExecutionCommand).resolves({
      QueryExecution: {
        Status: {
          State: 'FAILED',
          StateChangeReason: "line 1:8: mismatched input 'FORM'",
          AthenaError: {
            ErrorCategory: 2,
            ErrorType: 1001,
            ErrorMessage: "line 1:8: mismatched input 'FORM'. Expecting: <expression>",
          },
        },
      },
    });
    const results = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [
          { title: 'Typo', sql: 'SELECT FORM t' },
          { title: 'Never', sql: 'SELECT 2' },
        ],
      }),
    );
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      title: 'Typo',
      status: 'failed',
      error: { code: 'data_source_error' },
    });
    expect(results[0]?.error?.message).toBe(
      `Statement "Typo": Athena could not run the query: line 1:8: mismatched input 'FORM'. Expecting: <expression> (query id q-bad).`,
    );
  });

  it('says when the query was cancelled on the service side', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-c' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'CANCELLED' } } });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Gone', sql: 'SELECT 1' }],
      }),
    );
    expect(result?.error?.message).toBe(
      'Statement "Gone": the query was cancelled on Athena (query id q-c).',
    );
  });

  it('refuses wrong credentials in words, without the secret key', async () => {
    athena.on(StartQueryExecutionCommand).rejects(
      Object.assign(new Error('The security token included in the request is invalid.'), {
        name: 'UnrecognizedClientException',
      }),
    );
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Keys', sql: 'SELECT 1' }],
      }),
    );
    expect(result?.error?.message).toBe(
      'Statement "Keys": Athena refused the credentials (UnrecognizedClientException): check the access key ID and secret access key.',
    );
    expect(JSON.stringify(result)).not.toContain(athenaConnection.secretAccessKey);
  });

  it('passes on a refused request (missing table) with the statement title', async () => {
    athena.on(StartQueryExecutionCommand).rejects(
      Object.assign(new Error("line 1:15: Table 'awsdatacatalog.sales.nope' does not exist"), {
        name: 'InvalidRequestException',
      }),
    );
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Missing', sql: 'SELECT * FROM nope' }],
      }),
    );
    expect(result?.error?.message).toBe(
      `Statement "Missing": Athena refused the query: line 1:15: Table 'awsdatacatalog.sales.nope' does not exist`,
    );
  });

  it('never dials a custom endpoint on a cloud metadata address', async () => {
    const [result] = await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: { ...athenaConnection, endpoint: 'http://169.254.169.254' },
        statements: [{ title: 'Meta', sql: 'SELECT 1' }],
      }),
    );
    expect(result).toMatchObject({ title: 'Meta', status: 'failed', error: { code: 'data_source_error' } });
    expect(result?.error?.message).toBe(
      'The Athena endpoint 169.254.169.254 was refused: it is a link-local or cloud metadata address, which data sources may never reach.',
    );
    expect(athena.commandCalls(StartQueryExecutionCommand)).toHaveLength(0);
  });
});

describe('the rights the kind names', () => {
  it('lists every Athena action it calls: a query, a stopped query and test connection', async () => {
    athena.on(GetDatabaseCommand).resolves({ Database: { Name: 'sales' } });
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
    athena.on(GetQueryExecutionCommand).resolves(succeeded('q-1'));
    athena.on(GetQueryResultsCommand).resolves({
      ResultSet: {
        ResultSetMetadata: { ColumnInfo: [column('one', 'integer')] },
        Rows: [row('one'), row('1')],
      },
    });
    athena.on(StopQueryExecutionCommand).resolves({});
    await runtime.testConnection({
      key: 'test/p/wh/development',
      connection: athenaConnection,
      signal: AbortSignal.timeout(5000),
    });
    await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'One', sql: 'SELECT 1' }],
      }),
    );
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'RUNNING' } } });
    await runtime.run(
      sqlRun({
        kind: 'athena',
        connection: athenaConnection,
        statements: [{ title: 'Slow', sql: 'SELECT 2' }],
        signal: AbortSignal.timeout(80),
      }),
    );
    const called = [
      ...new Set(
        athena.calls().map((call) => `athena:${call.args[0].constructor.name.replace(/Command$/, '')}`),
      ),
    ].sort();
    expect(called).toEqual([
      'athena:GetDatabase',
      'athena:GetQueryExecution',
      'athena:GetQueryResults',
      'athena:StartQueryExecution',
      'athena:StopQueryExecution',
    ]);
    expect(athenaCloudPermissions).toEqual(expect.arrayContaining(called));
    // Athena reads the Glue Data Catalog with the caller's rights: GetDatabase needs Glue's too.
    expect(athenaCloudPermissions).toContain('glue:GetDatabase');
  });
});
