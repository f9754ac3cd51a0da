/**
 * Descriptor sets: an uploaded protoset (a FileDescriptorSet made with `protoc --include_imports`)
 * or the files server reflection sent, made into a protobufjs Root. Also checks an upload before
 * it is kept: empty, corrupt or service-less files are refused with a reason.
 */
import protobuf from 'protobufjs';
import type * as Descriptor from 'protobufjs/ext/descriptor.js';
import descriptorModule from 'protobufjs/ext/descriptor.js';
import { DoguError } from '../../domain/errors.ts';

// Node's own ESM loader exposes this CommonJS module only as its default export (no named ones).
const descriptor = descriptorModule as unknown as typeof Descriptor;

export function nameOf(file: Uint8Array): string {
  return (descriptor.FileDescriptorProto.decode(file) as Descriptor.IFileDescriptorProto).name ?? '';
}

export function dependenciesOf(file: Uint8Array): string[] {
  return (descriptor.FileDescriptorProto.decode(file) as Descriptor.IFileDescriptorProto).dependency ?? [];
}

/** A Root from serialized FileDescriptorProtos (reflection answers). */
export function rootFromFiles(files: readonly Uint8Array[]): protobuf.Root {
  const set: Descriptor.IFileDescriptorSet = {
    file: files.map(
      (bytes) => descriptor.FileDescriptorProto.decode(bytes) as Descriptor.IFileDescriptorProto,
    ),
  };
  return buildRoot(set, 'The descriptors the server sent');
}

/** A Root from a protoset's bytes; a DoguError names what is wrong with the file. */
export function rootFromProtoset(bytes: Uint8Array): protobuf.Root {
  if (bytes.length === 0) throw invalid('The protoset is empty.');
  let set: Descriptor.IFileDescriptorSet;
  try {
    set = descriptor.FileDescriptorSet.decode(bytes) as unknown as Descriptor.IFileDescriptorSet;
  } catch (error) {
    throw invalid(`The file is not a protoset (a FileDescriptorSet): ${(error as Error).message}.`);
  }
  if (set.file.length === 0 || set.file.some((f) => !f.name)) {
    throw invalid(
      'The file is not a protoset: it holds no named descriptor files. Make one with protoc --include_imports --descriptor_set_out=FILE.',
    );
  }
  return buildRoot(set, 'The protoset');
}

export interface ServiceDescription {
  name: string;
  methods: { name: string; unary: boolean }[];
}

export function servicesOf(root: protobuf.Root): ServiceDescription[] {
  const services: ServiceDescription[] = [];
  const visit = (namespace: protobuf.NamespaceBase) => {
    for (const nested of namespace.nestedArray) {
      if (nested instanceof protobuf.Service) {
        services.push({
          name: nested.fullName.replace(/^\./, ''),
          methods: nested.methodsArray.map((m) => ({
            name: m.name,
            unary: !m.requestStream && !m.responseStream,
          })),
        });
      } else if (nested instanceof protobuf.Namespace) visit(nested);
    }
  };
  visit(root);
  return services.filter((s) => !s.name.startsWith('grpc.reflection.'));
}

/** What a protoset version shows: its services and how many unary methods they offer. */
export async function describeProtoset(bytes: Uint8Array): Promise<Record<string, unknown>> {
  const services = servicesOf(rootFromProtoset(bytes));
  if (services.length === 0) throw invalid('The protoset defines no service: a gRPC data source needs one.');
  return {
    services: services.map((s) => s.name),
    methods: services.reduce((n, s) => n + s.methods.filter((m) => m.unary).length, 0),
  };
}

function buildRoot(set: Descriptor.IFileDescriptorSet, what: string): protobuf.Root {
  try {
    const root = protobuf.Root.fromDescriptor(set);
    root.resolveAll();
    return root;
  } catch (error) {
    throw invalid(`${what} could not be read: ${(error as Error).message}.`);
  }
}

const invalid = (message: string) => new DoguError('argument_invalid', message);
