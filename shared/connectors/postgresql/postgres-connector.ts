/**
 * Runs compiled statements on PostgreSQL through a pool per data source and
 * environment. Values are always bound by the driver ($n placeholders).
 */
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
import type { CompiledStatement, RawStatementResult, SqlConnector, SqlRunOptions } from '../sql/sql-ports.ts';
import { describeType, textFormatParser } from './column-types.ts';

const maxExecutionMs = 60_000;

/** The factory's entry point: a pool for one data source and environment, and its connector. */
export function openPostgresConnector(
  connection: SqlConnection,
  options: OpenConnectorOptions,
): OpenConnector {
  const pool = createPool(connection, options.poolSize, options.network);
  pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
  return { connector: new PostgresConnector(pool, options.label), end: () => pool.end() };
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
  ) {}

  async run(statement: CompiledStatement, options: SqlRunOptions): Promise<RawStatementResult> {
    if (options.signal.aborted) throw timedOut();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw connectionFailed(this.label, error);
    }
    // A connection that drops while checked out (a server restart, a bridge closing its tunnel at its
    // time-out) is reported by the query it fails; unheard, pg's 'error' event would end the process.
    if (!client.listenerCount('error')) client.on('error', () => {});
    const cancel = () => {
      // Cancel server side: the query must not keep running after we gave up on it.
      this.pool
        .query('SELECT pg_cancel_backend($1)', [(client as unknown as { processID: number }).processID])
        .catch(() => {});
    };
    options.signal.addEventListener('abort', cancel, { once: true });
    try {
      // Always the extended protocol: one statement is one statement, as in MySQL, even without values.
      const result = await client.query({
        text: statement.text,
        values: statement.values,
        rowMode: 'array',
        queryMode: 'extended',
      } as pg.QueryArrayConfig);
      return shapeResult(result, options.parseJsonValues === true);
    } catch (error) {
      if (options.signal.aborted) throw timedOut();
      throw queryFailed(error);
    } finally {
      options.signal.removeEventListener('abort', cancel);
      client.release();
    }
  }
}

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

function queryFailed(error: unknown): DoguError {
  const pgError = error as { code?: string; message?: string };
  if (pgError.code === '57014') {
    return new DoguError(
      'execution_timeout',
      'The statement exceeded the data source time-out and was cancelled.',
    );
  }
  if (pgError.code && /^[0-9A-Z]{5}$/.test(pgError.code)) {
    return new DoguError('data_source_error', `PostgreSQL error ${pgError.code}: ${pgError.message}`);
  }
  return new DoguError('data_source_error', `The PostgreSQL connection failed: ${describe(error)}.`);
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
