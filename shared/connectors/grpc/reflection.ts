/**
 * A server reflection client (grpc.reflection.v1, falling back to v1alpha when the server does not
 * implement v1) over a grpc-js generic client: the reflection messages are defined here, so no
 * generated code or extra library is needed. Returns the descriptor files of every service the
 * server lists, with the files they import.
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { DoguError } from '../../domain/errors.ts';
import { dependenciesOf, nameOf } from './protoset.ts';
import { grpcFailure } from './status.ts';

// Both versions share one message layout (reflection.proto); only the package differs.
const reflectionRoot = protobuf.Root.fromJSON({
  nested: {
    reflection: {
      nested: {
        Request: {
          fields: {
            host: { type: 'string', id: 1 },
            fileByFilename: { type: 'string', id: 3 },
            fileContainingSymbol: { type: 'string', id: 4 },
            listServices: { type: 'string', id: 7 },
          },
        },
        Response: {
          fields: {
            fileDescriptorResponse: { type: 'FileDescriptorResponse', id: 4 },
            listServicesResponse: { type: 'ListServiceResponse', id: 6 },
            errorResponse: { type: 'ErrorResponse', id: 7 },
          },
        },
        FileDescriptorResponse: {
          fields: { fileDescriptorProto: { rule: 'repeated', type: 'bytes', id: 1 } },
        },
        ListServiceResponse: { fields: { service: { rule: 'repeated', type: 'ServiceResponse', id: 1 } } },
        ServiceResponse: { fields: { name: { type: 'string', id: 1 } } },
        ErrorResponse: {
          fields: { errorCode: { type: 'int32', id: 1 }, errorMessage: { type: 'string', id: 2 } },
        },
      },
    },
  },
});
const RequestType = reflectionRoot.lookupType('reflection.Request');
const ResponseType = reflectionRoot.lookupType('reflection.Response');

interface ReflectionRequest {
  fileByFilename?: string;
  fileContainingSymbol?: string;
  listServices?: string;
}
interface ReflectionResponse {
  fileDescriptorResponse?: { fileDescriptorProto?: Uint8Array[] };
  listServicesResponse?: { service?: { name: string }[] };
  errorResponse?: { errorCode?: number; errorMessage?: string };
}

const versions = ['grpc.reflection.v1.ServerReflection', 'grpc.reflection.v1alpha.ServerReflection'];

export interface ReflectedFiles {
  /** The services the server lists, reflection itself left out. */
  services: string[];
  /** Serialized FileDescriptorProtos, each once. */
  files: Uint8Array[];
}

export async function reflect(
  client: grpc.Client,
  options: { deadline: Date; signal: AbortSignal; metadata: grpc.Metadata },
): Promise<ReflectedFiles> {
  for (const [i, service] of versions.entries()) {
    const stream = new ReflectionStream(client, service, options);
    try {
      return await stream.collect();
    } catch (error) {
      const unimplemented = (error as grpc.ServiceError).code === grpc.status.UNIMPLEMENTED;
      if (!unimplemented) throw error instanceof DoguError ? error : grpcFailure(error, 'Server reflection');
      if (i === versions.length - 1) {
        throw new DoguError(
          'data_source_error',
          'The gRPC server does not offer server reflection (v1 or v1alpha): enable it on the server, or choose protoset as the service information and upload one.',
        );
      }
    } finally {
      stream.end();
    }
  }
  throw new Error('unreachable');
}

/** One bidirectional reflection stream: each request is answered by one response, in order. */
class ReflectionStream {
  private readonly call: grpc.ClientDuplexStream<ReflectionRequest, ReflectionResponse>;
  private readonly waiting: { resolve: (r: ReflectionResponse) => void; reject: (e: unknown) => void }[] = [];
  private failure: unknown;

  constructor(
    client: grpc.Client,
    service: string,
    options: { deadline: Date; signal: AbortSignal; metadata: grpc.Metadata },
  ) {
    this.call = client.makeBidiStreamRequest(
      `/${service}/ServerReflectionInfo`,
      (request: ReflectionRequest) =>
        Buffer.from(RequestType.encode(RequestType.fromObject(request)).finish()),
      (bytes: Buffer) =>
        ResponseType.toObject(ResponseType.decode(bytes), { bytes: Uint8Array }) as ReflectionResponse,
      options.metadata,
      { deadline: options.deadline },
    );
    const cancel = () => this.call.cancel();
    options.signal.addEventListener('abort', cancel, { once: true });
    this.call.on('data', (response: ReflectionResponse) => this.waiting.shift()?.resolve(response));
    this.call.on('error', (error) => {
      options.signal.removeEventListener('abort', cancel);
      this.failure = error;
      for (const w of this.waiting.splice(0)) w.reject(error);
    });
    this.call.on('end', () => {
      options.signal.removeEventListener('abort', cancel);
      // A server that closes the stream early must not leave a question waiting for the deadline.
      const closed = new DoguError(
        'data_source_error',
        'The server closed server reflection without answering.',
      );
      for (const w of this.waiting.splice(0)) w.reject(closed);
    });
  }

  ask(request: ReflectionRequest): Promise<ReflectionResponse> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.call.write(request);
    });
  }

  end(): void {
    this.call.end();
  }

  async collect(): Promise<ReflectedFiles> {
    const listed = await this.ask({ listServices: '*' });
    if (listed.errorResponse) throw reflectionError(listed.errorResponse);
    const services = (listed.listServicesResponse?.service ?? [])
      .map((s) => s.name)
      .filter((name) => !name.startsWith('grpc.reflection.'));
    const files = new Map<string, Uint8Array>();
    const names = new Set<string>();
    const keep = (response: ReflectionResponse) => {
      for (const bytes of response.fileDescriptorResponse?.fileDescriptorProto ?? []) {
        const key = Buffer.from(bytes).toString('base64');
        if (!files.has(key)) files.set(key, bytes);
      }
    };
    let refused: DoguError | undefined;
    for (const service of services) {
      const answer = await this.ask({ fileContainingSymbol: service });
      // One service the server cannot describe must not hide the others.
      if (answer.errorResponse) refused ??= reflectionError(answer.errorResponse, service);
      else keep(answer);
    }
    if (files.size === 0 && refused) throw refused;
    // Imports the server did not send with the files: ask for them by name, once each.
    for (const bytes of files.values()) names.add(nameOf(bytes));
    const pending = [...files.values()].flatMap(dependenciesOf).filter((d) => !names.has(d));
    while (pending.length > 0) {
      const name = pending.shift()!;
      if (names.has(name)) continue;
      names.add(name);
      const answer = await this.ask({ fileByFilename: name });
      if (answer.errorResponse) continue; // a missing import only matters if a type from it is used
      const before = files.size;
      keep(answer);
      for (const bytes of [...files.values()].slice(before)) {
        names.add(nameOf(bytes));
        pending.push(...dependenciesOf(bytes).filter((d) => !names.has(d)));
      }
    }
    return { services, files: [...files.values()] };
  }
}

function reflectionError(error: { errorCode?: number; errorMessage?: string }, symbol?: string): DoguError {
  const code = grpc.status[error.errorCode ?? 2] ?? 'UNKNOWN';
  return new DoguError(
    'data_source_error',
    `Server reflection answered ${code}${symbol ? ` for ${symbol}` : ''}: ${error.errorMessage ?? 'no message'}`,
  );
}
