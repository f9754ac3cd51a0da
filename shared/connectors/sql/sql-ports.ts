/** What the SQL kinds share: compiled statements, connectors and their pools. */
import type { DoguError } from '../../domain/errors.ts';
import type { Column } from '../../domain/model.ts';
import type { Network } from '../network/bridge-network.ts';
import type { SqlConnection } from './definition.ts';
import type { SqlDialect } from './sql-dialect.ts';

/** A statement after templating: text with driver placeholders and the values bound to them. */
export interface CompiledStatement {
  title: string;
  text: string;
  values: unknown[];
  /** For messages: the reference each placeholder stands for, by position (`$1` → index 0). */
  placeholderNames?: string[];
}

export interface RawStatementResult {
  columns: Column[];
  rows: Record<string, unknown>[];
  messages: string[];
  /** Rows were left unread at the result size limit (warehouses read results page by page). */
  truncated?: boolean;
}

export interface SqlRunOptions {
  /** Aborts at the execution deadline: the connector cancels the query on the server. */
  signal: AbortSignal;
  /** JSON columns become values (type 'json') instead of text. */
  parseJsonValues?: boolean;
}

export interface SqlConnector {
  /**
   * Runs one statement in its own transaction. Rejects with DoguError:
   * 'execution_timeout' when cancelled by the deadline or the data source's own
   * time-out, 'data_source_error' for everything the database or network refused.
   */
  run(statement: CompiledStatement, options: SqlRunOptions): Promise<RawStatementResult>;
  /** Present where the dialect can preview statements in a rolled-back transaction (decision 0185). */
  preview?: SqlPreview;
  /**
   * Runs one statement per row in one transaction on one connection, each row inside its own
   * savepoint (decision 0255): a failing row is rolled back alone and reported with its error, the
   * others commit together.
   */
  runGroup?(statements: CompiledStatement[], options: GroupRunOptions): Promise<GroupOutcome>;
}

export interface GroupRunOptions extends SqlRunOptions {
  /** Called once the group will run, before its first statement: the rows' executions are recorded running. */
  beforeRun(): Promise<void>;
}

/** A row of a group: its result, or the error that rolled it back to its savepoint. */
export type GroupRowOutcome = { ok: true; result: RawStatementResult } | { ok: false; error: DoguError };

/**
 * `not_grouped`: nothing ran (a table a rollback would not undo): run the rows one at a time.
 * `committed`: every row's outcome, the successful ones committed. `rolled_back`: nothing of the
 * group is committed (the deadline, a lost connection before COMMIT, an error that ended the whole
 * transaction): the rows may run again one at a time. `unknown`: the connection was lost while
 * committing, so whether the rows committed cannot be told.
 */
export type GroupOutcome =
  | { kind: 'not_grouped'; reason: string }
  | { kind: 'committed'; rows: GroupRowOutcome[] }
  | { kind: 'rolled_back'; reason: DoguError }
  | { kind: 'unknown'; reason: DoguError };

/** A statement's outcome inside a preview's transaction. */
export interface PreviewStatementResult extends RawStatementResult {
  /** Rows inserted, updated or deleted; null for statements that report none (SELECT, DDL). */
  rowsAffected: number | null;
}

/** One connection, one transaction: the statements of a preview run on it in order. */
export interface PreviewSession {
  run(statement: CompiledStatement, options: SqlRunOptions): Promise<PreviewStatementResult>;
}

/**
 * How a dialect previews (decision 0185): which statements it refuses because a rollback would not
 * undo them, and a transaction that is rolled back whatever happens in it, its locks gone when the
 * promise settles.
 */
export interface SqlPreview {
  /** Why this statement's text cannot be previewed safely, or undefined when it can. */
  refusal(text: string): string | undefined;
  rolledBack<T>(work: (session: PreviewSession) => Promise<T>, options: SqlRunOptions): Promise<T>;
}

export interface ConnectorFactory {
  /** One pool per key (data source and environment), replaced when the connection changes. */
  sql(dialect: SqlDialect, key: string, connection: SqlConnection, network?: Network): SqlConnector;
  close(): Promise<void>;
}
