/**
 * The gRPC kind against real grpc-js servers on 127.0.0.1 (the demo service with @grpc/reflection):
 * reflection v1 and v1alpha, protosets, TLS with a private CA, metadata with the authentication
 * action, deadlines, and every way a call can go wrong, each with a clear message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoGrpcServer, startDemoGrpcServer } from '../../../local/demo-grpc/server.ts';
import type { ConnectorRuntime } from '../../../shared/connectors/connector.ts';
import { describeFile } from '../../../shared/connectors/grpc/files.ts';
import { grpc } from '../../../shared/connectors/grpc/index.ts';
import { grpcRuntime } from '../../../shared/connectors/grpc/runtime.ts';
import type { StatementResult } from '../../../shared/domain/model.ts';
import { selfSignedCertificate, unusedPort } from '../../support/http-server.ts';
import { demoProtoset, filesOf, grpcRun } from './support.ts';

let both: DemoGrpcServer;
let alphaOnly: DemoGrpcServer;
let plain: DemoGrpcServer;
let tls: DemoGrpcServer;
let slow: DemoGrpcServer;
let certificate: { cert: string; key: string };
const seen: Record<string, string>[] = [];
let runtime: ConnectorRuntime;

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  [both, alphaOnly, plain, tls, slow] = await Promise.all([
    startDemoGrpcServer({ onMetadata: (_m, metadata) => seen.push(metadata) }),
    startDemoGrpcServer({ reflection: 'v1alpha' }),
    startDemoGrpcServer({ reflection: 'none' }),
    startDemoGrpcServer({ tls: certificate }),
    startDemoGrpcServer({ delayMs: 1500 }),
  ]);
  runtime = grpcRuntime({ denyPrivateNetworks: false });
});
afterAll(async () => {
  await runtime?.close?.();
  await Promise.all([both, alphaOnly, plain, tls, slow].map((s) => s?.close()));
});

const reflection = (server: DemoGrpcServer, extra: Record<string, unknown> = {}) => ({
  address: server.address,
  tls: false,
  serviceSource: 'reflection',
  ...extra,
});

function succeeded(results: StatementResult[]) {
  expect(results).toHaveLength(1);
  expect(results[0]!.error, JSON.stringify(results[0]!.error)).toBeUndefined();
  return results[0] as StatementResult & { value: Record<string, unknown> };
}

function failed(results: StatementResult[]) {
  expect(results[0]!.status).toBe('failed');
  return results[0]!.error!;
}

describe('calls through server reflection', () => {
  it('calls a unary method over v1: proto3 JSON both ways, 64-bit integers exact, one row per reply', async () => {
    const result = succeeded(
      await runtime.run(
        grpcRun(reflection(both), { method: 'GetOrder', request: '{"id":"ord-1002","include_items":true}' }),
      ),
    );
    expect(result.value).toMatchObject({
      id: 'ord-1002',
      totalCents: '9007199254740993',
      status: 'SHIPPED',
      createdAt: '2026-01-01T00:00:00Z',
      items: [
        { sku: 'kettle', quantity: '1' },
        { sku: 'cup', quantity: '4' },
      ],
      labels: { channel: 'web' },
    });
    expect(result.rowCount).toBe(1);
    expect(result.columns.map((c) => c.name)).toEqual([
      'id',
      'customer',
      'totalCents',
      'status',
      'items',
      'createdAt',
      'labels',
    ]);
    expect(result.columns.find((c) => c.name === 'items')?.type).toBe('json');
  });

  it('shows a reply whose only field is a repeated message as one row per item', async () => {
    const result = succeeded(
      await runtime.run(
        grpcRun(reflection(both), { method: 'ListOrders', request: '{"customer":"ann@example.com"}' }),
      ),
    );
    expect(result.rows.map((r) => r.id)).toEqual(['ord-1001', 'ord-1003']);
    expect(result.rows[0]).toMatchObject({ totalCents: '12800', status: 'OPEN' });
  });

  it('falls back to v1alpha when the server has no v1 reflection', async () => {
    const result = succeeded(
      await runtime.run(grpcRun(reflection(alphaOnly), { method: 'GetOrder', request: '{"id":"ord-1001"}' })),
    );
    expect(result.value.id).toBe('ord-1001');
    expect(result.value.items).toEqual([]);
  });

  it('expands {{ parameters }} into the request as JSON values', async () => {
    const run = grpcRun(reflection(both), {
      method: 'ListOrders',
      request: '{"customer":"{{ who }}","pageSize":{{ size }}}',
    });
    run.values = { who: 'ann@example.com', size: 1 };
    expect(succeeded(await runtime.run(run)).rows.map((r) => r.id)).toEqual(['ord-1001']);
  });

  it('takes the whole request from one json parameter, which must be an object', async () => {
    const run = grpcRun(reflection(both), { method: 'GetOrder', request: '{{ order }}' });
    run.values = { order: { id: 'ord-1003' } };
    expect(succeeded(await runtime.run(run)).value.id).toBe('ord-1003');
    run.values = { order: ['ord-1003'] };
    const error = failed(await runtime.run(run));
    expect(error.code).toBe('argument_invalid');
    expect(error.message).toContain('the request must be a JSON object');
  });

  it('says so when the server offers no reflection, in a call and in a connection test', async () => {
    const error = failed(await runtime.run(grpcRun(reflection(plain), { method: 'GetOrder' })));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toContain('does not offer server reflection (v1 or v1alpha)');
    await expect(
      runtime.testConnection({ key: 'k', connection: reflection(plain), signal: AbortSignal.timeout(5000) }),
    ).rejects.toThrow('does not offer server reflection');
  });
});

describe('calls described by a protoset', () => {
  it('calls a server without reflection using the latest version, or a pinned one', async () => {
    const protoset = await demoProtoset();
    const files = filesOf({ v1: new Uint8Array([1, 2, 3]), v2: protoset });
    const connection = { address: plain.address, tls: false, serviceSource: 'protoset' };
    const latest = grpcRun(connection, { method: 'GetOrder', request: '{"id":"ord-1003"}' }, { files });
    expect(succeeded(await runtime.run(latest)).value.totalCents).toBe('3400');
    expect(files.reads).toEqual([undefined]);

    const pinned = grpcRun({ ...connection, protosetVersionId: 'v1' }, { method: 'GetOrder' }, { files });
    const error = failed(await runtime.run(pinned));
    expect(error.code).toBe('argument_invalid');
    expect(error.message).toContain('not a protoset');
    expect(files.reads).toEqual([undefined, 'v1']);
  });

  it('says what to do when no protoset was uploaded', async () => {
    const connection = { address: plain.address, tls: false, serviceSource: 'protoset' };
    const error = failed(
      await runtime.run(grpcRun(connection, { method: 'GetOrder' }, { files: filesOf({}) })),
    );
    expect(error.message).toContain('No protoset has been uploaded for this data source and environment');
  });

  it('checks an upload before it is kept: services and unary methods, or why it is refused', async () => {
    expect(await describeFile(await demoProtoset())).toEqual({
      services: ['shop.v1.OrderService'],
      methods: 2,
    });
    await expect(describeFile(new Uint8Array())).rejects.toMatchObject({
      code: 'argument_invalid',
      message: 'The protoset is empty.',
    });
    await expect(describeFile(new TextEncoder().encode('not a protoset at all'))).rejects.toMatchObject({
      code: 'argument_invalid',
      message: expect.stringContaining('not a protoset'),
    });
    const protobuf = (await import('protobufjs')).default;
    const descriptor = await import('protobufjs/ext/descriptor.js');
    const root = protobuf.parse('syntax = "proto3"; package x; message Only { string a = 1; }').root;
    const serviceless = descriptor.FileDescriptorSet.encode(root.toDescriptor('proto3')).finish();
    await expect(describeFile(serviceless)).rejects.toThrow('The protoset defines no service');
    expect(grpc.files!.maxBytes).toBe(8 * 1024 * 1024);
  });
});

describe('TLS', () => {
  it('verifies the server against the CA certificate given, and names the TLS failure without it', async () => {
    const connection = reflection(tls, { tls: true, caCertificate: certificate.cert });
    const result = succeeded(
      await runtime.run(grpcRun(connection, { method: 'GetOrder', request: '{"id":"ord-1001"}' })),
    );
    expect(result.value.customer).toBe('ann@example.com');

    const untrusted = failed(
      await runtime.run(grpcRun(reflection(tls, { tls: true }), { method: 'GetOrder' })),
    );
    expect(untrusted.message).toMatch(/UNAVAILABLE/);
    expect(untrusted.message).toContain('TLS certificate is not trusted: add the CA certificate');

    const plaintextToTls = failed(await runtime.run(grpcRun(reflection(tls), { method: 'GetOrder' })));
    expect(plaintextToTls.message).toMatch(/UNAVAILABLE/);
  });
});

describe('metadata and the authentication action', () => {
  it('sends the common metadata with {{ vars.x }}, {{ secrets.x }} and the authentication token', async () => {
    let logins = 0;
    const connection = reflection(both, {
      metadata: [
        { key: 'authorization', value: 'Bearer {{ authToken }}' },
        { key: 'x-tenant', value: '{{ vars.tenant }}' },
        { key: 'x-api-key', value: '{{ secrets.apiKey }}' },
      ],
    });
    const run = grpcRun(
      connection,
      { method: 'GetOrder', request: '{"id":"ord-1001"}' },
      {
        authAction: { actionId: 'login', tokenPath: 'token' },
        values: { 'vars.tenant': 'acme', 'secrets.apiKey': 'k-123' },
        callAction: async (actionId) => {
          expect(actionId).toBe('login');
          logins += 1;
          return [
            {
              title: 'login',
              status: 'succeeded',
              columns: [],
              rows: [],
              rowCount: 0,
              messages: [],
              value: { token: `t-${logins}` },
            } as StatementResult,
          ];
        },
      },
    );
    seen.length = 0;
    succeeded(await runtime.run(run));
    succeeded(await runtime.run(run));
    const calls = seen.filter((m) => m['x-tenant']);
    expect(calls.length).toBe(2);
    for (const metadata of calls) {
      expect(metadata).toMatchObject({
        authorization: 'Bearer t-1',
        'x-tenant': 'acme',
        'x-api-key': 'k-123',
      });
    }
    expect(logins).toBe(1); // cached for the authentication action's cacheSeconds
  });

  it('refuses a metadata key gRPC reserves, naming the key and not the value', async () => {
    const connection = reflection(both, { metadata: [{ key: 'grpc-timeout', value: 'secret-value' }] });
    const error = failed(await runtime.run(grpcRun(connection, { method: 'GetOrder' })));
    expect(error.message).toContain("'grpc-timeout'");
    expect(error.message).not.toContain('secret-value');
  });
});

describe('errors', () => {
  it('stops at the deadline with execution_timeout naming DEADLINE_EXCEEDED', async () => {
    const run = grpcRun(reflection(slow), { method: 'GetOrder', request: '{"id":"ord-1001"}' });
    // Descriptions first (reflection is not slow), then a call that outlives its deadline.
    run.deadlineAt = Date.now() + 700;
    // No clock: the server answers after 1.5 s, so a call the deadline did not stop succeeds instead.
    const error = failed(await runtime.run(run));
    expect(error.code).toBe('execution_timeout');
    expect(error.message).toContain('DEADLINE_EXCEEDED');
  });

  it('cancels the call when the run is aborted', async () => {
    const controller = new AbortController();
    const run = grpcRun(
      reflection(slow),
      { method: 'GetOrder', request: '{"id":"ord-1001"}' },
      {
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(), 400);
    // No clock: a call the abort did not cancel succeeds when the server answers after 1.5 s.
    const error = failed(await runtime.run(run));
    expect(error.code).toBe('execution_timeout');
    expect(error.message).toContain('was stopped');
  });

  it('maps a server status to an error naming the code and the server message', async () => {
    const error = failed(
      await runtime.run(grpcRun(reflection(both), { method: 'GetOrder', request: '{"id":"nope"}' })),
    );
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe(
      "The call shop.v1.OrderService/GetOrder failed with gRPC status NOT_FOUND (5): order 'nope' does not exist",
    );
  });

  it('names an unknown method and service, and refuses streaming methods', async () => {
    const unknown = failed(await runtime.run(grpcRun(reflection(both), { method: 'DeleteOrder' })));
    expect(unknown.message).toBe(
      "The service 'shop.v1.OrderService' has no method 'DeleteOrder' (unary methods: GetOrder, ListOrders).",
    );
    const noService = failed(
      await runtime.run(grpcRun(reflection(both), { service: 'shop.v2.OrderService', method: 'GetOrder' })),
    );
    expect(noService.message).toContain(
      "has no service 'shop.v2.OrderService' (services: shop.v1.OrderService)",
    );
    const streaming = failed(await runtime.run(grpcRun(reflection(both), { method: 'WatchOrders' })));
    expect(streaming.code).toBe('invalid_definition');
    expect(streaming.message).toContain('shop.v1.OrderService/WatchOrders is a server-streaming method');
  });

  it('names the field of a request that does not fit the message', async () => {
    const nested = failed(
      await runtime.run(
        grpcRun(reflection(both), {
          method: 'ListOrders',
          request: '{"customer":"a","pageSize":1,"colour":"red"}',
        }),
      ),
    );
    expect(nested.code).toBe('argument_invalid');
    expect(nested.message).toContain(
      "The request does not fit shop.v1.ListOrdersRequest at 'colour': unknown field",
    );
    const wrongType = failed(
      await runtime.run(grpcRun(reflection(both), { method: 'ListOrders', request: '{"pageSize":"many"}' })),
    );
    expect(wrongType.message).toContain('ListOrdersRequest.page_size: invalid integer');
    expect(wrongType.message).not.toContain('many'); // values may come from secrets
  });

  it('reports an unreachable server and refuses metadata addresses', async () => {
    const port = await unusedPort();
    const down = { address: `127.0.0.1:${port}`, tls: false, serviceSource: 'reflection' };
    await expect(
      runtime.testConnection({ key: 'k', connection: down, signal: AbortSignal.timeout(5000) }),
    ).rejects.toThrow(/UNAVAILABLE/);
    const metadataHost = { address: '169.254.169.254:443', tls: false, serviceSource: 'reflection' };
    const refused = failed(await runtime.run(grpcRun(metadataHost, { method: 'GetOrder' })));
    expect(refused.message).toContain('link-local or cloud metadata address');
    const strict = grpcRuntime({ denyPrivateNetworks: true });
    const privateRefused = failed(await strict.run(grpcRun(reflection(both), { method: 'GetOrder' })));
    expect(privateRefused.message).toContain('private networks are denied here');
  });
});

describe('catalog and connection test', () => {
  it('lists unary methods only, each with a request template', async () => {
    const catalog = await runtime.catalog!({
      key: 'k',
      connection: reflection(both),
      signal: AbortSignal.timeout(5000),
    });
    expect(catalog.entries.map((e) => e.id)).toEqual([
      'shop.v1.OrderService/GetOrder',
      'shop.v1.OrderService/ListOrders',
    ]);
    const get = catalog.entries[0]!;
    expect(get.fill.service).toBe('shop.v1.OrderService');
    expect(get.fill.method).toBe('GetOrder');
    expect(JSON.parse(get.fill.request as string)).toEqual({ id: '', includeItems: false });
    const protoset = await runtime.catalog!({
      key: 'k',
      connection: { address: plain.address, tls: false, serviceSource: 'protoset' },
      signal: AbortSignal.timeout(5000),
      files: filesOf({ only: await demoProtoset() }),
    });
    expect(protoset.entries.map((e) => e.id)).toContain('shop.v1.OrderService/ListOrders');
  });

  it('passes on a reachable server, with reflection or a protoset', async () => {
    await runtime.testConnection({
      key: 'k',
      connection: reflection(alphaOnly),
      signal: AbortSignal.timeout(5000),
    });
    await runtime.testConnection({
      key: 'k',
      connection: { address: plain.address, tls: false, serviceSource: 'protoset' },
      signal: AbortSignal.timeout(5000),
      files: filesOf({ only: await demoProtoset() }),
    });
  });
});
