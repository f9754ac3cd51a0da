/** HTTP API actions end to end: a real HTTP server on 127.0.0.1, the public and management APIs. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let upstream: string;
const received: Received[] = [];
let logins = 0;
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    const path = new URL(request.url!, 'http://x').pathname;
    if (path === '/v1/login') {
      logins++;
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: `tok-${logins}` }));
    } else if (path === '/v1/logo.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    } else if (path === '/v1/broken') {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('upstream is down');
    } else {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify([
          { id: 1, name: 'Pen', image: 'https://cdn.example.com/pen.png' },
          { id: 2, name: 'Mug', image: 'https://cdn.example.com/mug.jpg' },
        ]),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  dir = await tempDir('http');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  api = apiClient(runtime, await loginToken(runtime));
  await api.put(`${base}/environments/development/secrets/tenant_key`, { value: 'tenant-secret-9' });
  await api.put(`${base}/environments/development/variables/api_version`, { value: '2026-11' });
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('HTTP API actions', () => {
  it('sets up a data source whose authentication action provides {{ authToken }}', async () => {
    const source = (authAction?: object) => ({
      id: 'shop-api',
      name: 'Shop API',
      kind: 'http',
      environments: {
        development: {
          url: `${upstream}/v1`,
          headers: [
            { key: 'X-Tenant-Key', value: '{{ secrets.tenant_key }}' },
            { key: 'X-Api-Version', value: '{{ vars.api_version }}' },
          ],
        },
      },
      ...(authAction ? { authAction } : {}),
    });
    expect((await api.put(`${base}/data-sources/shop-api`, source())).status).toBe(201);
    const login = await api.put(`${base}/actions/shop-login`, {
      id: 'shop-login',
      name: 'Log in',
      kind: 'http',
      dataSourceId: 'shop-api',
      method: 'POST',
      path: '/login',
      body: { type: 'json', json: '{"client": "dogu"}' },
    });
    expect(login.status).toBe(201);
    const updated = await api.put(
      `${base}/data-sources/shop-api`,
      source({ actionId: 'shop-login', tokenPath: 'access_token', cacheSeconds: 60 }),
    );
    expect(updated.status).toBe(200);
  });

  it('runs an action: path, query, headers and JSON body built from arguments; rows from a JSON array', async () => {
    const action = await api.put(`${base}/actions/update-item`, {
      id: 'update-item',
      name: 'Update item',
      kind: 'http',
      dataSourceId: 'shop-api',
      method: 'PATCH',
      path: '/items/{{ sku }}?ignored=1',
      headers: [{ key: 'Authorization', value: 'Bearer {{ authToken }}' }],
      query: [
        { key: 'dry_run', value: '{{ dryRun }}' },
        { key: 'by', value: '{{ currentUser.email }}' },
      ],
      body: {
        type: 'json',
        json: '{"name": {{ name }}, "tags": {{ tags }}, "note": "set by {{ currentUser.email }}"}',
      },
      parameters: [
        { name: 'sku', kind: 'text', required: true },
        { name: 'name', kind: 'text' },
        { name: 'tags', kind: 'array', itemKind: 'text', format: 'json' },
        { name: 'dryRun', kind: 'boolean' },
      ],
    });
    expect(action.status).toBe(201);
    received.length = 0;
    const run = await api.execute('update-item', {
      sku: 'a/b c',
      name: 'Pen "Pro"',
      tags: ['x', 'y'],
      dryRun: true,
    });
    expect(run.status).toBe(200);
    const call = received.find((r) => r.method === 'PATCH')!;
    expect(call.url).toBe('/v1/items/a%2Fb%20c?dry_run=true&by=admin%40dogu.local');
    expect(call.headers.authorization).toBe('Bearer tok-1');
    expect(call.headers['x-tenant-key']).toBe('tenant-secret-9');
    expect(call.headers['x-api-version']).toBe('2026-11');
    expect(JSON.parse(call.body)).toEqual({
      name: 'Pen "Pro"',
      tags: ['x', 'y'],
      note: 'set by admin@dogu.local',
    });
    const [result] = run.body.results;
    expect(result.rows).toEqual([
      { id: 1, name: 'Pen', image: 'https://cdn.example.com/pen.png' },
      { id: 2, name: 'Mug', image: 'https://cdn.example.com/mug.jpg' },
    ]);
    expect(result.columns.find((c: { name: string }) => c.name === 'image').media).toBe('image');
    // The token is cached: a second run does not log in again.
    await api.execute('update-item', { sku: 'x' });
    expect(logins).toBe(1);
    // The secret is not in the recorded execution.
    const recorded = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${run.body.id}`,
    );
    expect(JSON.stringify(recorded.body)).not.toContain('tenant-secret-9');
  });

  it('returns an image body as media', async () => {
    await api.put(`${base}/actions/logo`, {
      id: 'logo',
      name: 'Logo',
      kind: 'http',
      dataSourceId: 'shop-api',
      method: 'GET',
      path: '/logo.png',
    });
    const run = await api.execute('logo', {});
    expect(run.status).toBe(200);
    expect(run.body.results[0].media).toEqual({
      kind: 'image',
      contentType: 'image/png',
      base64: png.toString('base64'),
    });
  });

  it('an upstream error status fails the execution with data_source_error and the status', async () => {
    await api.put(`${base}/actions/broken`, {
      id: 'broken',
      name: 'Broken',
      kind: 'http',
      dataSourceId: 'shop-api',
      method: 'GET',
      path: '/broken',
    });
    const run = await api.execute('broken', {});
    expect(run.status).toBe(422);
    expect(run.body.code).toBe('data_source_error');
    expect(run.body.detail).toContain('503');
    expect(run.body.execution.status).toBe('failed');
  });

  it('a refused address (cloud metadata) fails clearly', async () => {
    await api.put(`${base}/data-sources/metadata`, {
      id: 'metadata',
      name: 'Metadata',
      kind: 'http',
      environments: { development: { url: 'http://169.254.169.254' } },
    });
    await api.put(`${base}/actions/steal`, {
      id: 'steal',
      name: 'Steal',
      kind: 'http',
      dataSourceId: 'metadata',
      method: 'GET',
      path: '/latest/meta-data/',
    });
    const run = await api.execute('steal', {});
    expect(run.status).toBe(422);
    expect(run.body.code).toBe('data_source_error');
  });

  it('authentication actions that need each other stop at the one depth limit of runs', async () => {
    const source = (id: string, authActionId?: string) => ({
      id,
      name: id,
      kind: 'http',
      environments: { development: { url: `${upstream}/v1` } },
      ...(authActionId ? { authAction: { actionId: authActionId, tokenPath: 'access_token' } } : {}),
    });
    const login = (id: string, dataSourceId: string) => ({
      id,
      name: id,
      kind: 'http',
      dataSourceId,
      method: 'POST',
      path: '/login',
    });
    for (const id of ['loop-a', 'loop-b'])
      expect((await api.put(`${base}/data-sources/${id}`, source(id))).status).toBe(201);
    // Each data source logs in with an action of the other: a token for one needs a token for the other.
    expect((await api.put(`${base}/actions/a-login`, login('a-login', 'loop-b'))).status).toBe(201);
    expect((await api.put(`${base}/actions/b-login`, login('b-login', 'loop-a'))).status).toBe(201);
    expect((await api.put(`${base}/data-sources/loop-a`, source('loop-a', 'a-login'))).status).toBe(200);
    expect((await api.put(`${base}/data-sources/loop-b`, source('loop-b', 'b-login'))).status).toBe(200);
    await api.put(`${base}/actions/loop-items`, {
      id: 'loop-items',
      name: 'Items',
      kind: 'http',
      dataSourceId: 'loop-a',
      method: 'GET',
      path: '/items',
    });
    received.length = 0;
    const run = await api.execute('loop-items', {});
    expect(run.status).toBe(422);
    expect(run.body.code).toBe('data_source_error');
    // The action is level 1, its logins levels 2, 3 and 4; a fifth level is refused before it sends anything.
    expect(run.body.detail).toContain("Action 'b-login' would run 5 levels deep; the limit is 4");
    expect(received).toEqual([]);
  });
});
