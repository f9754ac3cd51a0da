/**
 * Athena and BigQuery through the API of a real runtime, against local endpoints that stand in
 * for the services (the real AWS SDK client and Google token exchange run): save, test the
 * connection, run a SQL action, read the execution record; keys never come back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { type FakeAthena, startFakeAthena } from '../connectors/athena/fake-athena.ts';
import { type FakeBigQuery, startFakeBigQuery } from '../connectors/bigquery/fake-bigquery.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let athena: FakeAthena;
let bigquery: FakeBigQuery;
const base = '/api/v1/projects/demo';
const secretKey = 'canary/Secret+Key-7f3e9a1b2c3d4e5f6a7b8c9d';

beforeAll(async () => {
  dir = await tempDir('warehouses');
  [athena, bigquery] = await Promise.all([startFakeAthena(), startFakeBigQuery()]);
  runtime = await startTestRuntime(dir.path);
  api = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([athena?.close(), bigquery?.close()]);
});

describe('the connector kinds', () => {
  it('describes Athena and BigQuery with their write-only keys', async () => {
    const answer = await api.get('/api/v1/connector-kinds');
    const kinds = answer.body.data as { kind: string; actionKind: string; secretFields: string[] }[];
    expect(kinds.find((k) => k.kind === 'athena')).toMatchObject({
      actionKind: 'sql',
      secretFields: ['secretAccessKey'],
    });
    expect(kinds.find((k) => k.kind === 'bigquery')).toMatchObject({
      actionKind: 'sql',
      secretFields: ['serviceAccountKey'],
    });
  });
});

describe('Athena', () => {
  it('saves a data source, tests it, runs a SQL action and records the data scanned', async () => {
    const saved = await api.put(`${base}/data-sources/sales-athena`, {
      id: 'sales-athena',
      name: 'Sales (Athena)',
      kind: 'athena',
      environments: {
        development: {
          region: 'ap-northeast-1',
          database: 'sales',
          outputLocation: 's3://dogu-results/athena/',
          accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
          secretAccessKey: secretKey,
          endpoint: athena.url,
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(JSON.stringify(saved.body)).not.toContain(secretKey);

    athena.script({ columns: [{ Name: '_col0', Type: 'integer' }], rows: [['1']] });
    const tested = await api.post(
      `${base}/data-sources/sales-athena/environments/development/test-connection`,
      {},
    );
    expect(tested.body, JSON.stringify(tested.body)).toMatchObject({ ok: true });

    const action = await api.put(`${base}/actions/top-customers`, {
      id: 'top-customers',
      name: 'Top customers',
      kind: 'sql',
      dataSourceId: 'sales-athena',
      statements: [
        {
          title: 'Customers',
          sql: 'SELECT id, name FROM customers WHERE region = {{ region }} LIMIT {{ n }}',
        },
      ],
      parameters: [
        { name: 'region', kind: 'text', required: true },
        { name: 'n', kind: 'number', integer: true, default: 10 },
      ],
    });
    expect(action.status, JSON.stringify(action.body)).toBe(201);
    athena.script({
      scannedBytes: 1536,
      columns: [
        { Name: 'id', Type: 'bigint' },
        { Name: 'name', Type: 'varchar' },
      ],
      rows: [['9007199254740993', "O'Brien"]],
    });
    const run = await api.execute('top-customers', { region: "kanto' OR '1'='1" });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results[0]).toMatchObject({
      title: 'Customers',
      columns: [
        { name: 'id', type: 'bigint' },
        { name: 'name', type: 'string' },
      ],
      rows: [{ id: '9007199254740993', name: "O'Brien" }],
    });
    const started = athena.calls('StartQueryExecution').at(-1);
    expect(started).toMatchObject({
      QueryString: 'SELECT id, name FROM customers WHERE region = ? LIMIT ?',
      ExecutionParameters: ["'kanto'' OR ''1''=''1'", '10'],
      ResultConfiguration: { OutputLocation: 's3://dogu-results/athena/' },
    });
    const record = await fetch(
      `${runtime.url}/public/v1/projects/demo/environments/development/executions/${run.body.id}`,
      { headers: { authorization: `Bearer ${await loginToken(runtime)}` } },
    ).then((r) => r.json());
    expect(JSON.stringify(record)).toMatch(/Athena query q-\d+: data scanned 1\.50 KB \(1536 bytes\)/);
  });

  it('names refused credentials in a connection test, never the secret key', async () => {
    const saved = await api.put(`${base}/data-sources/wrong-athena`, {
      id: 'wrong-athena',
      name: 'Wrong keys',
      kind: 'athena',
      environments: {
        development: {
          region: 'ap-northeast-1',
          database: 'sales',
          outputLocation: 's3://dogu-results/athena/',
          accessKeyId: 'ZZZZIOSFODNN7EXAMPLE',
          secretAccessKey: secretKey,
          endpoint: athena.url,
        },
      },
    });
    expect(saved.status).toBe(201);
    const tested = await api.post(
      `${base}/data-sources/wrong-athena/environments/development/test-connection`,
      {},
    );
    expect(tested.body).toMatchObject({
      ok: false,
      error: {
        code: 'data_source_error',
        message:
          'Athena refused the credentials (UnrecognizedClientException): check the access key ID and secret access key.',
      },
    });
    expect(JSON.stringify(tested.body)).not.toContain(secretKey);
  });

  it('refuses json, file and system parameters when the action is saved', async () => {
    const refused = await api.put(`${base}/actions/bad-athena`, {
      id: 'bad-athena',
      name: 'Bad',
      kind: 'sql',
      dataSourceId: 'sales-athena',
      statements: [{ title: 'One', sql: 'SELECT {{ doc }}' }],
      parameters: [{ name: 'doc', kind: 'json' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toContainEqual({
      pointer: '#/parameters/0/kind',
      detail: 'the json kind cannot be used in SQL actions (spec 2.2)',
    });
  });

  it('answers a failed query with the statement title and Athena’s message', async () => {
    athena.script({ state: 'FAILED', reason: "line 1:8: Column 'nope' cannot be resolved" });
    const run = await api.execute('top-customers', { region: 'kanto' });
    expect(run.status).toBe(422);
    expect(run.body.detail).toContain(
      `Statement "Customers": Athena could not run the query: line 1:8: Column 'nope' cannot be resolved`,
    );
    expect(JSON.stringify(run.body)).not.toContain(secretKey);
  });
});

describe('BigQuery', () => {
  it('saves a data source with its key, runs a SQL action and records bytes processed and billed', async () => {
    const saved = await api.put(`${base}/data-sources/events-bq`, {
      id: 'events-bq',
      name: 'Events (BigQuery)',
      kind: 'bigquery',
      environments: {
        development: {
          projectId: 'dogu-analytics',
          serviceAccountKey: bigquery.keyText,
          maximumBytesBilled: 1_000_000_000,
          apiEndpoint: bigquery.url,
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(JSON.stringify(saved.body)).not.toContain('PRIVATE KEY');
    const read = await api.get(`${base}/data-sources/events-bq`);
    expect(JSON.stringify(read.body)).not.toContain('PRIVATE KEY');

    bigquery.script({});
    const tested = await api.post(
      `${base}/data-sources/events-bq/environments/development/test-connection`,
      {},
    );
    expect(tested.body, JSON.stringify(tested.body)).toMatchObject({ ok: true });

    const action = await api.put(`${base}/actions/daily-events`, {
      id: 'daily-events',
      name: 'Daily events',
      kind: 'sql',
      dataSourceId: 'events-bq',
      parseJsonValues: true,
      statements: [
        {
          title: 'Events',
          sql: 'SELECT day, n, payload FROM events WHERE kind = {{ kind }} AND n > {{ min }}',
        },
      ],
      parameters: [
        { name: 'kind', kind: 'text', required: true },
        { name: 'min', kind: 'number', integer: true },
      ],
    });
    expect(action.status, JSON.stringify(action.body)).toBe(201);
    bigquery.script({
      statistics: { totalBytesProcessed: '2048', totalBytesBilled: '10485760' },
      pages: [
        {
          schema: {
            fields: [
              { name: 'day', type: 'DATE' },
              { name: 'n', type: 'INTEGER' },
              { name: 'payload', type: 'JSON' },
            ],
          },
          rows: [{ f: [{ v: '2026-11-26' }, { v: '9007199254740993' }, { v: '{"a":1}' }] }],
        },
      ],
    });
    const run = await api.execute('daily-events', { kind: 'signup' });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results[0].rows).toEqual([
      { day: '2026-11-26', n: '9007199254740993', payload: { a: 1 } },
    ]);
    const insert = bigquery.inserts().at(-1) as { configuration: { query: Record<string, unknown> } };
    expect(insert.configuration.query).toEqual({
      query: 'SELECT day, n, payload FROM events WHERE kind = ? AND n > ?',
      useLegacySql: false,
      // As @google-cloud/bigquery writes it (decision 0125): a NULL keeps its type.
      parameterMode: 'positional',
      queryParameters: [
        { parameterType: { type: 'STRING' }, parameterValue: { value: 'signup' } },
        { parameterType: { type: 'INT64' }, parameterValue: { value: null } },
      ],
      types: ['STRING', 'INT64'],
      maximumBytesBilled: '1000000000',
    });
    const record = await fetch(
      `${runtime.url}/public/v1/projects/demo/environments/development/executions/${run.body.id}`,
      { headers: { authorization: `Bearer ${await loginToken(runtime)}` } },
    ).then((r) => r.json());
    expect(JSON.stringify(record)).toMatch(
      /BigQuery job dogu_[0-9a-f]{32}: bytes processed 2\.00 KB \(2048\), bytes billed 10\.0 MB \(10485760\)/,
    );
  });

  it('answers the bytes-billed cap with the statement title', async () => {
    bigquery.script({
      errorResult: {
        reason: 'bytesBilledLimitExceeded',
        message: 'Query exceeded limit for bytes billed: 1000000000. 2000000000 or higher required.',
      },
    });
    const run = await api.execute('daily-events', { kind: 'signup', min: 3 });
    expect(run.status).toBe(422);
    expect(run.body.detail).toContain(
      `Statement "Events": the query would bill more than the data source's maximum bytes billed`,
    );
    expect(JSON.stringify(run.body)).not.toContain('PRIVATE KEY');
  });

  it('estimates with a dry-run job when asked, running and billing nothing', async () => {
    bigquery.script({ statistics: { totalBytesProcessed: '1610612736' } });
    const before = bigquery.inserts().length;
    const run = await api.post(executionsOf('daily-events'), { arguments: { kind: 'signup' }, dryRun: true });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results[0]).toMatchObject({
      title: 'Events',
      status: 'succeeded',
      rows: [],
      messages: ['Dry run: the query would process 1.50 GB (1610612736 bytes).'],
    });
    const inserts = bigquery.inserts().slice(before) as { configuration: Record<string, unknown> }[];
    expect(inserts).toHaveLength(1);
    expect(inserts[0]!.configuration).toMatchObject({
      dryRun: true,
      query: { query: 'SELECT day, n, payload FROM events WHERE kind = ? AND n > ?', useLegacySql: false },
    });
  });
});

describe('the dry-run seam', () => {
  it('refuses a dry run of a kind that cannot estimate (422) and a dryRun that is no boolean (400)', async () => {
    const refused = await api.post(executionsOf('top-customers'), { arguments: {}, dryRun: true });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe(
      'A dry run is not available for athena data sources: only kinds that can estimate a query (BigQuery) offer it.',
    );
    expect(refused.body.errors).toEqual([
      { pointer: '#/dryRun', detail: 'not supported by this data source kind' },
    ]);
    const malformed = await api.post(executionsOf('daily-events'), {
      arguments: { kind: 'x' },
      dryRun: 'yes',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ pointer: '#/dryRun', detail: 'must be a boolean' }]);
  });

  it('tells the console which kinds offer the button', async () => {
    const kinds = (await api.get('/api/v1/connector-kinds')).body.data as { kind: string; dryRun: boolean }[];
    expect(kinds.filter((k) => k.dryRun).map((k) => k.kind)).toEqual(['bigquery']);
  });
});

const executionsOf = (actionId: string) =>
  `/public/v1/projects/demo/environments/development/actions/${actionId}/executions`;
