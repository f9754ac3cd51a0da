/**
 * Reflection as grpc-go and C++ servers answer it (unlike Node's @grpc/reflection): real file names,
 * `dependency` lists, and a file's imports sent only when asked by name. Dogu must fetch the
 * import (google/protobuf/timestamp.proto) by name to decode a reply that uses it.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import * as descriptor from 'protobufjs/ext/descriptor.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoProtoPath } from '../../../local/demo-grpc/server.ts';
import { grpcRuntime } from '../../../shared/connectors/grpc/runtime.ts';
import { grpcRun } from './support.ts';

const reflectionTypes = protobuf.Root.fromJSON({
  nested: {
    Request: {
      fields: {
        fileByFilename: { type: 'string', id: 3 },
        fileContainingSymbol: { type: 'string', id: 4 },
        listServices: { type: 'string', id: 7 },
      },
    },
    Response: {
      fields: {
        fileDescriptorResponse: { type: 'Files', id: 4 },
        listServicesResponse: { type: 'Services', id: 6 },
        errorResponse: { type: 'Failure', id: 7 },
      },
    },
    Files: { fields: { fileDescriptorProto: { rule: 'repeated', type: 'bytes', id: 1 } } },
    Services: { fields: { service: { rule: 'repeated', type: 'Service', id: 1 } } },
    Service: { fields: { name: { type: 'string', id: 1 } } },
    Failure: { fields: { errorCode: { type: 'int32', id: 1 }, errorMessage: { type: 'string', id: 2 } } },
  },
});
const Request = reflectionTypes.lookupType('Request');
const Response = reflectionTypes.lookupType('Response');

let server: grpc.Server;
let address: string;
const asked: string[] = [];

beforeAll(async () => {
  // The demo's files as protoc names them, the shop file importing the timestamp file.
  const root = await new protobuf.Root().load(demoProtoPath, { keepCase: true });
  const [shop, timestamp] = root.toDescriptor('proto3').file as descriptor.IFileDescriptorProto[];
  const files: Record<string, descriptor.IFileDescriptorProto> = {
    'shop/v1/shop.proto': {
      ...shop,
      name: 'shop/v1/shop.proto',
      dependency: ['google/protobuf/timestamp.proto'],
    },
    'google/protobuf/timestamp.proto': { ...timestamp, name: 'google/protobuf/timestamp.proto' },
  };
  const bytesOf = (name: string) =>
    descriptor.FileDescriptorProto.encode(descriptor.FileDescriptorProto.fromObject(files[name]!)).finish();

  server = new grpc.Server();
  const shopPackage = grpc.loadPackageDefinition(
    protoLoader.loadSync(demoProtoPath, { keepCase: true, longs: String, enums: String }),
  ) as unknown as { shop: { v1: { OrderService: grpc.ServiceClientConstructor } } };
  server.addService(shopPackage.shop.v1.OrderService.service, {
    GetOrder: (call: grpc.ServerUnaryCall<{ id: string }, unknown>, done: grpc.sendUnaryData<unknown>) =>
      done(null, {
        id: call.request.id,
        total_cents: '-9223372036854775808',
        created_at: { seconds: '86400', nanos: 5 },
      }),
  });
  server.addService(
    {
      ServerReflectionInfo: {
        path: '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo',
        requestStream: true,
        responseStream: true,
        requestSerialize: (m: object) => Buffer.from(Request.encode(Request.fromObject(m)).finish()),
        requestDeserialize: (b: Buffer) => Request.toObject(Request.decode(b)),
        responseSerialize: (m: object) => Buffer.from(Response.encode(Response.fromObject(m)).finish()),
        responseDeserialize: (b: Buffer) => Response.toObject(Response.decode(b)),
      },
    } as grpc.ServiceDefinition,
    {
      ServerReflectionInfo: (call: grpc.ServerDuplexStream<Record<string, string>, object>) => {
        call.on('data', (request: Record<string, string>) => {
          asked.push(JSON.stringify(request));
          if (request.listServices !== undefined) {
            call.write({
              listServicesResponse: {
                service: [{ name: 'shop.v1.OrderService' }, { name: 'grpc.reflection.v1.ServerReflection' }],
              },
            });
          } else if (request.fileContainingSymbol === 'shop.v1.OrderService') {
            call.write({ fileDescriptorResponse: { fileDescriptorProto: [bytesOf('shop/v1/shop.proto')] } });
          } else if (request.fileByFilename && files[request.fileByFilename]) {
            call.write({
              fileDescriptorResponse: { fileDescriptorProto: [bytesOf(request.fileByFilename)] },
            });
          } else {
            call.write({ errorResponse: { errorCode: grpc.status.NOT_FOUND, errorMessage: 'not found' } });
          }
        });
        call.on('end', () => call.end());
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  address = `127.0.0.1:${port}`;
});
afterAll(() => server?.forceShutdown());

describe('reflection from a server that sends imports only by name', () => {
  it('fetches the imported file and decodes a reply that uses it, int64 extremes exact', async () => {
    const runtime = grpcRuntime({ denyPrivateNetworks: false });
    try {
      const [result] = await runtime.run(
        grpcRun(
          { address, tls: false, serviceSource: 'reflection' },
          { method: 'GetOrder', request: '{"id":"x"}' },
        ),
      );
      expect(result!.error).toBeUndefined();
      expect((result as unknown as { value: Record<string, unknown> }).value).toMatchObject({
        id: 'x',
        totalCents: '-9223372036854775808',
        createdAt: '1970-01-02T00:00:00.000000005Z',
      });
      expect(asked).toEqual([
        JSON.stringify({ listServices: '*' }),
        JSON.stringify({ fileContainingSymbol: 'shop.v1.OrderService' }),
        JSON.stringify({ fileByFilename: 'google/protobuf/timestamp.proto' }),
      ]);
    } finally {
      await runtime.close?.();
    }
  });
});
