/** The PostgreSQL runtime: the shared SQL runner over this kind's driver (loaded on first use). */
import type { ConnectorRuntime, RuntimeSettings } from '../connector.ts';
import { sqlRuntime } from '../sql/sql-runtime.ts';
import { openPostgresConnector } from './postgres-connector.ts';

export function createRuntime(settings: RuntimeSettings): ConnectorRuntime {
  return sqlRuntime('postgresql', openPostgresConnector, settings);
}
