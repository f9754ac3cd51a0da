import type { Network } from '../network/bridge-network.ts';
import type { SqlConnection } from './definition.ts';
import type { ConnectorOpener } from './open-connector.ts';
import type { SqlDialect } from './sql-dialect.ts';
import type { ConnectorFactory, SqlConnector } from './sql-ports.ts';
import { TrackedConnector } from './tracked-connector.ts';

interface Entry {
  fingerprint: string;
  connector: TrackedConnector;
  end(): Promise<void>;
}

/**
 * One pool per data source and environment (the key), replaced when its
 * settings or its dialect change, and kept across invocations (created once
 * per Lambda container or embedded runtime).
 */
export class PooledConnectorFactory implements ConnectorFactory {
  private readonly entries = new Map<string, Entry>();

  /** `openers`: the drivers this factory may use (each kind's runtime brings only its own). */
  constructor(
    private readonly poolSize: number,
    private readonly openers: Partial<Record<SqlDialect, ConnectorOpener>>,
  ) {}

  sql(dialect: SqlDialect, key: string, connection: SqlConnection, network?: Network): SqlConnector {
    const fingerprint = JSON.stringify([dialect, connection, network?.fingerprint ?? null]);
    const entry = this.entries.get(key);
    if (entry?.fingerprint === fingerprint) return entry.connector;
    // Runs still using the old pool finish on it; it closes once they are done.
    if (entry) retire(entry);
    const label = `'${key}' (${connection.host}:${connection.port}/${connection.database})`;
    const opener = this.openers[dialect];
    if (!opener) throw new Error(`No ${dialect} driver was given to this pool factory.`);
    const open = opener(connection, { poolSize: this.poolSize, label, ...(network ? { network } : {}) });
    const connector = new TrackedConnector(open.connector);
    this.entries.set(key, { fingerprint, connector, end: open.end });
    return connector;
  }

  /** Ends every pool now (shutdown), without waiting for runs still in flight. */
  async close(): Promise<void> {
    const ends = [...this.entries.values()].map((entry) => entry.end().catch(() => {}));
    this.entries.clear();
    await Promise.all(ends);
  }
}

function retire(entry: Entry): void {
  entry.connector
    .whenIdle()
    .then(entry.end)
    .catch(() => {});
}
