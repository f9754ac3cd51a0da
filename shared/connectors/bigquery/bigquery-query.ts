/**
 * One statement on BigQuery: a query job (standard SQL, positional typed parameters, the data
 * source's bytes-billed cap) inserted with an id of our own so it can be cancelled at any moment,
 * polled until done, its result read page by page; jobs.cancel when the run ends early.
 */
import { randomUUID } from 'node:crypto';
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import { keyRows, type ShapedColumns, shapeColumns } from '../sql/result-shape.ts';
import { RowBudget } from '../sql/row-budget.ts';
import type { CompiledStatement, RawStatementResult, SqlRunOptions } from '../sql/sql-ports.ts';
import { formatBytes, sleep } from '../sql/warehouse-wait.ts';
import { type BigQueryApi, BigQueryApiError } from './bigquery-api.ts';
import { parameterNameOf, queryParameter } from './bigquery-params.ts';
import { describeBigQueryColumn, type SchemaField } from './bigquery-types.ts';
import type { BigQueryConnection } from './definition.ts';

const pageSize = 10_000;
const maxPollMs = 2000;

interface JobStatus {
  state?: 'PENDING' | 'RUNNING' | 'DONE';
  errorResult?: { reason?: string; message?: string; location?: string };
}
interface Job {
  jobReference?: { jobId?: string; location?: string };
  status?: JobStatus;
  statistics?: { query?: { totalBytesProcessed?: string; totalBytesBilled?: string; cacheHit?: boolean } };
}
interface QueryResultsPage {
  jobComplete?: boolean;
  schema?: { fields?: SchemaField[] };
  rows?: { f: { v: unknown }[] }[];
  pageToken?: string;
  numDmlAffectedRows?: string;
}

export interface BigQueryStatementInput {
  api: BigQueryApi;
  connection: BigQueryConnection;
  parameters: ReadonlyMap<string, ParameterDefinition>;
  pollMs?: number;
  /** The console's dry-run button: each statement is only estimated (a dry-run job), nothing runs. */
  dryRunOnly?: boolean;
}

export async function runBigQueryStatement(
  input: BigQueryStatementInput,
  statement: CompiledStatement,
  options: SqlRunOptions,
): Promise<RawStatementResult> {
  const { api, connection } = input;
  const signal = connection.statementTimeoutMs
    ? AbortSignal.any([options.signal, AbortSignal.timeout(connection.statementTimeoutMs)])
    : options.signal;
  const title = statement.title;
  const jobId = `dogu_${randomUUID().replaceAll('-', '')}`;
  let inserted = false;
  const messages: string[] = [];
  try {
    if (input.dryRunOnly)
      return { columns: [], rows: [], messages: [await estimate(input, statement, signal)] };
    if (connection.dryRunFirst) messages.push(await estimate(input, statement, signal));
    inserted = true;
    let job = await api.call<Job>('POST', '/jobs', {
      body: {
        jobReference: { projectId: connection.projectId, jobId, ...location(connection) },
        configuration: { query: queryConfiguration(input, statement) },
      },
      signal,
    });
    let delay = input.pollMs ?? 100;
    while (job.status?.state !== 'DONE') {
      await sleep(delay, signal);
      delay = Math.min(maxPollMs, Math.ceil(delay * 1.5));
      job = await api.call<Job>('GET', `/jobs/${jobId}`, { query: location(connection), signal });
    }
    if (job.status.errorResult) throw jobFailed(title, jobId, job.status.errorResult);
    const result = await readResults(input, jobId, signal, options.parseJsonValues ?? false);
    return { ...result, messages: [...messages, ...result.messages, costMessage(jobId, job)] };
  } catch (error) {
    // First: a run ended early must cancel its job, whatever the last call threw.
    if (signal.aborted) {
      if (inserted) await cancel(api, connection, jobId);
      throw new DoguError(
        'execution_timeout',
        `Statement "${title}": the execution ended (time limit or cancelled) and BigQuery job ${jobId} was cancelled.`,
      );
    }
    if (error instanceof DoguError) throw error;
    if (error instanceof BigQueryApiError) throw apiRefused(title, error);
    throw new DoguError(
      'data_source_error',
      `Statement "${title}": BigQuery failed: ${(error as Error).message}`,
    );
  }
}

function queryConfiguration(input: BigQueryStatementInput, statement: CompiledStatement) {
  const { connection } = input;
  const names = statement.placeholderNames ?? [];
  return {
    query: statement.text,
    useLegacySql: false,
    ...(statement.values.length > 0
      ? {
          parameterMode: 'POSITIONAL',
          queryParameters: statement.values.map((value, i) =>
            queryParameter(value, input.parameters.get(parameterNameOf(names[i] ?? ''))),
          ),
        }
      : {}),
    ...(connection.maximumBytesBilled ? { maximumBytesBilled: String(connection.maximumBytesBilled) } : {}),
    ...(connection.defaultDataset
      ? { defaultDataset: { projectId: connection.projectId, datasetId: connection.defaultDataset } }
      : {}),
  };
}

