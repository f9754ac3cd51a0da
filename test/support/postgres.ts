/** A fresh database on the machine's real PostgreSQL (127.0.0.1:5432, trust auth), dropped afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const postgresServer = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' };

export interface TestDatabase {
  name: string;
  url: string;
  connection: { host: string; port: number; user: string; database: string };
  drop(): Promise<void>;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(postgresServer);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(prefix = 'dogu_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    connection: { ...postgresServer, database: name },
    drop: () =>
      admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
