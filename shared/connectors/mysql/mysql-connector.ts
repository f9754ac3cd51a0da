/**
 * Runs compiled statements on MySQL or MariaDB through a mysql2 pool per data
 * source and environment. Values are bound by the server as parameters of a
 * prepared statement (the binary protocol): they never become SQL text, not
 * even escaped by the driver, so server settings such as
 * NO_BACKSLASH_ESCAPES cannot turn a value into SQL.
 *
 * A single statement runs with autocommit, which makes it its own
 * transaction. A statement that leaves a transaction open (BEGIN, SET
 * autocommit = 0) or changes the session (USE, SET NAMES) gets its connection
 * closed instead of pooled, so nothing carries over to the next run.
 */
import mysql, { type ExecuteValues, type Pool, type PoolConnection } from 'mysql2/promise';
import { DoguError } from '../../domain/errors.ts';
import type { Network } from '../network/bridge-network.ts';
import type { SqlConnection } from '../sql/definition.ts';
import type { OpenConnector, OpenConnectorOptions } from '../sql/open-connector.ts';
import type {
  CompiledStatement,
  GroupOutcome,
  GroupRunOptions,
  RawStatementResult,
  SqlConnector,
  SqlPreview,
  SqlRunOptions,
} from '../sql/sql-ports.ts';
import { cancelQuery, killConnection } from './cancel-query.ts';
import {
  connectionFailed,
  errorNumberOf,
  isFatal,
  queryFailed,
  serverError,
  type TimeLimit,
  timedOut,
} from './mysql-errors.ts';
import { connectionOptions, poolOptions } from './mysql-options.ts';
import { mysqlPreview, type StatementState } from './mysql-preview.ts';
import { type StatementOutput, shapeResult } from './mysql-result.ts';
import { mysqlRowGroup } from './mysql-row-group.ts';
import { applyServerTimeLimit } from './server-time-limit.ts';
import { watchStatement } from './statement-watch.ts';

const maxStatementMs = 60_000;