const location = (connection: BigQueryConnection) =>
  connection.location ? { location: connection.location } : {};

async function estimate(input: BigQueryStatementInput, statement: CompiledStatement, signal: AbortSignal) {
  const job = await input.api.call<Job>('POST', '/jobs', {
    body: {
      jobReference: { projectId: input.connection.projectId, ...location(input.connection) },
      configuration: { dryRun: true, query: queryConfiguration(input, statement) },
    },
    signal,
  });
  if (job.status?.errorResult) throw jobFailed(statement.title, 'dry run', job.status.errorResult);
  const bytes = Number(job.statistics?.query?.totalBytesProcessed ?? 0);
  return `Dry run: the query would process ${formatBytes(bytes)} (${bytes} bytes).`;
}

async function readResults(
  input: BigQueryStatementInput,
  jobId: string,
  signal: AbortSignal,
  parseJsonValues: boolean,
): Promise<RawStatementResult> {
  const budget = new RowBudget();
  const rows: Record<string, unknown>[] = [];
  let shaped: ShapedColumns | undefined;
  let pageToken: string | undefined;
  let affected: string | undefined;
  do {
    const page: QueryResultsPage = await input.api.call<QueryResultsPage>('GET', `/queries/${jobId}`, {
      query: {
        ...location(input.connection),
        maxResults: String(pageSize),
        pageToken,
        'formatOptions.useInt64Timestamp': 'true',
      },
      signal,
    });
    if (page.jobComplete === false) {
      await sleep(input.pollMs ?? 100, signal);
      continue;
    }
    shaped ??= shapeColumns(
      (page.schema?.fields ?? []).map((f) => describeBigQueryColumn(f, parseJsonValues)),
    );
    affected ??= page.numDmlAffectedRows;
    const data = (page.rows ?? []).map((row) => row.f.map((cell) => cell.v ?? null));
    rows.push(...budget.take(keyRows(shaped, data)));
    pageToken = page.pageToken;
  } while ((shaped === undefined || pageToken) && !budget.cut);
  const messages = [...(shaped?.messages ?? [])];
  if (affected !== undefined) messages.push(`${affected} ${affected === '1' ? 'row' : 'rows'} affected.`);
  if (budget.cut) messages.push(budget.message(rows.length));
  return { columns: shaped?.columns ?? [], rows, messages, ...(budget.cut ? { truncated: true } : {}) };
}

function costMessage(jobId: string, job: Job): string {
  const processed = Number(job.statistics?.query?.totalBytesProcessed ?? 0);
  const billed = Number(job.statistics?.query?.totalBytesBilled ?? 0);
  const cached = job.statistics?.query?.cacheHit ? ' (cached result)' : '';
  return `BigQuery job ${jobId}: bytes processed ${formatBytes(processed)} (${processed}), bytes billed ${formatBytes(billed)} (${billed})${cached}.`;
}

function jobFailed(title: string, jobId: string, error: NonNullable<JobStatus['errorResult']>): DoguError {
  const message = error.message ?? 'no reason given';
  switch (error.reason) {
    case 'bytesBilledLimitExceeded':
      return new DoguError(
        'data_source_error',
        `Statement "${title}": the query would bill more than the data source's maximum bytes billed: ${message} (job ${jobId}).`,
      );
    case 'stopped':
      return new DoguError(
        'data_source_error',
        `Statement "${title}": the job was cancelled on BigQuery: ${message} (job ${jobId}).`,
      );
    default:
      return new DoguError(
        'data_source_error',
        `Statement "${title}": BigQuery could not run the query: ${message} (job ${jobId}).`,
      );
  }
}

function apiRefused(title: string, error: BigQueryApiError): DoguError {
  if (error.status === 401) {
    return new DoguError(
      'data_source_error',
      `Statement "${title}": BigQuery refused the credentials: check the service account key.`,
    );
  }
  if (error.status === 403) {
    return new DoguError(
      'data_source_error',
      `Statement "${title}": BigQuery denied access (${error.reason}): ${error.message}. The service account needs the BigQuery Data Viewer and Job User roles.`,
    );
  }
  return new DoguError(
    'data_source_error',
    `Statement "${title}": BigQuery refused the query (${error.reason}): ${error.message}`,
  );
}

/** Best effort: the run ends either way, but the job must not keep running (and billing). */
async function cancel(api: BigQueryApi, connection: BigQueryConnection, jobId: string): Promise<void> {
  try {
    await api.call('POST', `/jobs/${jobId}/cancel`, {
      query: location(connection),
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    // The job may have ended or never started; nothing else to do.
  }
}
