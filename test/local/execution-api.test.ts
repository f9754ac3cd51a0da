/**
 * The public execution endpoint on a real embedded runtime: dynalite on disk,
 * the demo schema in a fresh database on the real PostgreSQL server, real
 * HTTP. Covers the success shape and every error status of the foundation.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { TokenService } from '../../shared/adapters/auth/token-service.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { executionsPath, loginToken, postJson, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let token: string;
let dir: Awaited<ReturnType<typeof tempDir>>;
let database: TestDatabase;
const listOrders = executionsPath('demo', 'development', 'list-orders');

beforeAll(async () => {
  dir = await tempDir('exec');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  token = await loginToken(runtime);
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

function expectProblem(
  response: { status: number; headers: Headers; body: Record<string, unknown> },
  status: number,
  code: string,
) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body).toMatchObject({ type: `urn:dogu:problem:${code}`, code, status });
  expect(typeof response.body.title).toBe('string');
  expect(response.body.instance).toMatch(/^urn:dogu:request:/);
  expect(JSON.stringify(response.body)).not.toMatch(/\bat .+\.ts:\d+/); // no stack frames
}

describe('POST …/actions/{actionId}/executions', () => {
  it('runs the demo action with bound arguments and returns typed rows', async () => {
    const response = await postJson(runtime, listOrders, {
      token,
      body: JSON.stringify({ arguments: { status: 'shipped', limit: 5 } }),
    });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({
      status: 'succeeded',
      projectId: 'demo',
      environmentId: 'development',
      actionId: 'list-orders',
      actionVersion: 1,
      executedBy: { kind: 'user', email: 'admin@dogu.local' },
      arguments: { status: 'shipped', limit: 5 },
    });
    expect(body.id).toMatch(/^exe_[0-9a-f]{32}$/);
    expect(Date.parse(body.finishedAt)).toBeGreaterThanOrEqual(Date.parse(body.startedAt));
    expect(body.results).toHaveLength(1);
    const [orders] = body.results;
    expect(orders.title).toBe('Orders');
    expect(orders.columns).toEqual([
      { name: 'id', type: 'number' },
      { name: 'customer_id', type: 'number' },
      { name: 'status', type: 'string' },
      { name: 'total_yen', type: 'number' },
      { name: 'ordered_at', type: 'string' },
    ]);
    expect(orders.rowCount).toBe(5);
    expect(orders.rows).toHaveLength(5);
    for (const row of orders.rows) expect(row.status).toBe('shipped');
    const ids = orders.rows.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('answers a CSV download with Accept: text/csv', async () => {
    const response = await fetch(`${runtime.url}${listOrders}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/csv' },
      body: JSON.stringify({ arguments: { status: 'shipped', limit: 3 } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const executionId = response.headers.get('x-dogu-execution-id');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="list-orders-${executionId}.csv"`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM for spreadsheets
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,customer_id,status,total_yen,ordered_at');
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((line) => line.split(',')[2] === 'shipped')).toBe(true);
    const missing = await fetch(`${runtime.url}${listOrders}?statement=3`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/csv' },
      body: JSON.stringify({ arguments: { status: 'shipped' } }),
    });
    expect(missing.status).toBe(400);
  });

  it('treats an injection attempt as a plain value', async () => {
    const response = await postJson(runtime, listOrders, {
      token,
      body: JSON.stringify({ arguments: { status: "shipped' OR '1'='1", limit: 5 } }),
    });
    expect(response.status).toBe(200);
    expect(response.body.results[0].rows).toEqual([]);
  });

  it('records the execution, readable by id', async () => {
    const run = await postJson(runtime, listOrders, {
      token,
      body: JSON.stringify({ arguments: { status: 'paid', limit: 2 } }),
    });
    const response = await fetch(
      `${runtime.url}/public/v1/projects/demo/environments/development/executions/${run.body.id}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(response.status).toBe(200);
    const recorded = (await response.json()) as { results: { rows?: unknown }[] };
    expect(recorded).toMatchObject({
      id: run.body.id,
      status: 'succeeded',
      actionVersion: 1,
      arguments: { status: 'paid', limit: 2 },
      results: [{ title: 'Orders', status: 'succeeded', rowCount: 2 }],
    });
    expect(recorded.results[0]?.rows).toBeUndefined();
  });

  it('applies defaults to arguments not given', async () => {
    const response = await postJson(runtime, listOrders, {
      token,
      body: JSON.stringify({ arguments: { status: 'pending' } }),
    });
    expect(response.status).toBe(200);
    expect(response.body.arguments).toEqual({ status: 'pending', limit: 20 });
    expect(response.body.results[0].rowCount).toBe(20);
  });

  it('treats an empty body as no arguments (then the required status is missing)', async () => {
    const response = await postJson(runtime, listOrders, { token, body: '' });
    expectProblem(response, 422, 'argument_invalid');
    expect(response.body.errors).toEqual([
      { pointer: '#/arguments/status', detail: "'status' is required." },
    ]);
  });

  it('400 for a body that is not JSON', async () => {
    expectProblem(await postJson(runtime, listOrders, { token, body: '{"arguments":' }), 400, 'bad_request');
  });

  it('400 for a body that is not an object, and for arguments that are not an object', async () => {
    expectProblem(await postJson(runtime, listOrders, { token, body: '[1]' }), 400, 'bad_request');
    const response = await postJson(runtime, listOrders, { token, body: '{"arguments":[1]}' });
    expectProblem(response, 400, 'bad_request');
    expect(response.body.errors).toEqual([{ pointer: '#/arguments', detail: 'must be an object' }]);
  });

  it('401 without a token, with a malformed one, with a forged one and with an expired one', async () => {
    const body = JSON.stringify({ arguments: { status: 'paid' } });
    expectProblem(await postJson(runtime, listOrders, { body }), 401, 'unauthorized');
    expectProblem(await postJson(runtime, listOrders, { body, token: 'not-a-jwt' }), 401, 'unauthorized');

    const forger = new TokenService(new Uint8Array(32).fill(7));
    const forged = await forger.issue({ kind: 'user', id: 'usr_x', email: 'x@example.com', name: 'X' }, 600);
    expectProblem(await postJson(runtime, listOrders, { body, token: forged.token }), 401, 'unauthorized');

    const past = () => new Date(Date.now() - 2 * 3600_000);
    const key = Buffer.from(await readFile(join(dir.path, 'signing-key'), 'utf8'), 'base64');
    const expired = await new TokenService(key, past).issue(
      { kind: 'user', id: 'usr_x', email: 'x@example.com', name: 'X' },
      60,
    );
    const response = await postJson(runtime, listOrders, { body, token: expired.token });
    expectProblem(response, 401, 'unauthorized');
    expect(response.body.detail).toBe('The access token has expired.');
  });

  it('401 comes before the body is looked at', async () => {
    expectProblem(
      await postJson(runtime, listOrders, { body: 'garbage', contentType: 'text/plain' }),
      401,
      'unauthorized',
    );
  });

  it('403 for a valid user who is not a member of the project', async () => {
    const outsider = await runtime.services.tokens.issue(
      { kind: 'user', id: 'usr_outsider', email: 'outsider@example.com', name: 'Outsider' },
      600,
    );
    const response = await postJson(runtime, listOrders, { token: outsider.token, body: '{"arguments":{}}' });
    expectProblem(response, 403, 'forbidden');
    expect(response.body.detail).toContain("'demo'");
  });

  it('404 for an unknown project, environment or action, naming it', async () => {
    const cases = [
      [executionsPath('nope', 'development', 'list-orders'), "Project 'nope'"],
      [executionsPath('demo', 'staging', 'list-orders'), "Environment 'staging'"],
      [executionsPath('demo', 'development', 'nope'), "Action 'nope'"],
    ] as const;
    for (const [path, detail] of cases) {
      const response = await postJson(runtime, path, { token, body: '{"arguments":{"status":"paid"}}' });
      expectProblem(response, 404, 'not_found');
      expect(response.body.detail).toContain(detail);
    }
  });

  it('415 for a POST that is not application/json', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const response = await postJson(runtime, listOrders, { token, body: '{"arguments":{}}', contentType });
      expectProblem(response, 415, 'unsupported_media_type');
    }
  });

  it('accepts application/json with a charset', async () => {
    const response = await postJson(runtime, listOrders, {
      token,
      contentType: 'application/json; charset=utf-8',
      body: '{"arguments":{"status":"paid","limit":1}}',
    });
    expect(response.status).toBe(200);
  });

  it('422 names each offending argument', async () => {
    const response = await postJson(runtime, listOrders, {
      token,
      body: JSON.stringify({ arguments: { limit: 'five', colour: 'red' } }),
    });
    expectProblem(response, 422, 'argument_invalid');
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { pointer: '#/arguments/status', detail: "'status' is required." },
        { pointer: '#/arguments/limit', detail: "'limit' must be a finite number." },
        { pointer: '#/arguments/colour', detail: "'colour' is not a parameter of this action." },
      ]),
    );
  });
});

describe('routing', () => {
  it('404 Problem Details for an unknown path', async () => {
    const response = await fetch(`${runtime.url}/public/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { code: string }).code).toBe('not_found');
  });

  it('405 with Allow for a known path under another method', async () => {
    const response = await fetch(`${runtime.url}${listOrders}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(((await response.json()) as { code: string }).code).toBe('method_not_allowed');
  });

  it('GET /healthz answers 200', async () => {
    const response = await fetch(`${runtime.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /public/v1/me names the caller', async () => {
    const response = await fetch(`${runtime.url}/public/v1/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await response.json()).toMatchObject({ kind: 'user', email: 'admin@dogu.local' });
  });
});
