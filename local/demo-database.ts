/**
 * The embedded demo database: PGlite served over the PostgreSQL wire protocol
 * on 127.0.0.1, persisted in the data directory, so the demo needs no server.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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

/** PostgreSQL's CancelRequest: length 16, then this code (protocol 53.2.8). */
const cancelRequestCode = 80877102;

/**
 * PGlite runs in a worker thread (demo-database-worker.mjs) behind a small TCP relay on the public
 * port. PGlite cannot interrupt a running query and its socket server ignores CancelRequest, so the
 * relay answers one itself: it ends the worker (and with it the query and every demo session) and
 * starts a fresh one on the same files (decision 0076). Only the connector's time limit sends one.
 */
export async function startEmbeddedDemoDatabase(
  directory: string,
  port: number,
): Promise<EmbeddedDemoDatabase> {
  if (!existsSync(join(directory, 'PG_VERSION'))) await initializeInWorker(directory);
  let current = await startWorker(directory);
  let restarting: Promise<DemoWorker> | undefined;
  const restart = () => {
    restarting ??= (async () => {
      await current.worker.terminate();
      current = await startWorker(directory);
      return current;
    })().finally(() => {
      restarting = undefined;
    });
    return restarting;
  };
  const relay = createNetServer((client) => {
    client.on('error', () => {});
    client.once('data', (first) => {
      if (first.length >= 8 && first.readInt32BE(0) === 16 && first.readInt32BE(4) === cancelRequestCode) {
        client.destroy();
        void restart();
        return;
      }
      client.pause();
      void (restarting ?? Promise.resolve(current)).then(({ port: target }) => {
        const upstream = connect({ host: '127.0.0.1', port: target }, () => {
          upstream.write(first);
          client.pipe(upstream).pipe(client);
          client.resume();
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
    });
  });
  relay.maxConnections = 16;
  try {
    relay.listen(port, '127.0.0.1');
    await Promise.race([
      once(relay, 'listening'),
      once(relay, 'error').then(([error]) => {
        throw error;
      }),
    ]);
  } catch (error) {
    await stopWorker(current);
    const code = (error as { code?: string }).code;
    throw new Error(
      code === 'EADDRINUSE'
        ? `Port ${port} for the demo database is in use; set DOGU_DEMO_DB_PORT to a free port.`
        : `The demo database could not start: ${(error as Error).message}`,
    );
  }
  const { port: actualPort } = relay.address() as AddressInfo;
  const connection = { host: '127.0.0.1', port: actualPort, database: 'postgres', user: 'postgres' };
  return {
    connection,
    async close() {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await restarting?.catch(() => undefined);
      await stopWorker(current);
    },
  };
}

interface DemoWorker {
  worker: Worker;
  port: number;
}

async function startWorker(directory: string): Promise<DemoWorker> {
  const worker = new Worker(new URL('./demo-database-worker.mjs', import.meta.url), {
    workerData: { directory, options: pgliteOptions },
  });
  const [message] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => [{ type: 'failed', message: (error as Error).message }]),
  ])) as [{ type: string; port?: number; message?: string }];
  if (message.type !== 'ready') {
    await worker.terminate();
    throw new Error(`The demo database could not start: ${message.message}`);
  }
  // The runtime's exit does not wait for the database's thread.
  worker.unref();
  return { worker, port: message.port! };
}

/** Closes PGlite cleanly (its files stay consistent), then ends the thread. */
async function stopWorker({ worker }: DemoWorker): Promise<void> {
  worker.postMessage({ type: 'close' });
  await Promise.race([once(worker, 'message'), once(worker, 'exit'), delay(5_000)]).catch(() => {});
  await worker.terminate();
}
