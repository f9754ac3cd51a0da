/** The runtime of a SQL kind: one pool per data source and environment, statements in order. */
import type { ConnectorRuntime, RuntimeRun, RuntimeSettings } from '../connector.ts';
import { PooledConnectorFactory } from './connector-factory.ts';
import type { SqlActionInput, SqlConnection } from './definition.ts';
import type { ConnectorOpener } from './open-connector.ts';
import { previewSqlStatements } from './preview-sql.ts';
import { runSqlStatements } from './run-sql.ts';
import { runSqlRowGroup } from './run-sql-group.ts';
import type { SqlDialect } from './sql-dialect.ts';

export function sqlRuntime(
  dialect: SqlDialect,
  opener: ConnectorOpener,
  settings: RuntimeSettings,
): ConnectorRuntime {
  const pools = new PooledConnectorFactory(settings.poolSize, { [dialect]: opener });
  return {
    run: (run: RuntimeRun) =>
      (run.preview ? previewSqlStatements : runSqlStatements)({
        action: run.action as unknown as SqlActionInput,
        dialect,
        connector: pools.sql(dialect, run.key, run.connection as SqlConnection, run.network),
        values: run.values,
        signal: run.signal,
      }),
    runRowGroup: ({ run, rows, beforeRun }) =>
      runSqlRowGroup({
        action: run.action as unknown as SqlActionInput,
        dialect,
        connector: pools.sql(dialect, run.key, run.connection as SqlConnection),
        rows,
        signal: run.signal,
        beforeRun,
      }),
    async testConnection(check) {
      // A pool of its own: a failing trial must not replace the pool that runs actions.
      const trial = new PooledConnectorFactory(1, { [dialect]: opener });
      try {
        await trial
          .sql(dialect, check.key, check.connection as SqlConnection, check.network)
          .run({ title: 'test', text: 'SELECT 1', values: [] }, { signal: check.signal });
      } finally {
        await trial.close();
      }
    },
    close: () => pools.close(),
  };
}
