/**
 * The gRPC kind end to end through the local HTTP API: a data source and actions saved, checked
 * at save time, run with metadata from a variable and an authentication action (an HTTP API
 * action), its connection tested and its methods listed by the catalog route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoGrpcServer, startDemoGrpcServer } from '../../local/demo-grpc/server.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { startHttpServer, type TestServer } from '../support/http-server.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let grpcServer: DemoGrpcServer;
let loginApi: TestServer;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';
const seen: Record<string, string>[] = [];

beforeAll(async () => {
  dir = await tempDir('grpc-api');
  [grpcServer, loginApi] = await Promise.all([
    startDemoGrpcServer({ onMetadata: (_method, metadata) => seen.push(metadata) }),
    startHttpServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"tok-9"}'),
    ),
  ]);
  runtime = await startTestRuntime(dir.path);
  api = apiClient(runtime, await loginToken(runtime));

  await api.put(`${base}/environments/development/variables/tenant`, { value: 'acme' });
  const login = await api.put(`${base}/data-sources/login-api`, {
    id: 'login-api',
    name: 'Login API',
    kind: 'http',
    environments: { development: { url: loginApi.url } },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(201);
  const loginAction = await api.put(`${base}/actions/login`, {
    id: 'login',
    name: 'Log in',
    kind: 'http',
    dataSourceId: 'login-api',
    method: 'POST',
    path: '/login',
  });
  expect(loginAction.status, JSON.stringify(loginAction.body)).toBe(201);
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([grpcServer?.close(), loginApi?.close()]);
});

const orders = {
  id: 'orders',
  name: 'Orders (gRPC)',
  kind: 'grpc',
  authAction: { actionId: 'login', tokenPath: 'access_token' },
  environments: {
    development: {
      address: '',
      metadata: [
        { key: 'authorization', value: 'Bearer {{ authToken }}' },
        { key: 'x-tenant', value: '{{ vars.tenant }}' },
      ],
    },
  },
};

describe('a gRPC data source through the API', () => {
  it('is described among the connector kinds, its method field chosen from the catalog', async () => {
    const kinds = await api.get('/api/v1/connector-kinds');
    const grpc = kinds.body.data.find((k: { kind: string }) => k.kind === 'grpc');
    expect(grpc).toMatchObject({ actionKind: 'grpc', authAction: true, secretFields: [] });
    expect(grpc.actionFields.find((f: { name: string }) => f.name === 'method')).toMatchObject({
      catalog: true,
      label: { en: 'Method', ja: 'メソッド' },
    });
  });

  it('is saved with defaults, tested, and lists its unary methods', async () => {
    const saved = await api.put(`${base}/data-sources/orders`, {
      ...orders,
      environments: { development: { ...orders.environments.development, address: grpcServer.address } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.environments.development).toMatchObject({ tls: false, serviceSource: 'reflection' });

    const tested = await api.post(`${base}/data-sources/orders/environments/development/test-connection`, {});
    expect(tested.body, JSON.stringify(tested.body)).toMatchObject({ ok: true });

    const catalog = await api.get(`${base}/data-sources/orders/environments/development/catalog`);
    expect(catalog.status).toBe(200);
    expect(catalog.body.entries.map((e: { id: string }) => e.id)).toEqual([
      'shop.v1.OrderService/GetOrder',
      'shop.v1.OrderService/ListOrders',
    ]);
    expect(catalog.body.entries[0].fill).toMatchObject({
      service: 'shop.v1.OrderService',
      method: 'GetOrder',
    });
  });

  it('refuses a bad address and a catalog where the kind has none or the environment is missing', async () => {
    const bad = await api.put(`${base}/data-sources/bad-grpc`, {
      ...orders,
      id: 'bad-grpc',
      environments: { development: { address: 'grpc://x:1' } },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toContain('host:port');
    const none = await api.get(`${base}/data-sources/login-api/environments/development/catalog`);
    expect(none.status).toBe(400);
    expect(none.body.detail).toBe('A http data source has no catalog to choose from.');
    const missing = await api.get(`${base}/data-sources/orders/environments/production/catalog`);
    expect(missing.status).toBe(404);
  });

  it('checks the request at save time: JSON with placeholders, known references', async () => {
    const action = (request: string) => ({
      id: 'get-order-bad',
      name: 'Get order',
      kind: 'grpc',
      dataSourceId: 'orders',
      service: 'shop.v1.OrderService',
      method: 'GetOrder',
      request,
      parameters: [{ name: 'id', kind: 'text', label: 'Id', required: true }],
    });
    const broken = await api.put(`${base}/actions/get-order-bad`, action('{"id": {{ id }'));
    expect(broken.status).toBe(422);
    expect(broken.body.errors[0].pointer).toBe('#/request');
    const notObject = await api.put(`${base}/actions/get-order-bad`, action('["{{ id }}"]'));
    expect(notObject.status).toBe(422);
    expect(JSON.stringify(notObject.body.errors)).toContain('the request must be a JSON object');
    const unknown = await api.put(`${base}/actions/get-order-bad`, action('{"id": "{{ nobody }}"}'));
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body.errors)).toContain('nobody');
    // Decision 0025 (issue 24, item 7): a literal JSON.parse would round is refused at save.
    const rounded = await api.put(
      `${base}/actions/get-order-bad`,
      action('{"id": "{{ id }}", "delta": 9007199254740993}'),
    );
    expect(rounded.status).toBe(422);
    expect(rounded.body.errors).toEqual([
      { pointer: '#/request', detail: expect.stringContaining('/delta: 9007199254740993 is beyond') },
    ]);
    expect(rounded.body.errors[0].detail).toContain('"9007199254740993"');
  });

  it('runs a method with the metadata and the authentication token, and maps failures', async () => {
    const saved = await api.put(`${base}/actions/get-order`, {
      id: 'get-order',
      name: 'Get order',
      kind: 'grpc',
      dataSourceId: 'orders',
      service: 'shop.v1.OrderService',
      method: 'GetOrder',
      request: '{"id": "{{ id }}", "includeItems": true}',
      parameters: [{ name: 'id', kind: 'text', label: 'Id', required: true }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    seen.length = 0;
    const run = await api.execute('get-order', { id: 'ord-1002' });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results[0].rows[0]).toMatchObject({ id: 'ord-1002', totalCents: '9007199254740993' });
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer tok-9', 'x-tenant': 'acme' });

    const missing = await api.execute('get-order', { id: 'ord-0' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toContain("gRPC status NOT_FOUND (5): order 'ord-0' does not exist");

    await api.put(`${base}/actions/watch`, {
      id: 'watch',
      name: 'Watch',
      kind: 'grpc',
      dataSourceId: 'orders',
      service: 'shop.v1.OrderService',
      method: 'WatchOrders',
    });
    const streaming = await api.execute('watch', {});
    expect(streaming.status).toBe(422);
    expect(streaming.body.detail).toContain('server-streaming method');
  });
});
