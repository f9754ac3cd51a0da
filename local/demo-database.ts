/**
 * The embedded demo database: PGlite served over the PostgreSQL wire protocol
 * on 127.0.0.1, persisted in the data directory, so the demo needs no server.
 */
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import type { PostgresConnection } from '../shared/domain/model.ts';

/** customers, orders and order items: a few hundred deterministic rows. */
export const demoSchemaSql = `
CREATE TABLE customers (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL UNIQUE,
  country text NOT NULL,
  created_at timestamptz NOT NULL
);
INSERT INTO customers (name, email, country, created_at)
SELECT 'Customer ' || i, 'customer' || i || '@example.com', (ARRAY['JP','US','DE','FR','GB'])[1 + i % 5],
       timestamptz '2026-01-01 00:00:00+09' + i * interval '1 day'
FROM generate_series(1, 60) AS i;

CREATE TABLE orders (
  id serial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers(id),
  status text NOT NULL CHECK (status IN ('pending','paid','shipped','delivered','cancelled')),
  total_yen integer NOT NULL,
  ordered_at timestamptz NOT NULL
);
INSERT INTO orders (customer_id, status, total_yen, ordered_at)
SELECT 1 + (i * 7) % 60, (ARRAY['pending','paid','shipped','delivered','cancelled'])[1 + (i * 3) % 5],
       500 + (i * 997) % 30000, timestamptz '2026-03-01 09:00:00+09' + i * interval '5 hours'
FROM generate_series(1, 300) AS i;
CREATE INDEX orders_status_idx ON orders (status, id);

CREATE TABLE order_items (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders(id),
  sku text NOT NULL,
  product text NOT NULL,
  quantity integer NOT NULL,
  unit_price_yen integer NOT NULL
);
INSERT INTO order_items (order_id, sku, product, quantity, unit_price_yen)
SELECT 1 + i % 300, 'SKU-' || lpad((i % 40)::text, 4, '0'),
       (ARRAY['Notebook','Pen','Tote bag','Mug','Sticker set','Desk lamp','Cable','Stand'])[1 + i % 8],
       1 + i % 4, 100 + (i * 37) % 5000
FROM generate_series(1, 800) AS i;
`;

/** Creates the demo tables once; a crash mid-way rolls back, so the next start retries. */
export async function ensureDemoSchema(connection: PostgresConnection): Promise<void> {
  const client = new pg.Client({ ...connection, password: connection.password ?? '' });
  await client.connect();
  try {
    const { rows } = await client.query<{ exists: boolean }>(
      "SELECT to_regclass('public.orders') IS NOT NULL AS exists",
    );
    if (rows[0]?.exists) return;
    await client.query('BEGIN');
    await client.query(demoSchemaSql);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

export interface EmbeddedDemoDatabase {
  connection: PostgresConnection;
  close(): Promise<void>;
}

export async function startEmbeddedDemoDatabase(
  directory: string,
  port: number,
): Promise<EmbeddedDemoDatabase> {
  const db = await PGlite.create(directory);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 8 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    const code = (error as { code?: string }).code;
    throw new Error(
      code === 'EADDRINUSE'
        ? `Port ${port} for the demo database is in use; set DOGU_DEMO_DB_PORT to a free port.`
        : `The demo database could not start: ${(error as Error).message}`,
    );
  }
  const [, actualPort] = server.getServerConn().split(':');
  const connection = { host: '127.0.0.1', port: Number(actualPort), database: 'postgres', user: 'postgres' };
  return {
    connection,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
