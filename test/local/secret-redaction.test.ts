/**
 * A database quotes the value it could not use: a secret bound into a failing statement (and a data
 * source's password) must not come back in any answer, execution record, batch detail, results CSV or
 * file of the data directory — with real PostgreSQL and MariaDB.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const secretCanary = 'canary-S3cr3t-e91f4b';
const passwordCanary = 'canary-Pa55-7d2c01';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let closed = false;
let postgres: TestDatabase;
let mariadb: TestMysqlDatabase;
let api: ReturnType<typeof apiClient>;
let token: string;
/** Every answer this test received, as text. */
const answers: string[] = [];

const base = '/api/v1/projects/demo';
const env = `${base}/environments/development`;

beforeAll(async () => {
  dir = await tempDir('redaction');
  [postgres, mariadb] = await Promise.all([createTestDatabase(), createTestMysqlDatabase()]);
  await mariadb.admin((c) => c.query('CREATE TABLE numbers (n int)'));
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: postgres.url });
  token = await loginToken(runtime);
  api = apiClient(runtime, token);
});
afterAll(async () => {
  if (!closed) await runtime?.close();
  await dir?.remove();
  await Promise.all([postgres?.drop(), mariadb?.drop()]);
});

async function call(method: 'put' | 'post' | 'get', path: string, body?: unknown) {
  const response = method === 'get' ? await api.get(path) : await api[method](path, body);
  answers.push(JSON.stringify(response.body));
  return response;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('secrets in database error messages', () => {
  it('are redacted from every answer, record, batch, CSV and data-directory file', async () => {
    expect((await call('put', `${env}/secrets/token`, { value: secretCanary })).status).toBe(201);
    const pg = await call('put', `${base}/data-sources/canary-pg`, {
      id: 'canary-pg',
      name: 'Canary PostgreSQL',
      kind: 'postgresql',
      // Trust authentication: the password is sent but not needed.
      environments: { development: { ...postgres.connection, password: passwordCanary } },
    });
    expect(pg.status, JSON.stringify(pg.body)).toBe(201);
    const my = await call('put', `${base}/data-sources/canary-maria`, {
      id: 'canary-maria',
      name: 'Canary MariaDB',
      kind: 'mysql',
      environments: { development: mariadb.connection },
    });
    expect(my.status, JSON.stringify(my.body)).toBe(201);
    const passwordBase64 = Buffer.from(passwordCanary).toString('base64');
    const actions = {
      'pg-secret': ['canary-pg', 'SELECT CAST({{ secrets.token }} AS integer) AS n'],
      // The password itself never appears in the definition: the database decodes it.
      'pg-password': [
        'canary-pg',
        `SELECT CAST(convert_from(decode('${passwordBase64}', 'base64'), 'UTF8') AS integer)`,
      ],
      'maria-secret': ['canary-maria', 'INSERT INTO numbers (n) VALUES ({{ secrets.token }})'],
      // PostgreSQL folds the value to lower case in its answer (issue 24, item 9).
      'pg-regclass': ['canary-pg', 'SELECT {{ secrets.token }}::regclass AS r'],
    };
    for (const [id, [dataSourceId, sql]] of Object.entries(actions)) {
      const saved = await call('put', `${base}/actions/${id}`, {
        id,
        name: id,
        kind: 'sql',
        dataSourceId,
        parameters: [{ name: 'n', kind: 'number' }],
        statements: [{ title: 'Cast', sql }],
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    }

    for (const id of Object.keys(actions)) {
      const run = await call(
        'post',
        `/public/v1/projects/demo/environments/development/actions/${id}/executions`,
        {
          arguments: {},
        },
      );
      expect(run.status, id).toBe(422);
      expect(run.body.detail, id).toContain('[secret]');
      const record = await call(
        'get',
        `/public/v1/projects/demo/environments/development/executions/${run.body.execution.id}`,
      );
      expect(record.body.error.message, id).toContain('[secret]');

      const batch = await call('post', `${env}/actions/${id}/batches`, { rows: [{ n: 1 }, { n: 2 }] });
      expect(batch.status, id).toBe(202);
      const done = await until(
        () => call('get', `${env}/batches/${batch.body.batch.id}`),
        (r) => r.body.batch.status === 'finished',
      );
      expect(done.body.progress.failure, id).toBe(2);
      const csv = await fetch(`${runtime.url}${env}/batches/${batch.body.batch.id}/results`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const csvText = await csv.text();
      answers.push(csvText);
      expect(csvText, id).toContain('[secret]');
    }
    // The console's history and the audit log too.
    await call('get', `${base}/audit-log`);

    for (const answer of answers) {
      expect(answer.toLowerCase()).not.toContain(secretCanary.toLowerCase());
      expect(answer.toLowerCase()).not.toContain(passwordCanary.toLowerCase());
    }
    const { Items = [] } = await runtime.storage.client.send(
      new ScanCommand({ TableName: runtime.storage.tableName }),
    );
    // Execution records and audit entries are in the SQLite file (decision 0250).
    const local = [
      ...runtime.storage.local.prepare('SELECT record AS text FROM executions').all(),
      ...runtime.storage.local.prepare('SELECT entry AS text FROM audit_entries').all(),
    ];
    const stored = JSON.stringify([Items, local]).toLowerCase();
    expect(stored).toContain('[secret]');
    expect(stored).not.toContain(secretCanary.toLowerCase());
    expect(stored).not.toContain(passwordCanary.toLowerCase());

    await runtime.close();
    closed = true;
    const files = await filesUnder(dir.path);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const content = (await readFile(file)).toString('latin1').toLowerCase();
      expect(content.includes(secretCanary.toLowerCase()), file).toBe(false);
      expect(content.includes(passwordCanary.toLowerCase()), file).toBe(false);
    }
  }, 120_000);
});
