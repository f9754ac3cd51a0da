import type { PostgresConnection } from '../../domain/model.ts';
import type { ConnectorFactory, SqlConnector } from '../../domain/ports.ts';
import { createPool, PostgresConnector } from './postgres-connector.ts';

/**
 * One pool per data source and environment, replaced when its settings change
 * and kept across invocations (created once per Lambda container).
 */
export class PooledConnectorFactory implements ConnectorFactory {
  private readonly entries = new Map<
    string,
    { fingerprint: string; connector: PostgresConnector; end: () => Promise<void> }
  >();

  constructor(private readonly poolSize = 10) {}

  postgres(key: string, connection: PostgresConnection): SqlConnector {
    const fingerprint = JSON.stringify(connection);
    const entry = this.entries.get(key);
    if (entry?.fingerprint === fingerprint) return entry.connector;
    if (entry) void entry.end();
    const pool = createPool(connection, this.poolSize);
    pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
    const label = `'${key}' (${connection.host}:${connection.port}/${connection.database})`;
    const connector = new PostgresConnector(pool, label);
    this.entries.set(key, { fingerprint, connector, end: () => pool.end() });
    return connector;
  }

  async close(): Promise<void> {
    const ends = [...this.entries.values()].map((e) => e.end().catch(() => {}));
    this.entries.clear();
    await Promise.all(ends);
  }
}
