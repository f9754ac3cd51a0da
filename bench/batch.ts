/**
 * Bench `batch`: the two costs of a 10,000-row batch (spec 2.7).
 *
 * (a) Validating the CSV: `parseBatchCsv` (spec 2.7 cell rules, label conversion of choices and master
 *     data, every row checked against the parameters) on a 10,000-row file for a realistic action of
 *     six parameters of mixed kinds. Baseline: csv-parse alone reading the same text with the same
 *     options (the least any validation on top of it can cost). Target: ≤ 200 ms.
 * (b) Running it against PostgreSQL through the embedded runtime (in this process): POST the CSV to the
 *     batch API, wait until the runner is idle, count the rows it inserted. Baseline: the raw `pg`
 *     driver inserting the same converted rows one statement at a time, with as many workers and pool
 *     connections as the batch's concurrency. Targets: ≥ 1,000 rows/s and ≥ 40 % of the raw loop's rows/s.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { startLocalRuntime } from '../local/runtime.ts';
import { parseBatchCsv } from '../shared/domain/batch/batch-csv.ts';
import type { ParameterDefinition } from '../shared/domain/model.ts';
import type { MasterData } from '../shared/domain/parameters.ts';
import { createScratchDatabase, serverVersion } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, type Phase } from './lib/report.ts';
import { sized } from './lib/smoke.ts';
import { round3, roundSummary, summarizeLatencies } from './lib/stats.ts';
import { type Defer, withTeardown } from './lib/teardown.ts';

export const title = 'batch: validating a 10,000-row CSV vs csv-parse; running it vs a raw pg insert loop';

const rowCount = sized(10_000, 100);
/** The batch's concurrency; the raw loop gets as many workers and pool connections. */
const concurrency = 10;
const validationIterations = sized(30, 2);

const parameters = {
  rows: rowCount,
  csvParameters:
    'text (pattern), number (integer, min), date, boolean, text (choices by label), text (master data by label)',
  validationIterations,
  validationWarmUp: sized(5, 1),
  concurrency,
  /** The runtime's pool size when DOGU_DEMO_DATABASE_URL is set. */
  runtimePoolSize: 10,
  rawPoolSize: concurrency,
  targets: { validationMs: 200, rowsPerSecond: 1_000, rowsPerSecondRatioPercent: 40 },
};

const actionParameters: ParameterDefinition[] = [
  { name: 'customer', kind: 'text', label: 'Customer', required: true, pattern: '^C[0-9]{5}$' },
  { name: 'amount', kind: 'number', label: 'Amount (yen)', integer: true, min: 0, required: true },
  { name: 'ordered_on', kind: 'date', label: 'Ordered on', required: true },
  { name: 'express', kind: 'boolean', label: 'Express' },
  {
    name: 'status',
    kind: 'text',
    label: 'Status',
    required: true,
    choices: [
      { value: 'pending', label: '保留' },
      { value: 'paid', label: '支払済み' },
      { value: 'shipped', label: '発送済み' },
    ],
  },
  { name: 'region', kind: 'text', label: 'Region', masterData: 'regions' },
];
const regions = [
  { value: 'hokkaido', label: '北海道' },
  { value: 'kanto', label: '関東' },
  { value: 'kansai', label: '関西' },
  { value: 'kyushu', label: '九州' },
];
const masterData: MasterData = { regions };
const insertSql =
  'INSERT INTO batch_bench (customer, amount, ordered_on, express, status, region) VALUES ($1, $2, $3, $4, $5, $6)';
const insertTemplate =
  'INSERT INTO batch_bench (customer, amount, ordered_on, express, status, region)\n' +
  'VALUES ({{ customer }}, {{ amount }}, {{ ordered_on }}, {{ express }}, {{ status }}, {{ region }})';
const csvParseOptions = {
  bom: true,
  relax_column_count: true,
  skip_empty_lines: false,
  record_delimiter: ['\r\n', '\n', '\r'],
};

