/**
 * mysql2 settings shared by the pool and the short-lived connection that
 * cancels a query. Each setting is here for the result's fidelity or safety.
 */
import type { ConnectionOptions, PoolOptions } from 'mysql2/promise';
import type { Network } from '../network/bridge-network.ts';
import type { SqlConnection } from '../sql/definition.ts';

export function connectionOptions(connection: SqlConnection, network?: Network): ConnectionOptions {
  return {
    // Through a bridge: each connection is a tunnel; the driver's own TLS runs inside it, end to end.
    ...(network ? { stream: () => network.socket(connection.host, connection.port) as never } : {}),
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password: connection.password ?? '',
    ...(connection.ssl ? { ssl: { rejectUnauthorized: true } } : {}),
    connectTimeout: 10_000,
    charset: 'utf8mb4',
    // One statement is one statement: `'; DROP TABLE t; --` can never start a second one.
    multipleStatements: false,
    // BIGINT (and DECIMAL) as their exact digits; a JS number is wrong beyond 2^53.
    supportBigNumbers: true,
    bigNumberStrings: true,
    // DATE, DATETIME and TIMESTAMP exactly as the server sends them: no Date objects, no time-zone shift.
    dateStrings: true,
    // JSON as its text: whether to parse it is the action's choice, made per run (parseJsonValues).
    jsonStrings: true,
    // Duplicate column names must not overwrite each other: the connector names them.
    rowsAsArray: true,
    // No typeCast function: mysql2 then wraps every cell in an object, which cost more than half the
    // driver's throughput in a 5x5 result (measured). GEOMETRY therefore arrives decoded (column-types.ts).
    // The call-site stack of every query costs time on every run and says nothing to an action's user.
    trace: false,
  };
}

/**
 * Prepared statements stay prepared per connection for reuse (one round trip
 * per run); the bound keeps a pool well below the server's global
 * max_prepared_stmt_count (16,382 by default) even with many data sources.
 */
const preparedStatementsPerConnection = 100;

export function poolOptions(connection: SqlConnection, poolSize: number, network?: Network): PoolOptions {
  return {
    ...connectionOptions(connection, network),
    connectionLimit: poolSize,
    maxIdle: poolSize,
    idleTimeout: 30_000,
    enableKeepAlive: true,
    maxPreparedStatements: preparedStatementsPerConnection,
  };
}
