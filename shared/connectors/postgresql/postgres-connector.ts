/**
 * Runs compiled statements on PostgreSQL through a pool per data source and
 * environment. Values are always bound by the driver ($n placeholders).
 */
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { DoguError } from '../../domain/errors.ts';
import type { Network } from '../network/bridge-network.ts';
import type { SqlConnection } from '../sql/definition.ts';
import type { OpenConnector, OpenConnectorOptions } from '../sql/open-connector.ts';
import {
  affectedRowsMessage,
  type DescribedColumn,
  keyRows,
  parseJsonText,
  shapeColumns,
} from '../sql/result-shape.ts';
import type {
  CompiledStatement,
  GroupOutcome,
  GroupRunOptions,
  RawStatementResult,
  SqlConnector,
  SqlPreview,
  SqlRunOptions,
} from '../sql/sql-ports.ts';
import { type BackendKey, sendCancelRequest } from './cancel-request.ts';
import { describeType, textFormatParser } from './column-types.ts';
import { postgresPreview } from './postgres-preview.ts';
import { postgresRowGroup } from './postgres-row-group.ts';

const maxExecutionMs = 60_000;

/** The factory's entry point: a pool for one data source and environment, and its connector. */
export function openPostgresConnector(
  connection: SqlConnection,
  options: OpenConnectorOptions,
): OpenConnector {
  const pool = createPool(connection, options.poolSize, options.network);
  pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
  return {
    connector: new PostgresConnector(pool, options.label, connection.statementTimeoutMs, options.network),
    end: () => pool.end(),
  };
}

export function createPool(connection: SqlConnection, poolSize: number, network?: Network): pg.Pool {
  return new pg.Pool({
    // Through a bridge: each connection is a tunnel; the driver's own TLS runs inside it, end to end.
    ...(network ? { stream: () => network.socket(connection.host, connection.port) as never } : {}),
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password: connection.password,
    ssl: connection.ssl ? { rejectUnauthorized: true } : false,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    // Enforced by the server, so a run that outlives its caller is still ended there.
    statement_timeout: Math.min(connection.statementTimeoutMs ?? maxExecutionMs, maxExecutionMs),
    application_name: 'dogu',
    types: { getTypeParser: textFormatParser as never },
  });
}

export class PostgresConnector implements SqlConnector {
  constructor(
    private readonly pool: pg.Pool,
    private readonly label: string,
    /** The data source's own statement time-out, named when it ends a statement. */
    private readonly statementTimeoutMs?: number,
    /** Through a bridge: the cancel request takes a tunnel too. */
    private readonly network?: Network,
  ) {}

  /** Previews in a transaction that is always rolled back (decision 0185; postgres-preview.ts). */
  readonly preview: SqlPreview = postgresPreview({
    checkOut: (signal) => this.checkOut(signal),
    query: (client, statement, options, state) => this.query(client, statement, options, state),
    shape: shapeResult,
  });

  /** Batch rows in one pipelined transaction, a savepoint per row (decision 0255; postgres-row-group.ts). */
  private readonly group = postgresRowGroup({
    checkOut: (signal) => this.checkOut(signal),
    cancel: (client) => this.cancel(client),
    failed: (error) => (error instanceof DoguError ? error : queryFailed(error, this.statementTimeoutMs)),
    shape: shapeResult,
    timedOut,
  });

  runGroup(statements: CompiledStatement[], options: GroupRunOptions): Promise<GroupOutcome> {
    return this.group(statements, options);
  }

  async run(statement: CompiledStatement, options: SqlRunOptions): Promise<RawStatementResult> {
    const client = await this.checkOut(options.signal);
    // Checked out, the client is ours to watch: a connection the server ends (a cancelled demo
    // database restarts) must fail this statement, not the process.
    const ignore = () => {};
    client.on('error', ignore);
    const state = { healthy: true };
    try {
      const result = await this.query(client, statement, options, state);
      return shapeResult(result, options.parseJsonValues === true);
    } finally {
      client.off('error', ignore);
      // A connection whose statement did not end is not reused: ending it ends its session.
      client.release(state.healthy ? undefined : true);
    }
  }

  /** A client of the pool, or the deadline's time-out / a connection failure naming the data source. */
  async checkOut(signal: AbortSignal): Promise<pg.PoolClient> {
    if (signal.aborted) throw timedOut();
    try {
      return await this.pool.connect();
    } catch (error) {
      throw connectionFailed(this.label, error);
    }
  }

