import type { Network } from '../network/bridge-network.ts';
import type { SqlConnection } from './definition.ts';
import type { SqlConnector } from './sql-ports.ts';

/** A connector with the pool behind it, as each dialect's adapter opens it for the factory. */
export interface OpenConnector {
  connector: SqlConnector;
  /** Closes the pool; runs still in flight finish or fail first. */
  end(): Promise<void>;
}

export interface OpenConnectorOptions {
  poolSize: number;
  /** Names the data source in error messages, e.g. `'demo/shop/dev' (db.example.com:5432/shop)`; no secrets. */
  label: string;
  /** Set when the environment goes through a bridge: every connection of the pool is a tunnel. */
  network?: Network;
}

export type ConnectorOpener = (connection: SqlConnection, options: OpenConnectorOptions) => OpenConnector;
