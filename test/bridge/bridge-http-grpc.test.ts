/**
 * HTTP and gRPC actions through a real bridge process, on names only the bridge resolves: the
 * HTTP kind's client tunnels its connections, the gRPC kind's channel dials the network's
 * forwarder and runs TLS to the server inside the tunnel (the bridge relays bytes it cannot read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoGrpcServer, startDemoGrpcServer } from '../../local/demo-grpc/server.ts';
import { createActionEngines } from '../../shared/connectors/engines.ts';
import { loadConnectorRuntime } from '../../shared/connectors/runtimes.ts';
import type { Action, DataSource, StatementResult } from '../../shared/domain/model.ts';
import type { ActionEngines, BridgeRoute, EngineRun } from '../../shared/domain/ports.ts';
import {
  type BridgeProcess,
  routeTo,
  startBridgeProcess,
  startTestIdp,
  type TestIdp,
} from '../support/bridge.ts';
import { selfSignedCertificate, startHttpServer, type TestServer } from '../support/http-server.ts';

let idp: TestIdp;
let bridge: BridgeProcess;
let api: TestServer;
let grpcServer: DemoGrpcServer;
let grpcCa: string;
let engines: ActionEngines;
let route: BridgeRoute;
let counter = 0;

beforeAll(async () => {
  const tls = await selfSignedCertificate('DNS:grpc.bridge.internal');
  grpcCa = tls.cert;
  [idp, api, grpcServer] = await Promise.all([
    startTestIdp(),
    startHttpServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path: request.url, via: 'bridge' }));
    }),
    startDemoGrpcServer({ host: '127.0.0.1', port: 0, tls }),
  ]);
  bridge = await startBridgeProcess({
    id: 'office',
    issuer: idp.issuer,
    allow: [`api.bridge.internal:${api.port}`, `grpc.bridge.internal:${grpcServer.port}`],
    hosts: { 'api.bridge.internal': '127.0.0.1', 'grpc.bridge.internal': '127.0.0.1' },
  });
  engines = createActionEngines({ poolSize: 2 }, { loadRuntime: loadConnectorRuntime });
  route = routeTo({ id: 'office', url: bridge.url, certificates: [bridge.certificate] }, idp.idp);
});

afterAll(async () => {
  await engines?.close();
  await bridge?.stop();
  await Promise.all([idp?.close(), api?.close(), grpcServer?.close()]);
});

function runOf(
  kind: string,
  connection: Record<string, unknown>,
  action: Record<string, unknown>,
): EngineRun {
  counter += 1;
  const dataSource = {
    id: `ds-${counter}`,
    name: 'Private',
    kind,
    projectId: 'p',
    createdAt: '',
    updatedAt: '',
    environments: { dev: connection },
  } as DataSource;
  return {
    action: { id: 'a', name: 'Call', parameters: [], ...action } as unknown as Action,
    dataSource,
    environmentId: 'dev',
    connection,
    key: `p/ds-${counter}/dev`,
    values: {},
    signal: AbortSignal.timeout(10_000),
    deadlineAt: Date.now() + 10_000,
    callAction: async (): Promise<StatementResult[]> => [],
    bridge: route,
  };
}

describe('HTTP and gRPC through a bridge', () => {
  it('calls an HTTP API only the bridge can reach', async () => {
    const run = runOf(
      'http',
      { url: `http://api.bridge.internal:${api.port}/v1`, via: 'office' },
      { kind: 'http', method: 'GET', path: '/orders', headers: [], query: [], body: { type: 'none' } },
    );
    const [result] = await engines.run(run);
    expect(result).toMatchObject({ status: 'succeeded' });
    expect(JSON.stringify(result)).toContain('"via":"bridge"');
    expect(api.requests.at(-1)?.url).toBe('/v1/orders');
    // Without the bridge the name is unknown here.
    const { bridge: _none, ...direct } = runOf(
      'http',
      { url: `http://api.bridge.internal:${api.port}/v1`, via: 'office' },
      { kind: 'http', method: 'GET', path: '/orders', headers: [], query: [], body: { type: 'none' } },
    );
    const [failed] = await engines.run(direct);
    expect(failed?.status).toBe('failed');
  });

  it('calls a gRPC method over TLS to the server, inside the tunnel', async () => {
    const connection = {
      address: `grpc.bridge.internal:${grpcServer.port}`,
      tls: true,
      caCertificate: grpcCa,
      serviceSource: 'reflection',
      via: 'office',
    };
    const [result] = await engines.run(
      runOf('grpc', connection, {
        kind: 'grpc',
        service: 'shop.v1.OrderService',
        method: 'GetOrder',
        request: '{"id":"ord-1001"}',
      }),
    );
    expect(result).toMatchObject({ status: 'succeeded' });
    expect(JSON.stringify(result)).toContain('ann@example.com');
    await expect(
      engines.testConnection('grpc', {
        key: 'p/grpc-check/dev',
        connection,
        signal: AbortSignal.timeout(10_000),
        bridge: route,
      }),
    ).resolves.toBeUndefined();
  });

  it('names the hop when the target is not on the allow-list (gRPC)', async () => {
    const connection = {
      address: 'grpc.bridge.internal:1',
      tls: false,
      serviceSource: 'reflection',
      via: 'office',
    };
    await expect(
      engines.testConnection('grpc', {
        key: 'p/grpc-bad/dev',
        connection,
        signal: AbortSignal.timeout(10_000),
        bridge: route,
      }),
    ).rejects.toThrow(
      /bridge 'office' refused the tunnel to grpc\.bridge\.internal:1: grpc\.bridge\.internal:1 is not on this bridge's allow-list/,
    );
  });
});
