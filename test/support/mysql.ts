/** A fresh database on the machine's real MariaDB/MySQL (127.0.0.1:3306, root without password), dropped afterwards. */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

export const mysqlServer = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export interface TestMysqlDatabase {
  name: string;
  connection: { host: string; port: number; user: string; password: string; database: string };
  /** Runs setup or inspection SQL on a connection of its own (not through the connector under test). */
  admin<T>(run: (connection: mysql.Connection) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

async function withConnection<T>(
  options: mysql.ConnectionOptions,
  run: (connection: mysql.Connection) => Promise<T>,
): Promise<T> {
  const connection = await mysql.createConnection(options);
  try {
    return await run(connection);
  } finally {
    await connection.end();
  }
}

export async function createTestMysqlDatabase(prefix = 'dogu_test'): Promise<TestMysqlDatabase> {
  // Random, so parallel runs (and test files) never share a database.
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withConnection(mysqlServer, (c) => c.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`));
  const connection = { ...mysqlServer, database: name };
  return {
    name,
    connection,
    admin: (run) => withConnection(connection, run),
    drop: () =>
      withConnection(mysqlServer, (c) => c.query(`DROP DATABASE IF EXISTS \`${name}\``)).then(() => {}),
  };
}
