/**
 * One statement on Athena: StartQueryExecution with execution parameters, poll until it ends,
 * read the result pages (the first row of the first page is the header), stop the query when the
 * run is aborted or its time is up.
 */
import {
  type AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  type GetQueryResultsCommandOutput,
  type QueryExecution,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { DoguError } from '../../domain/errors.ts';
import { affectedRowsMessage, keyRows, type ShapedColumns, shapeColumns } from '../sql/result-shape.ts';
import { RowBudget } from '../sql/row-budget.ts';
import type { CompiledStatement, RawStatementResult, SqlRunOptions } from '../sql/sql-ports.ts';
import { formatBytes, sleep } from '../sql/warehouse-wait.ts';
import { athenaError, athenaTimedOut, isAbort } from './athena-errors.ts';
import { describeAthenaColumn } from './athena-types.ts';
import { athenaLiteral } from './athena-values.ts';
import type { AthenaConnection } from './definition.ts';

/** Athena answers at most 1,000 rows per GetQueryResults call. */
const pageSize = 1000;
const firstPollMs = 100;
const maxPollMs = 2000;

export async function runAthenaQuery(
  client: AthenaClient,
  connection: AthenaConnection,
  statement: CompiledStatement,
  options: SqlRunOptions & { pollMs?: number },
): Promise<RawStatementResult> {
  const signal = connection.statementTimeoutMs
    ? AbortSignal.any([options.signal, AbortSignal.timeout(connection.statementTimeoutMs)])
    : options.signal;
  const title = statement.title;
  let queryId: string | undefined;
  try {
    const started = await client.send(
      new StartQueryExecutionCommand({
        QueryString: statement.text,
        QueryExecutionContext: {
          Database: connection.database,
          ...(connection.catalog ? { Catalog: connection.catalog } : {}),
        },
        ResultConfiguration: { OutputLocation: connection.outputLocation },
        ...(connection.workgroup ? { WorkGroup: connection.workgroup } : {}),
        // Athena refuses an empty list: only a statement with parameters sends one.
        ...(statement.values.length > 0 ? { ExecutionParameters: statement.values.map(athenaLiteral) } : {}),
      }),
      { abortSignal: signal },
    );
    queryId = started.QueryExecutionId!;
    const execution = await waitForEnd(client, queryId, signal, options.pollMs ?? firstPollMs);
    const state = execution.Status?.State;
    if (state === 'CANCELLED') {
      throw new DoguError(
        'data_source_error',
        `Statement "${title}": the query was cancelled on Athena (query id ${queryId}).`,
      );
    }
    if (state === 'FAILED') {
      const reason =
        execution.Status?.AthenaError?.ErrorMessage ??
        execution.Status?.StateChangeReason ??
        'no reason given';
      throw new DoguError(
        'data_source_error',
        `Statement "${title}": Athena could not run the query: ${reason} (query id ${queryId}).`,
      );
    }
    const result = await readResults(client, queryId, execution, signal, options.parseJsonValues ?? false);
    result.messages.push(costMessage(queryId, execution));
    return result;
  } catch (error) {
    // First: a run ended early must stop its query, whatever the last call threw.
    if (isAbort(error) || signal.aborted) {
      if (queryId) await stop(client, queryId);
      throw athenaTimedOut(title, queryId);
    }
    if (error instanceof DoguError) throw error;
    throw athenaError(title, error);
  }
}

async function waitForEnd(
  client: AthenaClient,
  queryId: string,
  signal: AbortSignal,
  firstDelayMs: number,
): Promise<QueryExecution> {
  let delay = firstDelayMs;
  for (;;) {
    const answer = await client.send(new GetQueryExecutionCommand({ QueryExecutionId: queryId }), {
      abortSignal: signal,
    });
    const execution = answer.QueryExecution ?? {};
    const state = execution.Status?.State;
    if (state === 'SUCCEEDED' || state === 'FAILED' || state === 'CANCELLED') return execution;
    await sleep(delay, signal);
    delay = Math.min(maxPollMs, Math.ceil(delay * 1.5));
  }
}

async function readResults(
  client: AthenaClient,
  queryId: string,
  execution: QueryExecution,
  signal: AbortSignal,
  parseJsonValues: boolean,
): Promise<RawStatementResult> {
  const budget = new RowBudget();
  const rows: Record<string, unknown>[] = [];
  let shaped: ShapedColumns | undefined;
  let nextToken: string | undefined;
  let first = true;
  let updated: number | undefined;
  do {
    const page: GetQueryResultsCommandOutput = await client.send(
      new GetQueryResultsCommand({ QueryExecutionId: queryId, MaxResults: pageSize, NextToken: nextToken }),
      { abortSignal: signal },
    );
    const info = page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
    shaped ??= shapeColumns(
      info.map((c) => describeAthenaColumn(c.Name ?? c.Label ?? '', c.Type ?? 'varchar', parseJsonValues)),
    );
    let data = (page.ResultSet?.Rows ?? []).map((row) =>
      (row.Data ?? []).map((datum) => datum.VarCharValue ?? null),
    );
    if (first && isHeader(data[0], info, execution)) data = data.slice(1);
    first = false;
    updated ??= page.UpdateCount;
    rows.push(...budget.take(keyRows(shaped, data)));
    nextToken = page.NextToken;
  } while (nextToken && !budget.cut);
  const messages = [...(shaped?.messages ?? [])];
  // INSERT INTO, CTAS and UPDATE say how many rows they wrote.
  if (updated !== undefined && execution.StatementType === 'DML' && rows.length === 0)
    messages.push(affectedRowsMessage(updated));
  if (budget.cut) messages.push(budget.message(rows.length));
  return {
    columns: shaped?.columns ?? [],
    rows,
    messages,
    ...(budget.cut ? { truncated: true } : {}),
  };
}

/** SELECT results start with the column names as a row; SHOW, DESCRIBE and DDL results do not. */
function isHeader(
  row: (string | null)[] | undefined,
  info: { Name?: string; Label?: string }[],
  execution: QueryExecution,
): boolean {
  if (!row || execution.StatementType !== 'DML' || row.length !== info.length) return false;
  return row.every((value, i) => value === (info[i]?.Label ?? info[i]?.Name));
}

function costMessage(queryId: string, execution: QueryExecution): string {
  const scanned = execution.Statistics?.DataScannedInBytes ?? 0;
  return `Athena query ${queryId}: data scanned ${formatBytes(scanned)} (${scanned} bytes).`;
}

/** Best effort: the run ends either way, but the query must not keep scanning (and costing). */
async function stop(client: AthenaClient, queryId: string): Promise<void> {
  try {
    await client.send(new StopQueryExecutionCommand({ QueryExecutionId: queryId }), {
      abortSignal: AbortSignal.timeout(5000),
    });
  } catch {
    // The query may have ended meanwhile; nothing else to do.
  }
}