/** The factory's entry point: a pool for one data source and environment, and its connector. */
export function openMysqlConnector(connection: SqlConnection, options: OpenConnectorOptions): OpenConnector {
  const pool = mysql.createPool(poolOptions(connection, options.poolSize, options.network));
  return {
    connector: new MysqlConnector(pool, connection, options.label, options.network),
    end: () => pool.end(),
  };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

export class MysqlConnector implements SqlConnector {
  /** The data source's own limit, else the maximum; enforced by a timer here and by the server as a backstop. */
  private readonly statementLimit: { ms: number; kind: TimeLimit };
  /** Physical connections whose session already carries the server-side time limit. */
  private readonly preparedSessions = new WeakSet<object>();

  constructor(
    private readonly pool: Pool,
    private readonly connection: SqlConnection,
    private readonly label: string,
    private readonly network?: Network,
  ) {
    const own = connection.statementTimeoutMs;
    this.statementLimit =
      own !== undefined && own <= maxStatementMs
        ? { ms: own, kind: 'data_source' }
        : { ms: maxStatementMs, kind: 'maximum' };
  }

  /** Previews in a transaction that is always rolled back (decision 0185; mysql-preview.ts). */
  readonly preview: SqlPreview = mysqlPreview({
    acquire: (signal) => this.acquire(signal),
    execute: (connection, statement, signal, state) => this.execute(connection, statement, signal, state),
    kill: (threadId) => killConnection(connectionOptions(this.connection, this.network), threadId),
  });

  /** Batch rows in one transaction, a savepoint per row (decision 0255; mysql-row-group.ts). */
  private readonly group = mysqlRowGroup({
    acquire: (signal) => this.acquire(signal),
    execute: (connection, statement, signal, state) => this.execute(connection, statement, signal, state),
    kill: (threadId) => killConnection(connectionOptions(this.connection, this.network), threadId),
    failed: (error) => (error instanceof DoguError ? error : queryFailed(error, this.statementLimit)),
  });

  runGroup(statements: CompiledStatement[], options: GroupRunOptions): Promise<GroupOutcome> {
    return this.group(statements, options);
  }

  async run(statement: CompiledStatement, options: SqlRunOptions): Promise<RawStatementResult> {
    const { signal } = options;
    if (signal.aborted) throw this.timedOut('deadline');
    const connection = await this.acquire(signal);
    const state: StatementState = { cancelled: false, fatal: false };
    let sessionChanged = false;
    try {
      const output = await this.execute(connection, statement, signal, state);
      const shaped = shapeResult(output, options.parseJsonValues === true);
      sessionChanged = shaped.sessionChanged;
      return shaped.result;
    } finally {
      // A cancelled connection is never reused: a late KILL QUERY must not hit the next statement.
      if (!state.cancelled && !state.fatal && !sessionChanged) connection.release();
      else connection.destroy();
    }
  }

  /**
   * One statement on an acquired connection within both time limits; cancelled on the server
   * (KILL QUERY) when one is reached. `state` says whether the connection may still be used.
   */
  async execute(
    connection: PoolConnection,
    statement: CompiledStatement,
    signal: AbortSignal,
    state: StatementState,
  ): Promise<StatementOutput> {
    if (signal.aborted) throw this.timedOut('deadline');
    // Cancel on the server: the statement must not keep running after we gave up on it.
    const watch = watchStatement(signal, this.statementLimit, () => {
      state.cancelled = true;
      void cancelQuery(connectionOptions(this.connection, this.network), connection.threadId).catch(() => {});
    });
    try {
      const outcome = await Promise.race([settle(send(connection, statement)), watch.gaveUp]);
      // Whatever the statement returned once cut short (MySQL's SLEEP returns 1), it did not finish.
      const reached = watch.reached();
      if (outcome === 'gave_up') state.gaveUp = true;
      if (reached || outcome === 'gave_up') throw this.timedOut(reached ?? 'deadline');
      if (!outcome.ok) {
        state.fatal = isFatal(outcome.error);
        throw queryFailed(outcome.error, this.statementLimit);
      }
      return outcome.value;
    } finally {
      watch.dispose();
    }
  }

  /** A pooled connection, or the deadline's time-out if the pool cannot hand one over in time. */
  async acquire(signal: AbortSignal): Promise<PoolConnection> {
    const pending = this.pool.getConnection();
    const connection = await new Promise<PoolConnection>((resolve, reject) => {
      const onAbort = () => {
        reject(this.timedOut('deadline'));
        // A connection that arrives too late goes back to the pool.
        pending.then(
          (late) => late.release(),
          () => {},
        );
      };
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (acquired) => {
          signal.removeEventListener('abort', onAbort);
          resolve(acquired);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(connectionFailed(this.label, this.connection.user, error));
        },
      );
    });
    if (this.preparedSessions.has(connection.connection)) return connection;
    try {
      await applyServerTimeLimit(connection, this.statementLimit.ms);
    } catch (error) {
      connection.destroy();
      throw connectionFailed(this.label, this.connection.user, error);
    }
    this.preparedSessions.add(connection.connection);
    return connection;
  }

  private timedOut(limit: TimeLimit) {
    return timedOut(limit, this.statementLimit.ms);
  }
}

async function send(connection: PoolConnection, statement: CompiledStatement): Promise<StatementOutput> {
  const values = statement.values.map(bindable);
  try {
    return (await connection.execute(statement.text, values)) as StatementOutput;
  } catch (error) {
    // The few statements the server cannot prepare run as plain text when there is nothing to bind.
    if (values.length === 0 && errorNumberOf(error) === serverError.unsupportedInPreparedStatement) {
      return (await connection.query(statement.text)) as StatementOutput;
    }
    throw error;
  }
}

/** The domain binds strings, numbers, booleans and null (spec 2.2); mysql2 refuses undefined, which is NULL as with pg. */
const bindable = (value: unknown): ExecuteValues => (value === undefined ? null : (value as ExecuteValues));