  /** Asks the server to cancel the client's running statement, over a connection of its own. */
  cancel(client: pg.PoolClient): void {
    const { host, port, ssl } = this.pool.options as { host?: string; port?: number; ssl?: unknown };
    const key = client as unknown as BackendKey;
    const tls = ssl ? (typeof ssl === 'object' ? (ssl as ConnectionOptions) : {}) : false;
    const network = this.network;
    const open = network && host && port ? { open: () => network.socket(host, port) } : {};
    if (host && port && key.processID) void sendCancelRequest({ host, port, ssl: tls, ...open }, key);
  }

  /**
   * One statement on a checked-out client. At the deadline: cancel on the server (the query must not
   * run on after we gave up on it), and answer after a short grace even if the server never reports
   * the statement ended; `state.healthy` is then false and the client must not be reused.
   */
  async query(
    client: pg.PoolClient,
    statement: CompiledStatement,
    options: SqlRunOptions,
    state: { healthy: boolean },
  ): Promise<pg.QueryResult<unknown[]>> {
    if (options.signal.aborted) throw timedOut();
    let giveUp = () => {};
    const gaveUp = new Promise<'gave_up'>((resolve) => {
      giveUp = () => resolve('gave_up');
    });
    let graceTimer: NodeJS.Timeout | undefined;
    const cancel = () => {
      this.cancel(client);
      graceTimer = setTimeout(giveUp, cancelGraceMs);
    };
    options.signal.addEventListener('abort', cancel, { once: true });
    try {
      // Always the extended protocol: one statement is one statement, as in MySQL, even without values.
      const query = client.query({
        text: statement.text,
        values: statement.values,
        rowMode: 'array',
        queryMode: 'extended',
      } as pg.QueryArrayConfig);
      const result = await Promise.race([query, gaveUp]);
      if (result === 'gave_up') {
        state.healthy = false;
        query.catch(() => {});
        throw timedOut();
      }
      return result;
    } catch (error) {
      if (options.signal.aborted) throw timedOut();
      if (error instanceof DoguError) throw error;
      throw queryFailed(error, this.statementTimeoutMs);
    } finally {
      clearTimeout(graceTimer);
      options.signal.removeEventListener('abort', cancel);
    }
  }
}

/** After cancelling, how long to wait for the statement to report that it ended. */
const cancelGraceMs = 2_000;

function shapeResult(result: pg.QueryResult<unknown[]>, parseJsonValues: boolean): RawStatementResult {
  const fields = result.fields ?? [];
  // No result set: INSERT, UPDATE, DELETE, MERGE, COPY and CREATE TABLE AS report how many rows they
  // touched; other DDL reports nothing (rowCount null).
  if (fields.length === 0) {
    const messages = typeof result.rowCount === 'number' ? [affectedRowsMessage(result.rowCount)] : [];
    return { columns: [], rows: [], messages };
  }
  const shaped = shapeColumns(fields.map((field) => describeField(field, parseJsonValues)));
  return { columns: shaped.columns, rows: keyRows(shaped, result.rows ?? []), messages: shaped.messages };
}

function describeField(field: pg.FieldDef, parseJsonValues: boolean): DescribedColumn {
  const info = describeType(field.dataTypeID);
  if (info.json && parseJsonValues) {
    return { name: field.name, typeName: info.name, type: 'json', convert: parseJsonText };
  }
  return { name: field.name, typeName: info.name, type: info.type, unsupported: info.unsupported === true };
}

const timedOut = () =>
  new DoguError('execution_timeout', 'The execution exceeded its time limit and the query was cancelled.');

function connectionFailed(label: string, error: unknown): DoguError {
  const code = (error as { code?: string }).code;
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND'
        ? 'host not found'
        : describe(error);
  return new DoguError(
    'data_source_error',
    `Could not connect to PostgreSQL data source ${label}: ${reason}.`,
  );
}

function queryFailed(error: unknown, statementTimeoutMs: number | undefined): DoguError {
  const pgError = error as { code?: string; message?: string };
  if (pgError.code === '57014') {
    return new DoguError(
      'execution_timeout',
      statementTimeoutMs && statementTimeoutMs < maxExecutionMs
        ? `The statement reached the data source's time-out (statementTimeoutMs ${statementTimeoutMs} ms) and was cancelled.`
        : 'The statement reached the server time-out and was cancelled.',
    );
  }
  if (pgError.code && /^[0-9A-Z]{5}$/.test(pgError.code)) {
    return new DoguError('data_source_error', `PostgreSQL error ${pgError.code}: ${pgError.message}`);
  }
  return new DoguError('data_source_error', `The PostgreSQL connection failed: ${describe(error)}.`);
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
