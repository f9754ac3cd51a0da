/**
 * An SQL-injection corpus sent through every parameter kind usable in SQL
 * except the `sql` kind, on the real PostgreSQL and MariaDB servers, through
 * the public API. Success for an attacker would be: rows they should not see,
 * a database error (their text reached the parser), or a changed table.
 * The test demands zero successes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const payloads = [
  "' OR '1'='1",
  "' OR 1=1 --",
  "' OR 1=1#",
  "'; DROP TABLE victims; --",
  '1; DELETE FROM victims',
  "' UNION SELECT secret FROM vault --",
  "x' UNION SELECT secret FROM vault WHERE 'a'='a",
  "\\'; DROP TABLE victims; --",
  "\\\\' OR 1=1 --",
  '" OR ""="',
  "') OR ('a'='a",
  "%' OR 1=1 --",
  "admin'--",
  // Sleeps long enough that no slow machine is mistaken for one that ran them (see `slept`).
  "1' AND SLEEP(20)#",
  "'||pg_sleep(20)||'",
  '$$ OR 1=1 $$',
  '$1',
  '?',
  '{{ secrets.x }}',
  '\u0000',
  "' OR 'a'='a' /*",
  '*/ OR 1=1 /*',
  "';SHUTDOWN;--",
  "１' OR '１'='１",
];

let runtime: LocalRuntime;
let pg: TestDatabase;
let my: TestMysqlDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;

const victimsSql = {
  postgresql: [
    'CREATE TABLE victims (id int PRIMARY KEY, name text NOT NULL)',
    "INSERT INTO victims VALUES (1, 'alice'), (2, 'bob'), (3, 'carol')",
    'CREATE TABLE vault (secret text)',
    "INSERT INTO vault VALUES ('the-crown-jewels')",
  ],
  mysql: [
    'CREATE TABLE victims (id int PRIMARY KEY, name varchar(100) NOT NULL)',
    "INSERT INTO victims VALUES (1, 'alice'), (2, 'bob'), (3, 'carol')",
    'CREATE TABLE vault (secret varchar(100))',
    "INSERT INTO vault VALUES ('the-crown-jewels')",
  ],
};

/** One action per kind; each selects victims matching the argument, so any row is a success for the attacker. */
function actionsFor(dataSourceId: string, dialect: 'postgresql' | 'mysql') {
  const text = dialect === 'mysql' ? 'CHAR' : 'text';
  const asText = (ref: string) => `CAST(${ref} AS ${text})`;
  return [
    { kind: 'text', parameter: { kind: 'text' }, where: 'name = {{ p }}', wrap: (v: string) => v },
    {
      kind: 'text (multiline)',
      parameter: { kind: 'text', multiline: true },
      where: 'name = {{ p }}',
      wrap: (v: string) => v,
    },
    {
      kind: 'text identifier',
      parameter: { kind: 'text', identifier: true },
      where: 'name = {{ p }}',
      wrap: (v: string) => v,
    },
    { kind: 'number', parameter: { kind: 'number' }, where: 'id = {{ p }}', wrap: (v: string) => v },
    {
      kind: 'boolean (string format)',
      parameter: { kind: 'boolean', format: 'string' },
      where: `name = ${asText('{{ p }}')}`,
      wrap: (v: string) => v,
    },
    {
      kind: 'date',
      parameter: { kind: 'date' },
      where: `name = ${asText('{{ p }}')}`,
      wrap: (v: string) => v,
    },
    {
      kind: 'array (sql)',
      parameter: { kind: 'array', itemKind: 'text', format: 'sql' },
      where: 'name IN {{ p }}',
      wrap: (v: string) => [v],
    },
    {
      kind: 'array (json)',
      parameter: { kind: 'array', itemKind: 'text', format: 'json' },
      where: 'name = {{ p }}',
      wrap: (v: string) => [v],
    },
    {
      kind: 'array (delimiter)',
      parameter: { kind: 'array', itemKind: 'text', format: 'delimiter' },
      where: 'name = {{ p }}',
      wrap: (v: string) => [v, v],
    },
    {
      kind: 'tuple (json)',
      parameter: { kind: 'tuple', items: [{ kind: 'text' }], format: 'json' },
      where: 'name = {{ p }}',
      wrap: (v: string) => [v],
    },
    {
      kind: 'tuple (delimiter)',
      parameter: { kind: 'tuple', items: [{ kind: 'text' }, { kind: 'text' }], format: 'delimiter' },
      where: 'name = {{ p }}',
      wrap: (v: string) => [v, v],
    },
  ].map((entry, i) => ({
    ...entry,
    action: {
      id: `${dialect === 'mysql' ? 'my' : 'pg'}-inject-${i}`,
      name: entry.kind,
      kind: 'sql',
      dataSourceId,
      parameters: [{ name: 'p', ...entry.parameter }],
      statements: [{ title: 'Victims', sql: `SELECT id FROM victims WHERE ${entry.where}` }],
    },
  }));
}

