/**
 * The BigQuery kind against a local stand-in for its REST API and Google's token endpoint: the
 * exact jobs.insert bodies, typed positional parameters, polling, result pages, the spec's type
 * table, the bytes-billed cap, jobs.cancel at the time limit, and bad credentials.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bigQueryRuntime } from '../../../shared/connectors/bigquery/runtime.ts';
import { sqlRun } from '../athena/support.ts';
import { accessToken, type FakeBigQuery, startFakeBigQuery } from './fake-bigquery.ts';

let fake: FakeBigQuery;
let connection: Record<string, unknown>;
const runtime = bigQueryRuntime({ pollMs: 1 });

beforeAll(async () => {
  fake = await startFakeBigQuery();
  connection = {
    projectId: 'dogu-analytics',
    serviceAccountKey: fake.keyText,
    location: 'asia-northeast1',
    apiEndpoint: fake.url,
  };
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.server.requests.length = 0;
});

const field = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  mode: 'NULLABLE',
  ...extra,
});
const cells = (...values: unknown[]) => ({ f: values.map((v) => ({ v })) });

describe('jobs.insert', () => {
  it('sends standard SQL with positional parameters of explicit types, nulls included, and the cap', async () => {
    fake.script({
      runningPolls: 2,
      statistics: { totalBytesProcessed: '10485760', totalBytesBilled: '10485760' },
    });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection: { ...connection, maximumBytesBilled: 1_000_000_000, defaultDataset: 'shop' },
        statements: [
          {
            title: 'Orders',
            sql: 'SELECT * FROM {{ table }} WHERE name = {{ name }} AND n > {{ n }} AND f < {{ f }} AND paid = {{ paid }} AND m = {{ missing }} AND id IN {{ ids }} AND d = {{ day }} AND s = {{ flag }}',
          },
        ],
        parameters: [
          { name: 'table', kind: 'sql' },
          { name: 'name', kind: 'text' },
          { name: 'n', kind: 'number', integer: true },
          { name: 'f', kind: 'number' },
          { name: 'paid', kind: 'boolean' },
          { name: 'missing', kind: 'number', integer: true },
          { name: 'ids', kind: 'array', itemKind: 'number', format: 'sql' },
          { name: 'day', kind: 'date', useAsUnixtime: true },
          { name: 'flag', kind: 'boolean', format: 'string' },
        ],
        values: {
          table: 'orders',
          name: "O'Brien",
          n: 3,
          f: 1.5,
          paid: true,
          missing: null,
          ids: [7, 8],
          day: null,
          flag: false,
        },
      }),
    );
    expect(result?.status, JSON.stringify(result)).toBe('succeeded');
    const [insert] = fake.inserts();
    const jobId = (insert!.jobReference as { jobId: string }).jobId;
    expect(jobId).toMatch(/^dogu_[0-9a-f]{32}$/);
    expect(insert).toEqual({
      jobReference: { projectId: 'dogu-analytics', jobId, location: 'asia-northeast1' },
      configuration: {
        query: {
          query:
            'SELECT * FROM orders WHERE name = ? AND n > ? AND f < ? AND paid = ? AND m = ? AND id IN (?, ?) AND d = ? AND s = ?',
          useLegacySql: false,
          // The library's spelling; the API reads it case-insensitively.
          parameterMode: 'positional',
          queryParameters: [
            { parameterType: { type: 'STRING' }, parameterValue: { value: "O'Brien" } },
            { parameterType: { type: 'INT64' }, parameterValue: { value: '3' } },
            { parameterType: { type: 'FLOAT64' }, parameterValue: { value: '1.5' } },
            { parameterType: { type: 'BOOL' }, parameterValue: { value: 'true' } },
            { parameterType: { type: 'INT64' }, parameterValue: { value: null } },
            { parameterType: { type: 'INT64' }, parameterValue: { value: '7' } },
            { parameterType: { type: 'INT64' }, parameterValue: { value: '8' } },
            { parameterType: { type: 'INT64' }, parameterValue: { value: null } },
            { parameterType: { type: 'STRING' }, parameterValue: { value: 'false' } },
          ],
          // The library leaves the types it was given beside the parameters it made of them.
          types: ['STRING', 'INT64', 'FLOAT64', 'BOOL', 'INT64', 'INT64', 'INT64', 'INT64', 'STRING'],
          maximumBytesBilled: '1000000000',
          defaultDataset: { projectId: 'dogu-analytics', datasetId: 'shop' },
        },
      },
    });
    // Two RUNNING answers, then DONE: three jobs.get calls, each with the location.
    const polls = fake.requests(`/jobs/${jobId}?`);
    expect(polls.map((r) => r.url)).toEqual(
      Array(3).fill(
        `/bigquery/v2/projects/dogu-analytics/jobs/${jobId}?location=asia-northeast1&prettyPrint=false`,
      ),
    );
    expect(polls.every((r) => r.headers.authorization === `Bearer ${accessToken}`)).toBe(true);
    expect(result?.messages).toEqual([
      `BigQuery job ${jobId}: bytes processed 10.0 MB (10485760), bytes billed 10.0 MB (10485760).`,
    ]);
  });

  it('reads every result page with its token and keeps INT64 beyond 2^53 exact', async () => {
    const schema = { fields: [field('id', 'INTEGER'), field('name', 'STRING')] };
    fake.script({
      pages: [
        { schema, rows: [cells('9007199254740993', 'a'), cells('-9223372036854775808', null)] },
        { schema, rows: [cells('3', 'c')] },
        { schema, rows: [] },
      ],
    });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection,
        statements: [{ title: 'Paged', sql: 'SELECT id, name FROM t' }],
      }),
    );
    const reads = fake.requests('/queries/').map((r) => new URL(r.url, fake.url).searchParams);
    expect(reads.map((q) => q.get('pageToken'))).toEqual([null, '1', '2']);
    expect(
      reads.every(
        (q) => q.get('maxResults') === '10000' && q.get('formatOptions.useInt64Timestamp') === 'true',
      ),
    ).toBe(true);
    expect(result).toMatchObject({
      status: 'succeeded',
      columns: [
        { name: 'id', type: 'bigint' },
        { name: 'name', type: 'string' },
      ],
      rows: [
        { id: '9007199254740993', name: 'a' },
        { id: '-9223372036854775808', name: null },
        { id: '3', name: 'c' },
      ],
      rowCount: 3,
    });
  });

  it('shows a dry-run estimate first when the data source asks for one', async () => {
    fake.script({ statistics: { totalBytesProcessed: '2048' } }, {});
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection: { ...connection, dryRunFirst: true },
        statements: [{ title: 'E', sql: 'SELECT 1' }],
      }),
    );
    const [dry, real] = fake.inserts();
    expect((dry!.configuration as { dryRun?: boolean }).dryRun).toBe(true);
    expect((real!.configuration as { dryRun?: boolean }).dryRun).toBeUndefined();
    expect(result?.messages[0]).toBe('Dry run: the query would process 2.00 KB (2048 bytes).');
  });
});

describe('limits and reuse', () => {
  it('stops reading pages at the result size limit and marks the statement truncated', async () => {
    const schema = { fields: [field('v', 'STRING')] };
    const page = { schema, rows: Array.from({ length: 1000 }, () => cells('x'.repeat(2000))) };
    fake.script({ pages: Array(20).fill(page) });
    const [result] = await runtime.run(
      sqlRun({ kind: 'bigquery', connection, statements: [{ title: 'Wide', sql: 'SELECT v FROM t' }] }),
    );
    // 32 MB (UTF-8 bytes) of ~2 KB rows is about 16,700 rows: 17 of the 20 pages are read.
    expect(fake.requests('/queries/')).toHaveLength(17);
    expect(result?.truncated).toBe(true);
    expect(result?.rowCount).toBeGreaterThan(16_600);
    expect(result?.rowCount).toBeLessThan(16_800);
  });

  it('exchanges the key for a token once and reuses it across runs', async () => {
    const before = fake.tokenRequests;
    fake.script({}, {});
    for (let i = 0; i < 2; i++)
      await runtime.run(
        sqlRun({ kind: 'bigquery', connection, statements: [{ title: 'One', sql: 'SELECT 1' }] }),
      );
    expect(fake.tokenRequests - before).toBe(0);
  });

  it('says when the job was cancelled on the service side', async () => {
    fake.script({
      errorResult: { reason: 'stopped', message: 'Job execution was cancelled: Job timed out after 6 hours' },
    });
    const [result] = await runtime.run(
      sqlRun({ kind: 'bigquery', connection, statements: [{ title: 'Gone', sql: 'SELECT 1' }] }),
    );
    expect(result?.error?.message).toMatch(
      /^Statement "Gone": the job was cancelled on BigQuery: Job execution was cancelled: Job timed out after 6 hours \(job dogu_[0-9a-f]{32}\)\.$/,
    );
  });
});

describe('the type table (spec 2.2, data warehouse)', () => {
  const schema = {
    fields: [
      field('s', 'STRING'),
      field('d', 'DATE'),
      field('dt', 'DATETIME'),
      field('t', 'TIME'),
      field('ts', 'TIMESTAMP'),
      field('f', 'FLOAT'),
      field('i', 'INTEGER'),
      field('b', 'BOOLEAN'),
      field('j', 'JSON'),
      field('g', 'GEOGRAPHY'),
      field('by', 'BYTES'),
      field('st', 'RECORD', { fields: [field('a', 'INTEGER'), field('when', 'TIMESTAMP')] }),
      field('num', 'NUMERIC'),
      field('bn', 'BIGNUMERIC'),
      field('arr', 'INTEGER', { mode: 'REPEATED' }),
      field('r', 'RANGE'),
      field('iv', 'INTERVAL'),
      field('none', 'FLOAT'),
    ],
  };
  const values = cells(
    'text',
    '2026-11-26',
    '2026-11-26T07:15:00',
    '07:15:00.123456',
    '1764141300123456',
    '1.5',
    '9007199254740993',
    'true',
    '{"a":[1,2],"b":null}',
    'POINT(139.7 35.68)',
    'aGVsbG8=',
    { f: [{ v: '1' }, { v: '0' }] },
    '123456789012345678901234567.123456789',
    '1.5e38',
    [{ v: '1' }, { v: '2' }],
    '[2026-01-01, 2026-12-31)',
    '1-2 3 4:5:6',
    null,
  );

  async function query(parseJsonValues: boolean) {
    fake.script({ pages: [{ schema, rows: [values] }] });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection,
        parseJsonValues,
        statements: [{ title: 'Types', sql: 'SELECT …' }],
      }),
    );
    return result!;
  }

  it('maps every type as the table says, JSON parsed when asked', async () => {
    const result = await query(true);
    expect(Object.fromEntries(result.columns.map((c) => [c.name, c.type]))).toEqual({
      s: 'string',
      d: 'string',
      dt: 'string',
      t: 'string',
      ts: 'string',
      f: 'number',
      i: 'bigint',
      b: 'boolean',
      j: 'json',
      g: 'string',
      by: 'string',
      st: 'string',
      num: 'string',
      bn: 'string',
      arr: 'string',
      r: 'string',
      iv: 'string',
      none: 'number',
    });
    expect(result.rows[0]).toEqual({
      s: 'text',
      d: '2026-11-26',
      dt: '2026-11-26T07:15:00',
      t: '07:15:00.123456',
      ts: '2025-11-26T07:15:00.123456Z',
      f: 1.5,
      i: '9007199254740993',
      b: true,
      j: { a: [1, 2], b: null },
      g: 'POINT(139.7 35.68)',
      by: 'aGVsbG8=',
      st: '{"a":"1","when":"1970-01-01T00:00:00.000000Z"}',
      num: '123456789012345678901234567.123456789',
      bn: '1.5e38',
      arr: '["1","2"]',
      r: '[2026-01-01, 2026-12-31)',
      iv: '1-2 3 4:5:6',
      none: null,
    });
    expect(result.messages.filter((m) => m.includes('not supported'))).toEqual([
      "Column 'g' has type GEOGRAPHY, which is not supported; its values are returned as strings.",
      "Column 'by' has type BYTES, which is not supported; its values are returned as strings (base64).",
      "Column 'st' has type STRUCT, which is not supported; its values are returned as strings.",
      "Column 'num' has type NUMERIC, which is not supported; its values are returned as strings.",
      "Column 'bn' has type BIGNUMERIC, which is not supported; its values are returned as strings.",
      "Column 'arr' has type ARRAY<INT64>, which is not supported; its values are returned as strings.",
      "Column 'r' has type RANGE, which is not supported; its values are returned as strings.",
      "Column 'iv' has type INTERVAL, which is not supported; its values are returned as strings.",
    ]);
  });

  it('keeps JSON as text when parsing is off', async () => {
    const result = await query(false);
    expect(result.columns.find((c) => c.name === 'j')?.type).toBe('string');
    expect(result.rows[0]?.j).toBe('{"a":[1,2],"b":null}');
  });
});

describe('cancellation and failures', () => {
  it('cancels the job on BigQuery when the time limit ends the run', async () => {
    fake.script({ runningPolls: Number.POSITIVE_INFINITY });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection,
        statements: [{ title: 'Slow scan', sql: 'SELECT count(*) FROM huge' }],
        signal: AbortSignal.timeout(150),
      }),
    );
    const jobId = (fake.inserts()[0]!.jobReference as { jobId: string }).jobId;
    expect(fake.requests('/cancel').map((r) => [r.method, r.url])).toEqual([
      [
        'POST',
        `/bigquery/v2/projects/dogu-analytics/jobs/${jobId}/cancel?location=asia-northeast1&prettyPrint=false`,
      ],
    ]);
    expect(result).toMatchObject({
      title: 'Slow scan',
      status: 'failed',
      error: { code: 'execution_timeout' },
    });
    expect(result?.error?.message).toBe(
      `Statement "Slow scan": the execution ended (time limit or cancelled) and BigQuery job ${jobId} was cancelled.`,
    );
  });

  it('reports a syntax error with its position, naming the statement; later statements do not run', async () => {
    fake.script({
      errorResult: {
        reason: 'invalidQuery',
        message: 'Syntax error: Unexpected identifier "FORM" at [1:8]',
        location: 'query',
      },
    });
    const results = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection,
        statements: [
          { title: 'Typo', sql: 'SELECT FORM t' },
          { title: 'Never', sql: 'SELECT 2' },
        ],
      }),
    );
    expect(results).toHaveLength(1);
    const jobId = (fake.inserts()[0]!.jobReference as { jobId: string }).jobId;
    expect(results[0]?.error).toEqual({
      code: 'data_source_error',
      message: `Statement "Typo": BigQuery could not run the query: Syntax error: Unexpected identifier "FORM" at [1:8] (job ${jobId}).`,
    });
  });

  it('says so when the bytes-billed cap stops a query', async () => {
    fake.script({
      errorResult: {
        reason: 'bytesBilledLimitExceeded',
        message: 'Query exceeded limit for bytes billed: 1000. 10485760 or higher required.',
      },
    });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection: { ...connection, maximumBytesBilled: 1000 },
        statements: [{ title: 'Costly', sql: 'SELECT * FROM big' }],
      }),
    );
    expect(result?.error?.message).toMatch(
      /^Statement "Costly": the query would bill more than the data source's maximum bytes billed: Query exceeded limit for bytes billed: 1000\. 10485760 or higher required\. \(job dogu_[0-9a-f]{32}\)\.$/,
    );
  });

  it('passes on a refused insert (missing dataset) with the statement title', async () => {
    fake.script({
      insertError: {
        status: 404,
        reason: 'notFound',
        message: 'Not found: Dataset dogu-analytics:nope was not found in location asia-northeast1',
      },
    });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection,
        statements: [{ title: 'Missing', sql: 'SELECT * FROM nope.t' }],
      }),
    );
    expect(result?.error?.message).toBe(
      'Statement "Missing": BigQuery refused the query (notFound): Not found: Dataset dogu-analytics:nope was not found in location asia-northeast1',
    );
  });

  it('refuses a key the token endpoint does not accept, without quoting the key', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    const wrongKey = JSON.stringify({
      ...JSON.parse(fake.keyText),
      private_key: other,
      private_key_id: 'key-2',
    });
    const [result] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection: { ...connection, serviceAccountKey: wrongKey },
        statements: [{ title: 'Keys', sql: 'SELECT 1' }],
      }),
    );
    expect(result?.error).toEqual({
      code: 'data_source_error',
      message:
        'OAuth token (service account key): Google answered HTTP 400: invalid_grant: Invalid JWT Signature.',
    });
    expect(JSON.stringify(result)).not.toContain('PRIVATE KEY');
    expect(fake.inserts()).toHaveLength(0);
  });

  it('never sends the key or a token to a cloud metadata address', async () => {
    const toMetadata = JSON.stringify({
      ...JSON.parse(fake.keyText),
      token_uri: 'http://169.254.169.254/token',
    });
    const [viaKey] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection: { ...connection, serviceAccountKey: toMetadata },
        statements: [{ title: 'T', sql: 'SELECT 1' }],
      }),
    );
    const [viaEndpoint] = await runtime.run(
      sqlRun({
        kind: 'bigquery',
        connection: { ...connection, apiEndpoint: 'http://169.254.169.254' },
        statements: [{ title: 'E', sql: 'SELECT 1' }],
      }),
    );
    for (const result of [viaKey, viaEndpoint]) {
      expect(result?.status).toBe('failed');
      expect(result?.error?.message).toMatch(/169\.254\.169\.254/);
      expect(result?.error?.message).toMatch(/metadata|refused|not allowed/i);
    }
  });

  it('tests a connection with a query that scans nothing', async () => {
    fake.script({});
    await expect(
      runtime.testConnection({ key: 'k', connection, signal: AbortSignal.timeout(5000) }),
    ).resolves.toBeUndefined();
    fake.script({
      errorResult: {
        reason: 'accessDenied',
        message: 'User does not have bigquery.jobs.create permission in project dogu-analytics.',
      },
    });
    await expect(
      runtime.testConnection({ key: 'k', connection, signal: AbortSignal.timeout(5000) }),
    ).rejects.toThrow(
      /^BigQuery could not run the query: User does not have bigquery.jobs.create permission/,
    );
  });
});
