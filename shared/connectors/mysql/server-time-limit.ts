/**
 * The server's own copy of a data source's statement time limit. The
 * connector's timer and KILL QUERY end a statement on time on MySQL and
 * MariaDB alike; this is the backstop for when that timer cannot fire, such as
 * a Lambda container frozen or killed mid-query: the server still ends the
 * statement itself. It is set a little later than the timer, so normally the
 * timer wins and its clean cancellation decides what the caller sees.
 */
import type { PoolConnection } from 'mysql2/promise';
import { errorNumberOf, serverError } from './mysql-errors.ts';

const backstopDelayMs = 1_000;

/** Once per physical connection, before its first statement. */
export async function applyServerTimeLimit(connection: PoolConnection, limitMs: number): Promise<void> {
  const backstopMs = limitMs + backstopDelayMs;
  try {
    // MariaDB: every statement, in seconds (fractions allowed).
    await connection.query('SET SESSION max_statement_time = ?', [backstopMs / 1000]);
  } catch (error) {
    if (errorNumberOf(error) !== serverError.unknownSystemVariable) throw error;
    try {
      // MySQL 5.7.8+ and 8: read-only SELECT statements only, in milliseconds.
      await connection.query('SET SESSION max_execution_time = ?', [backstopMs]);
    } catch (mysqlError) {
      // Neither exists (an old or exotic server): the connector's timer is all there is.
      if (errorNumberOf(mysqlError) !== serverError.unknownSystemVariable) throw mysqlError;
    }
  }
}
