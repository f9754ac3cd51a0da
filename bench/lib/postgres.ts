/**
 * A throwaway PostgreSQL database per bench run on the local server, so runs
 * never see each other's rows and a crashed run is recognisable by its name.
 */
import pg from 'pg';
import { deferCleanup } from './cleanup.ts';

/** The maintenance connection; only loopback traffic, trust auth as on a developer machine. */
export const adminDatabaseUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}`;
  // Identifiers cannot be bound; the name is ours and only [a-z0-9_], but refuse anything else anyway.
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe database name '${name}'.`);
  await withAdminClient(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  const drop = deferCleanup(`drop database ${name}`, () =>
    // FORCE: a pool that did not close cleanly must not keep the database alive.
    withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  );
  return { name, url: url.toString(), drop };
}

export async function serverVersion(): Promise<string> {
  return withAdminClient(async (client) => {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  });
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
