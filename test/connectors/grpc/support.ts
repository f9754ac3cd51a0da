/** Helpers for the gRPC connector tests: runs, protosets and certificates made in code. */
import protobuf from 'protobufjs';
import * as descriptor from 'protobufjs/ext/descriptor.js';
import { demoProtoPath } from '../../../local/demo-grpc/server.ts';
import type { Action, DataSource, StatementResult } from '../../../shared/domain/model.ts';
import type { DataSourceFiles, EngineRun } from '../../../shared/domain/ports.ts';

/** The demo service's descriptors as a protoset (FileDescriptorSet bytes), made without protoc. */
export async function demoProtoset(): Promise<Uint8Array> {
  const root = await protobuf.load(demoProtoPath);
  return descriptor.FileDescriptorSet.encode(root.toDescriptor('proto3')).finish();
}

export function filesOf(
  versions: Record<string, Uint8Array>,
): DataSourceFiles & { reads: (string | undefined)[] } {
  const reads: (string | undefined)[] = [];
  const ids = Object.keys(versions);
  return {
    reads,
    async read(versionId) {
      reads.push(versionId);
      const id = versionId ?? ids.at(-1);
      if (!id || !versions[id]) return undefined;
      return { versionId: id, bytes: versions[id] };
    },
  };
}

let counter = 0;

export function grpcRun(
  connection: Record<string, unknown>,
  action: { service?: string; method: string; request?: string },
  extra: Partial<EngineRun> & { authAction?: DataSource['authAction'] } = {},
): EngineRun {
  counter += 1;
  const { authAction, ...rest } = extra;
  const dataSource = {
    id: `grpc-${counter}`,
    name: 'Shop',
    kind: 'grpc',
    projectId: 'p',
    createdAt: '',
    updatedAt: '',
    environments: { dev: connection },
    ...(authAction ? { authAction } : {}),
  } as DataSource;
  return {
    action: {
      id: 'call',
      name: 'Call',
      kind: 'grpc',
      parameters: [],
      service: action.service ?? 'shop.v1.OrderService',
      method: action.method,
      request: action.request ?? '{}',
    } as unknown as Action,
    dataSource,
    environmentId: 'dev',
    connection,
    key: `p/grpc-${counter}/dev`,
    values: {},
    signal: AbortSignal.timeout(10_000),
    deadlineAt: Date.now() + 10_000,
    callAction: async (): Promise<StatementResult[]> => [],
    ...rest,
  };
}