/** A file as a spreadsheet exports it: BOM, CRLF, labels rather than values, a quoted cell now and then. */
function batchCsv(): string {
  const statusLabels = ['保留', '支払済み', '発送済み'];
  const lines = [actionParameters.map((p) => p.name).join(',')];
  for (let i = 0; i < rowCount; i++) {
    const day = 1 + (i % 28);
    lines.push(
      [
        `C${String(i).padStart(5, '0')}`,
        i % 7 === 0 ? `"${1000 + i}"` : String(1000 + i),
        `2026/${1 + (i % 12)}/${day}`,
        i % 2 === 0 ? 'TRUE' : 'FALSE',
        statusLabels[i % 3],
        regions[i % 4]!.label,
      ].join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    const csv = batchCsv();
    const validation = measureValidation(csv);
    const parsed = parseBatchCsv(csv, actionParameters, masterData, { maxRows: rowCount }).rows;

    const postgres = await serverVersion();
    const database = await createScratchDatabase('dogu_bench_batch');
    defer(() => database.drop(), `dropped database ${database.name}`);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    defer(() => admin.end());
    await admin.query(
      'CREATE TABLE batch_bench (id bigserial PRIMARY KEY, customer text NOT NULL, amount integer NOT NULL, ' +
        'ordered_on date NOT NULL, express boolean NOT NULL, status text NOT NULL, region text)',
    );
    const countRows = async () =>
      (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM batch_bench')).rows[0]!.n;

    progress('raw pg: inserting the rows one by one');
    const raw = await rawInsertLoop(database.url, parsed);
    const rawInserted = await countRows();
    await admin.query('TRUNCATE batch_bench');

    progress('dogu: the same CSV through the batch API');
    const dogu = await doguBatch(database.url, csv, defer);
    const doguInserted = await countRows();

    const errors =
      (rawInserted === rowCount ? 0 : 1) + (doguInserted === rowCount ? 0 : 1) + dogu.failedRows + raw.errors;
    const errorSamples = [
      ...(rawInserted === rowCount ? [] : [`raw pg inserted ${rawInserted} of ${rowCount} rows`]),
      ...(doguInserted === rowCount ? [] : [`dogu inserted ${doguInserted} of ${rowCount} rows`]),
      ...dogu.errorSamples,
    ];
    const phases: Phase[] = [
      validation.csvParse,
      validation.dogu,
      throughputPhase('raw pg insert loop', raw.elapsedMs, raw.errors, []),
      throughputPhase('dogu batch API', dogu.elapsedMs, dogu.failedRows, errorSamples),
    ];
    const rowsPerSecond = (elapsedMs: number) => round3(rowCount / (elapsedMs / 1000));
    return {
      bench: 'batch',
      title,
      startedAt,
      finishedAt: new Date().toISOString(),
      parameters,
      environment: { postgres, database: database.name, csvBytes: Buffer.byteLength(csv) },
      phases,
      checks: [
        check('validate 10,000 rows, p50', validation.dogu.latencyMs.p50, 'ms', {
          comparison: '<=',
          value: parameters.targets.validationMs,
        }),
        check('validate 10,000 rows, max', validation.dogu.latencyMs.max, 'ms'),
        check(
          'validation / csv-parse alone, p50',
          round3(validation.dogu.latencyMs.p50 / validation.csvParse.latencyMs.p50),
          'x',
        ),
        check('batch rows/s (dogu)', rowsPerSecond(dogu.elapsedMs), 'rows/s', {
          comparison: '>=',
          value: parameters.targets.rowsPerSecond,
        }),
        check('batch rows/s (raw pg loop)', rowsPerSecond(raw.elapsedMs), 'rows/s'),
        check('rows/s ratio (dogu / raw)', round3((raw.elapsedMs / dogu.elapsedMs) * 100), '%', {
          comparison: '>=',
          value: parameters.targets.rowsPerSecondRatioPercent,
        }),
      ],
      errors,
      notes: [
        'validation phases: "requests" = parses of the whole file, latency = one parse',
        'batch phases: "requests" = rows, req/s = rows/s, latency columns not applicable',
        `dogu batch: POST took ${round3(dogu.postMs)} ms (validate + store ${rowCount / 25} chunks), ` +
          `then ${round3(dogu.elapsedMs - dogu.postMs)} ms running`,
      ],
    };
  });
}

function measureValidation(csv: string) {
  const time = (work: () => unknown) => {
    for (let i = 0; i < parameters.validationWarmUp; i++) work();
    const samples: number[] = [];
    for (let i = 0; i < validationIterations; i++) {
      const t0 = performance.now();
      work();
      samples.push(performance.now() - t0);
    }
    return samples;
  };
  const rawSamples = time(() => {
    const records = parse(csv, csvParseOptions) as string[][];
    if (records.length !== rowCount + 1) throw new Error(`csv-parse read ${records.length} records`);
  });
  const doguSamples = time(() => {
    const { rows } = parseBatchCsv(csv, actionParameters, masterData, { maxRows: rowCount });
    if (rows.length !== rowCount) throw new Error(`parseBatchCsv returned ${rows.length} rows`);
  });
  progress(
    `validation: csv-parse p50 ${summarizeLatencies(rawSamples).p50.toFixed(1)} ms, ` +
      `parseBatchCsv p50 ${summarizeLatencies(doguSamples).p50.toFixed(1)} ms`,
  );
  const phase = (subject: string, samples: number[]): Phase => ({
    name: 'validate',
    subject,
    concurrency: 1,
    requests: samples.length,
    errors: 0,
    errorSamples: [],
    elapsedMs: round3(samples.reduce((a, b) => a + b, 0)),
    requestsPerSecond: round3(samples.length / (samples.reduce((a, b) => a + b, 0) / 1000)),
    latencyMs: roundSummary(summarizeLatencies(samples)),
  });
  return { csvParse: phase('csv-parse alone', rawSamples), dogu: phase('parseBatchCsv', doguSamples) };
}

function throughputPhase(subject: string, elapsedMs: number, errors: number, errorSamples: string[]): Phase {
  const none = Number.NaN;
  return {
    name: 'batch',
    subject,
    concurrency,
    requests: rowCount,
    errors,
    errorSamples,
    elapsedMs: round3(elapsedMs),
    requestsPerSecond: round3(rowCount / (elapsedMs / 1000)),
    latencyMs: { min: none, p50: none, p90: none, p99: none, max: none, mean: none },
  };
}

/** What an engineer would write by hand: `concurrency` workers, one INSERT per row, a pool of that size. */
async function rawInsertLoop(url: string, rows: readonly Record<string, unknown>[]) {
  const pool = new pg.Pool({ connectionString: url, max: parameters.rawPoolSize });
  pool.on('error', () => {});
  try {
    // Open the connections first, as the runtime's pool is warm by the time its batch runs.
    await Promise.all(Array.from({ length: concurrency }, () => pool.query('SELECT 1')));
    let next = 0;
    let errors = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        try {
          await pool.query(insertSql, [
            row.customer,
            row.amount,
            row.ordered_on,
            row.express ?? false,
            row.status,
            row.region ?? null,
          ]);
        } catch {
          errors++;
        }
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { elapsedMs: performance.now() - t0, errors };
  } finally {
    await pool.end();
  }
}

async function doguBatch(databaseUrl: string, csv: string, defer: Defer) {
  const dataDir = await mkdtemp(join(tmpdir(), 'dogu-bench-batch-'));
  defer(() => rm(dataDir, { recursive: true, force: true }));
  const runtime = await startLocalRuntime({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    demoDbPort: 0,
    devIdpPort: 0,
    demoDatabaseUrl: databaseUrl,
  });
  defer(() => runtime.close(), 'stopped the runtime');
  const login = await fetch(`${runtime.url}/local/v1/login`, { method: 'POST' });
  const { token } = (await login.json()) as { token: string };
  const send = async (method: string, path: string, body: string, contentType = 'application/json') => {
    const response = await fetch(`${runtime.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
    });
    const text = await response.text();
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as { batch: { id: string } };
  };
  await send(
    'PUT',
    '/api/v1/projects/demo/master-data/regions',
    JSON.stringify({ id: 'regions', name: 'Regions', entries: regions }),
  );
  await send(
    'PUT',
    '/api/v1/projects/demo/actions/bench-batch-insert',
    JSON.stringify({
      id: 'bench-batch-insert',
      name: 'Insert an order (bench)',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      statements: [{ title: 'insert', sql: insertTemplate }],
      parameters: actionParameters,
    }),
  );
  // Warm the runtime's pool and caches with one ordinary run, as for the raw loop.
  await fetch(
    `${runtime.url}/public/v1/projects/demo/environments/development/actions/list-orders/executions`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { status: 'paid', limit: 1 } }),
    },
  );

  const t0 = performance.now();
  const created = await send(
    'POST',
    `/api/v1/projects/demo/environments/development/actions/bench-batch-insert/batches?concurrency=${concurrency}`,
    csv,
    'text/csv',
  );
  const postMs = performance.now() - t0;
  await runtime.scheduling.jobs.idle();
  const elapsedMs = performance.now() - t0;

  const batch = await runtime.services.schedules.getBatch('demo', created.batch.id);
  const progressOf = batch?.progress;
  const failedRows = progressOf ? rowCount - progressOf.success : rowCount;
  const errorSamples = [];
  if (batch?.status !== 'finished') errorSamples.push(`batch is ${batch?.status}`);
  if (failedRows > 0) {
    const chunks = await runtime.services.schedules.listBatchChunks(created.batch.id);
    const failed = chunks.flatMap((c) => c.rows).find((r) => r.status !== 'success');
    errorSamples.push(`${failedRows} rows not successful, e.g. ${JSON.stringify(failed?.error)}`);
  }
  return { elapsedMs, postMs, failedRows, errorSamples };
}
