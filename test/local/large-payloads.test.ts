/**
 * Nothing lost (decision 0056) through the real HTTP API of an embedded runtime on the real
 * PostgreSQL server: a 7 MB Japanese result and a 1 MB argument each end with a stored record and a
 * link that downloads them, to members only. Sizes are UTF-8 bytes (the Japanese text is 2.4 M
 * characters, which the old UTF-16 count let through and Lambda then refused).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { maxInlineResponseBytes, maxRecordedArgumentBytes } from '../../shared/domain/execution-payloads.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let token: string;
const base = '/api/v1/projects/demo';
const word = '日本語のテキスト'; // 8 characters, 24 bytes in UTF-8
const rows = 70;
const repeats = 4400; // 105,600 bytes of text per row: 7.05 MiB in all

beforeAll(async () => {
  dir = await tempDir('payloads');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  token = await loginToken(runtime);
  api = apiClient(runtime, token);
  for (const action of [
    {
      id: 'big-text',
      name: 'Big Japanese text',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      parameters: [
        { name: 'word', kind: 'text', label: 'Word' },
        { name: 'repeats', kind: 'number', label: 'Repeats', integer: true },
        { name: 'rows', kind: 'number', label: 'Rows', integer: true },
      ],
      statements: [
        {
          title: 'Text',
          sql: 'SELECT g AS n, repeat({{ word }}, {{ repeats }}) AS body FROM generate_series(1, {{ rows }}) g ORDER BY g',
        },
      ],
    },
    {
      id: 'note-length',
      name: 'Length of a note',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      parameters: [{ name: 'note', kind: 'text', label: 'Note', multiline: true }],
      statements: [{ title: 'Length', sql: 'SELECT char_length({{ note }}) AS chars' }],
    },
  ]) {
    const saved = await api.put(`${base}/actions/${action.id}`, action);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  }
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

const download = (link: string, bearer: string | null = token) =>
  fetch(`${runtime.url}${link}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

describe('large payloads on the embedded runtime', () => {
  it('keeps a 7 MB Japanese result and answers it by link', async () => {
    const answer = await api.execute('big-text', { word, repeats, rows });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    const rawAnswer = JSON.stringify(answer.body);
    expect(Buffer.byteLength(rawAnswer)).toBeLessThan(maxInlineResponseBytes);
    const execution = answer.body;
    expect(execution.status).toBe('succeeded');
    expect(execution.payloads.results).toEqual({ bytes: expect.any(Number), stored: true });
    expect(execution.payloads.results.bytes).toBeGreaterThan(7 * 1024 * 1024);
    // The summary is answered; the rows are behind the link.
    expect(execution.results).toEqual([
      {
        title: 'Text',
        status: 'succeeded',
        columns: [
          { name: 'n', type: 'number' },
          { name: 'body', type: 'string' },
        ],
        rows: [],
        rowCount: rows,
        truncated: true,
        messages: [expect.stringContaining('download them from links.results')],
      },
    ]);
    const link = execution.links.results;
    expect(link).toBe(
      `/public/v1/projects/demo/environments/development/executions/${execution.id}/payloads/results`,
    );

    const downloaded = await download(link);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const bytes = Buffer.from(await downloaded.arrayBuffer());
    expect(bytes.byteLength).toBe(execution.payloads.results.bytes);
    const [text] = JSON.parse(bytes.toString('utf8'));
    expect(text.rows).toHaveLength(rows);
    expect(text.truncated).toBeUndefined();
    expect(text.rows[69]).toEqual({ n: 70, body: word.repeat(repeats) });

    // As CSV it is too large to answer: 413 with the execution and its link.
    const csv = await fetch(
      `${runtime.url}/public/v1/projects/demo/environments/development/actions/big-text/executions`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/csv' },
        body: JSON.stringify({ arguments: { word, repeats, rows } }),
      },
    );
    expect(csv.status).toBe(413);
    expect(
      ((await csv.json()) as { execution: { links: { results: string } } }).execution.links.results,
    ).toMatch(/\/payloads\/results$/);

    // The record says the same, and the link works for it too.
    const record = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${execution.id}`,
    );
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      status: 'succeeded',
      payloads: { results: { stored: true } },
      links: { results: link },
    });
    expect(await readdir(join(dir.path, 'payloads', 'executions', execution.id))).toEqual(['results.json']);
  });

  it("keeps a script's 20 MB value behind the link too, never inline, and within the 32 MB cap", async () => {
    // Issue 24: the value of a script result was answered inline (20,972,366 bytes) and stored twice
    // over (value and its table: 41.9 MB), past the documented cap.
    const source = await api.put(`${base}/data-sources/scripts`, {
      id: 'scripts',
      name: 'Scripts',
      kind: 'javascript',
      environments: { development: {} },
    });
    expect(source.status, JSON.stringify(source.body)).toBe(201);
    const saved = await api.put(`${base}/actions/big-value`, {
      id: 'big-value',
      name: 'big-value',
      kind: 'javascript',
      dataSourceId: 'scripts',
      code: "return 'z'.repeat(20 * 1024 * 1024);",
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const answer = await api.execute('big-value', {});
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    expect(Buffer.byteLength(JSON.stringify(answer.body))).toBeLessThan(64 * 1024);
    expect(answer.body.payloads.results.stored).toBe(true);
    expect(answer.body.payloads.results.bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(answer.body.results[0].value).toBeUndefined();
    expect(answer.body.results[0].truncated).toBe(true);
    const downloaded = await download(answer.body.links.results);
    const [stored] = JSON.parse(Buffer.from(await downloaded.arrayBuffer()).toString('utf8'));
    expect(stored.value).toHaveLength(20 * 1024 * 1024);
    // Its table view (the same 20 MB again) did not fit beside it: cut, and said so.
    expect(stored.truncated).toBe(true);
    expect(stored.messages.join(' ')).toContain('the value included');
  });

  it('keeps a 1 MB argument out of the record and serves it by link', async () => {
    const note = 'あ'.repeat(350_000); // 1,050,000 bytes in UTF-8
    const answer = await api.execute('note-length', { note });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    const execution = answer.body;
    expect(execution.results[0].rows).toEqual([{ chars: 350_000 }]);
    expect(execution.arguments).toEqual({});
    expect(execution.payloads.arguments).toEqual({
      bytes: Buffer.byteLength(JSON.stringify({ note })),
      stored: true,
    });
    expect(execution.payloads.arguments.bytes).toBeGreaterThan(maxRecordedArgumentBytes);

    const record = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${execution.id}`,
    );
    expect(record.status).toBe(200);
    expect(record.body.links.arguments).toBe(execution.links.arguments);
    const downloaded = await download(execution.links.arguments);
    expect(downloaded.status).toBe(200);
    expect(await downloaded.json()).toEqual({ note });
  });

  it('serves payloads only to members, and only what was stored', async () => {
    const answer = await api.execute('note-length', { note: 'い'.repeat(30_000) });
    expect(answer.status).toBe(200);
    const { id } = answer.body;
    const link = `/public/v1/projects/demo/environments/development/executions/${id}/payloads/arguments`;
    expect(answer.body.payloads.arguments.stored).toBe(true);
    expect((await download(link, null)).status).toBe(401);
    // Results of this run were small: nothing stored, so nothing to serve.
    const results = await download(link.replace(/arguments$/, 'results'));
    expect(results.status).toBe(404);
    expect(await results.json()).toMatchObject({ code: 'not_found' });
    const other = await download(link.replace(/arguments$/, 'other'));
    expect(other.status).toBe(404);
    // Another environment's path does not reach it.
    expect((await download(link.replace('/development/', '/production/'))).status).toBe(404);
  });

  it('keeps small arguments and results inline, as before', async () => {
    const answer = await api.execute('note-length', { note: 'short' });
    expect(answer.status).toBe(200);
    expect(answer.body.arguments).toEqual({ note: 'short' });
    expect(answer.body.payloads).toBeUndefined();
    expect(answer.body.links).toBeUndefined();
  });
});