beforeAll(async () => {
  dir = await tempDir('inject');
  [pg, my] = await Promise.all([createTestDatabase(), createTestMysqlDatabase()]);
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: pg.url });
  api = apiClient(runtime, await loginToken(runtime));
  const { default: pgDriver } = await import('pg');
  const client = new pgDriver.Client(pg.connection);
  await client.connect();
  for (const statement of victimsSql.postgresql) await client.query(statement);
  await client.end();
  await my.admin(async (connection) => {
    for (const statement of victimsSql.mysql) await connection.query(statement);
  });
  await api.put('/api/v1/projects/demo/data-sources/victims-pg', {
    id: 'victims-pg',
    name: 'Victims (PostgreSQL)',
    kind: 'postgresql',
    environments: { development: pg.connection },
  });
  await api.put('/api/v1/projects/demo/data-sources/victims-my', {
    id: 'victims-my',
    name: 'Victims (MariaDB)',
    kind: 'mysql',
    environments: { development: my.connection },
  });
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([pg?.drop(), my?.drop()]);
});

describe.each([
  ['PostgreSQL', 'victims-pg', 'postgresql'],
  ['MariaDB', 'victims-my', 'mysql'],
] as const)('injection corpus on %s', (_name, dataSourceId, dialect) => {
  // 264 requests: over 30 s on a loaded 2-core machine.
  it(`${payloads.length} payloads × every non-SQL kind: zero successes, tables intact`, {
    timeout: 300_000,
  }, async () => {
    const successes: string[] = [];
    let attempts = 0;
    for (const entry of actionsFor(dataSourceId, dialect)) {
      const saved = await api.put(`/api/v1/projects/demo/actions/${entry.action.id}`, entry.action);
      expect(saved.status, `${entry.kind}: ${JSON.stringify(saved.body)}`).toBe(201);
      for (const payload of payloads) {
        attempts++;
        const started = Date.now();
        const response = await api.execute(entry.action.id, { p: entry.wrap(payload) });
        const took = Date.now() - started;
        const leaked = response.status === 200 && response.body.results[0].rows.length > 0;
        // A database error means the text reached the parser as SQL; 422 argument_invalid is a refusal.
        const parsed = response.status !== 200 && response.body.code !== 'argument_invalid';
        // An injected sleep of 20 s ran; a loaded machine answers an honest request well within 10 s.
        const slept = took > 10_000;
        if (leaked || parsed || slept) {
          successes.push(
            `${entry.kind} ← ${JSON.stringify(payload)}: ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`,
          );
        }
      }
    }
    expect(successes).toEqual([]);
    expect(attempts).toBe(payloads.length * 11);

    // The tables are untouched.
    const check = await api.put('/api/v1/projects/demo/actions/count-victims', {
      id: 'count-victims',
      name: 'Count',
      kind: 'sql',
      dataSourceId,
      statements: [{ title: 'n', sql: 'SELECT count(*) AS n FROM victims' }],
    });
    expect(check.status).toBeLessThan(300);
    const count = await api.execute('count-victims', {});
    expect(Number(count.body.results[0].rows[0].n)).toBe(3);
  });

  it('the same actions find the real rows with honest arguments', async () => {
    const [text, , , number] = actionsFor(dataSourceId, dialect);
    expect((await api.execute(text!.action.id, { p: 'bob' })).body.results[0].rows).toEqual([{ id: 2 }]);
    expect((await api.execute(number!.action.id, { p: 3 })).body.results[0].rows).toEqual([{ id: 3 }]);
    const arraySql = actionsFor(dataSourceId, dialect)[6]!;
    const rows = (await api.execute(arraySql.action.id, { p: ['alice', 'carol'] })).body.results[0].rows;
    expect(rows.map((r: { id: number }) => r.id).sort()).toEqual([1, 3]);
  });
});
