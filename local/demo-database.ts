/**
 * The embedded demo database: PGlite served over the PostgreSQL wire protocol
 * on 127.0.0.1, persisted in the data directory, so the demo needs no server.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGliteOptions } from '@electric-sql/pglite';
import pg from 'pg';
import type { SqlConnection } from '../shared/connectors/sql/definition.ts';
import { demoProducts, mediaFileOf } from './demo-media.ts';

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

/**
 * Products with the names of their media files, for the media display (spec 1). The files are
 * served by the runtime (local/demo-media.ts); the product gallery makes URLs of them.
 */
export const demoProductsSql = `
CREATE TABLE products (
  id serial PRIMARY KEY,
  sku text NOT NULL UNIQUE,
  name text NOT NULL,
  price_yen integer NOT NULL,
  image_file text NOT NULL,
  video_file text,
  sheet_file text NOT NULL
);
INSERT INTO products (sku, name, price_yen, image_file, video_file, sheet_file) VALUES
${demoProducts
  .map(
    (p) =>
      `  ('${p.sku}', '${p.name}', ${p.priceYen}, '${mediaFileOf(p.sku, 'png')}', ${p.video ? `'${mediaFileOf(p.sku, 'webm')}'` : 'NULL'}, '${mediaFileOf(p.sku, 'pdf')}')`,
  )
  .join(',\n')};
`;

/** Demo databases made before the media were local held internet URLs: they get the file names too. */
const localMediaSql = `
ALTER TABLE products ADD COLUMN image_file text, ADD COLUMN video_file text, ADD COLUMN sheet_file text;
UPDATE products SET image_file = lower(sku) || '.png',
  video_file = CASE WHEN video_url IS NULL THEN NULL ELSE lower(sku) || '.webm' END,
  sheet_file = lower(sku) || '.pdf';
`;

/** Creates each part of the demo schema once; a crash mid-way rolls back, so the next start retries. */
export async function ensureDemoSchema(connection: SqlConnection): Promise<void> {
  const client = new pg.Client({ ...connection, password: connection.password ?? '' });
  await client.connect();
  try {
    const tableExists = 'SELECT to_regclass($1) IS NOT NULL AS exists';
    const columnExists =
      "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'products' AND column_name = $1) AS exists";
    for (const part of [
      { done: tableExists, argument: 'public.orders', sql: demoSchemaSql },
      { done: tableExists, argument: 'public.products', sql: demoProductsSql },
      { done: columnExists, argument: 'image_file', sql: localMediaSql },
    ]) {
      const { rows } = await client.query<{ exists: boolean }>(part.done, [part.argument]);
      if (rows[0]?.exists) continue;
      await client.query('BEGIN');
      await client.query(part.sql);
      await client.query('COMMIT');
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * A few hundred demo rows need no 160 MB buffer pool (PGlite's default): with 16 MB the demo
 * database's share of the runtime's memory falls by ~115 MB (decision 0062).
 */
const pgliteOptions: PGliteOptions = {
  postgresqlconf: ['shared_buffers=16MB', 'wal_buffers=1MB', 'temp_buffers=2MB'],
};

/** initdb in a worker thread, whose memory is returned when it ends (local/demo-database-initdb.mjs). */
async function initializeInWorker(directory: string): Promise<void> {
  const worker = new Worker(new URL('./demo-database-initdb.mjs', import.meta.url), {
    workerData: { directory, options: pgliteOptions },
  });
  try {
    const [result] = (await Promise.race([
      once(worker, 'message'),
      once(worker, 'error').then(([error]) => [{ ok: false, message: (error as Error).message }]),
    ])) as [{ ok: boolean; message?: string }];
    if (!result.ok) throw new Error(`The demo database could not be created: ${result.message}`);
  } finally {
    await worker.terminate();
  }
}

export interface EmbeddedDemoDatabase {
  connection: SqlConnection;
  close(): Promise<void>;
}

export async function startEmbeddedDemoDatabase(
  directory: string,
  port: number,
): Promise<EmbeddedDemoDatabase> {
  // PGlite (a WebAssembly PostgreSQL) loads only when the demo runs embedded, not with an external one;
  // a first start initialises the cluster in a worker, whose memory is freed when it ends.
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-socket'),
    existsSync(join(directory, 'PG_VERSION')) ? undefined : initializeInWorker(directory),
  ]);
  const db = await PGlite.create(directory, pgliteOptions);
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
