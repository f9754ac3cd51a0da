/**
 * mysql2's failures turned into DoguErrors: what went wrong and where, in
 * words for the person running the action. Messages are built here from
 * known fields only, so neither the password nor a bound value can end up in
 * one (mysql2 errors carry the statement text, which is never copied).
 */
import { DoguError } from '../../domain/errors.ts';

interface DriverError {
  code?: string;
  errno?: number;
  sqlState?: string;
  sqlMessage?: string;
  message?: string;
  fatal?: boolean;
}

const asDriverError = (error: unknown): DriverError =>
  typeof error === 'object' && error !== null ? (error as DriverError) : { message: String(error) };

/** Server error numbers the connector treats specially. */
export const serverError = {
  accessDenied: 1045,
  accessDeniedNoPassword: 1698,
  unknownDatabase: 1049,
  unknownSystemVariable: 1193,
  unsupportedInPreparedStatement: 1295,
  queryInterrupted: 1317,
  /** MariaDB's max_statement_time. */
  mariadbStatementTimeout: 1969,
  /** MySQL 8's max_execution_time (SELECT only). */
  mysqlExecutionTimeout: 3024,
} as const;

/** An error the server answered with (it has an SQLSTATE), rather than one of the network or driver. */
function isServerError(error: DriverError): error is DriverError & { errno: number; sqlState: string } {
  return typeof error.errno === 'number' && error.errno > 0 && typeof error.sqlState === 'string';
}

export const errorNumberOf = (error: unknown): number | undefined => asDriverError(error).errno;

/** The connection is unusable after this error and must not go back to the pool. */
export const isFatal = (error: unknown): boolean => asDriverError(error).fatal === true;

export type TimeLimit = 'deadline' | 'data_source' | 'maximum';

export function timedOut(limit: TimeLimit, statementLimitMs: number): DoguError {
  const message =
    limit === 'deadline'
      ? 'The execution exceeded its time limit and the query was cancelled.'
      : limit === 'data_source'
        ? `The statement exceeded the data source time-out (${statementLimitMs} ms) and was cancelled.`
        : `The statement exceeded the maximum statement time (${statementLimitMs} ms) and was cancelled.`;
  return new DoguError('execution_timeout', message);
}

export function connectionFailed(label: string, user: string, error: unknown): DoguError {
  const driverError = asDriverError(error);
  return new DoguError(
    'data_source_error',
    `Could not connect to MySQL data source ${label}: ${withoutFinalPeriod(connectionFailureReason(driverError, user))}.`,
  );
}

function connectionFailureReason(error: DriverError, user: string): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
      return 'no answer from the server in time';
  }
  if (error.errno === serverError.accessDenied || error.errno === serverError.accessDeniedNoPassword) {
    return `access denied for user '${user}' (wrong user name or password, or not allowed from this host)`;
  }
  if (isServerError(error)) return describeServerError(error);
  return error.message ?? 'unknown error';
}

export function queryFailed(error: unknown, statementLimit: { ms: number; kind: TimeLimit }): DoguError {
  const driverError = asDriverError(error);
  if (
    driverError.errno === serverError.mariadbStatementTimeout ||
    driverError.errno === serverError.mysqlExecutionTimeout
  ) {
    // The server's own backstop of the same limit (see server-time-limit.ts).
    return timedOut(statementLimit.kind, statementLimit.ms);
  }
  if (isServerError(driverError)) return new DoguError('data_source_error', describeServerError(driverError));
  return new DoguError(
    'data_source_error',
    `The MySQL connection failed: ${withoutFinalPeriod(driverError.message ?? driverError.code ?? 'unknown error')}.`,
  );
}

const describeServerError = (error: DriverError & { errno: number; sqlState: string }) =>
  `MySQL error ${error.errno} (${error.sqlState}): ${error.sqlMessage ?? error.message}`;

const withoutFinalPeriod = (text: string) => text.replace(/\.$/, '');
