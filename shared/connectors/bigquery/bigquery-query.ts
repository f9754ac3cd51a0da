/**
 * One statement on BigQuery with `@google-cloud/bigquery`: a query job (standard SQL, positional
 * typed parameters, the data source's bytes-billed cap) created with an id of our own so it can be
 * cancelled at any moment, polled until done, its result read page by page (BigQuery's own text,
 * unparsed, so INT64, NUMERIC and TIMESTAMP keep every digit); job.cancel when the run ends early.
 */
import { randomUUID } from 'node:crypto';
import type { BigQuery, Job, JobMetadata, Query } from '@google-cloud/bigquery';
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import { untilAborted } from '../google-auth/until-aborted.ts';
import { keyRows, type ShapedColumns, shapeColumns } from '../sql/result-shape.ts';
import { RowBudget } from '../sql/row-budget.ts';
import type { CompiledStatement, RawStatementResult, SqlRunOptions } from '../sql/sql-ports.ts';
import { formatBytes, sleep } from '../sql/warehouse-wait.ts';
import { type BigQueryRefusal, classifyBigQueryError } from './bigquery-client.ts';
import { parameterNameOf, queryParameter } from './bigquery-params.ts';
import { describeBigQueryColumn, type SchemaField } from './bigquery-types.ts';
import type { BigQueryConnection } from './definition.ts';

const pageSize = 10_000;
const maxPollMs = 2000;

type JobStatus = NonNullable<JobMetadata['status']>;
interface QueryResultsPage {
  jobComplete?: boolean;
  schema?: { fields?: SchemaField[] };
  pageToken?: string;
  numDmlAffectedRows?: string;
}

export interface BigQueryStatementInput {
  client: BigQuery;
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
  const { client, connection } = input;
  const signal = connection.statementTimeoutMs
    ? AbortSignal.any([options.signal, AbortSignal.timeout(connection.statementTimeoutMs)])
    : options.signal;
  const title = statement.title;
  const jobId = `dogu_${randomUUID().replaceAll('-', '')}`;
  let job: Job | undefined;
  const messages: string[] = [];
  try {
    if (input.dryRunOnly)
      return { columns: [], rows: [], messages: [await estimate(input, statement, signal)] };
    if (connection.dryRunFirst) messages.push(await estimate(input, statement, signal));
    // The job is ours to cancel from the moment it is asked for, before its insert answers.
    job = client.job(jobId, connection.location ? { location: connection.location } : {});
    const [, inserted] = await untilAborted(
      client.createQueryJob({ ...query(input, statement), jobId }),
      signal,
    );
    let metadata = (inserted ?? {}) as JobMetadata;
    let delay = input.pollMs ?? 100;
    while (metadata.status?.state !== 'DONE') {
      await sleep(delay, signal);
      delay = Math.min(maxPollMs, Math.ceil(delay * 1.5));
      [metadata] = await untilAborted(job.getMetadata(), signal);
    }
    if (metadata.status.errorResult) throw jobFailed(title, jobId, metadata.status.errorResult);
    const result = await readResults(input, job, signal, options.parseJsonValues ?? false);
    return { ...result, messages: [...messages, ...result.messages, costMessage(jobId, metadata)] };
  } catch (error) {
    // First: a run ended early must cancel its job, whatever the last call threw.
    if (signal.aborted) {
      if (job) await cancel(job);
      throw new DoguError(
        'execution_timeout',
        `Statement "${title}": the execution ended (time limit or cancelled) and BigQuery job ${jobId} was cancelled.`,
      );
    }
    if (error instanceof DoguError) throw error;
    const failure = classifyBigQueryError(error);
    if (failure.kind === 'dogu') throw failure.error;
    if (failure.kind === 'refused') throw apiRefused(title, failure.refusal);
    throw new DoguError('data_source_error', `Statement "${title}": BigQuery failed: ${failure.message}`);
  }
}

function query(input: BigQueryStatementInput, statement: CompiledStatement): Query {
  const { connection } = input;
  const names = statement.placeholderNames ?? [];
  const parameters = statement.values.map((value, i) =>
    queryParameter(value, input.parameters.get(parameterNameOf(names[i] ?? ''))),
  );
  return {
    query: statement.text,
    useLegacySql: false,
    ...(parameters.length > 0
      ? { params: parameters.map((p) => p.value), types: parameters.map((p) => p.type) }
      : {}),
    ...(connection.location ? { location: connection.location } : {}),
    ...(connection.maximumBytesBilled ? { maximumBytesBilled: String(connection.maximumBytesBilled) } : {}),
    ...(connection.defaultDataset
      ? { defaultDataset: { projectId: connection.projectId, datasetId: connection.defaultDataset } }
      : {}),
  };
}

async function estimate(input: BigQueryStatementInput, statement: CompiledStatement, signal: AbortSignal) {
  const [, metadata] = await untilAborted(
    input.client.createQueryJob({ ...query(input, statement), dryRun: true }),
    signal,
  );
  const status = (metadata as JobMetadata | undefined)?.status;
  if (status?.errorResult) throw jobFailed(statement.title, 'dry run', status.errorResult);
  const bytes = Number((metadata as JobMetadata | undefined)?.statistics?.query?.totalBytesProcessed ?? 0);
  return `Dry run: the query would process ${formatBytes(bytes)} (${bytes} bytes).`;
}

async function readResults(
  input: BigQueryStatementInput,
  job: Job,
  signal: AbortSignal,
  parseJsonValues: boolean,
): Promise<RawStatementResult> {
  const budget = new RowBudget();
  const rows: Record<string, unknown>[] = [];
  let shaped: ShapedColumns | undefined;
  let pageToken: string | undefined;
  let affected: string | undefined;
  do {
    const [raw, , response] = await untilAborted(
      job.getQueryResults({
        maxResults: pageSize,
        autoPaginate: false,
        // BigQuery's text as it came: the spec's type table reads it (bigquery-types.ts).
        skipParsing: true,
        ...(pageToken ? { pageToken } : {}),
      }),
      signal,
    );
    const page = (response ?? {}) as QueryResultsPage;
    if (page.jobComplete === false) {
      await sleep(input.pollMs ?? 100, signal);
      continue;
    }
    shaped ??= shapeColumns(
      (page.schema?.fields ?? []).map((f) => describeBigQueryColumn(f, parseJsonValues)),
    );
    affected ??= page.numDmlAffectedRows;
    const data = ((raw ?? []) as unknown as { f: { v: unknown }[] }[]).map((row) =>
      row.f.map((cell) => cell.v ?? null),
    );
    rows.push(...budget.take(keyRows(shaped, data)));
    pageToken = page.pageToken;
  } while ((shaped === undefined || pageToken) && !budget.cut);
  const messages = [...(shaped?.messages ?? [])];
  if (affected !== undefined) messages.push(`${affected} ${affected === '1' ? 'row' : 'rows'} affected.`);
  if (budget.cut) messages.push(budget.message(rows.length));
  return { columns: shaped?.columns ?? [], rows, messages, ...(budget.cut ? { truncated: true } : {}) };
}

function costMessage(jobId: string, job: JobMetadata): string {
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

function apiRefused(title: string, error: BigQueryRefusal): DoguError {
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
async function cancel(job: Job): Promise<void> {
  try {
    await untilAborted(job.cancel(), AbortSignal.timeout(5000));
  } catch {
    // The job may have ended or never started; nothing else to do.
  }
}
