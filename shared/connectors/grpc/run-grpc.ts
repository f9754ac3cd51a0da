/**
 * Runs a gRPC action: {{ authToken }} from the authentication action when the metadata uses it,
 * the method looked up in the service descriptions, the request rendered and encoded, one unary
 * call with the run's deadline (cancelled on abort), the reply shaped as a result.
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { DoguError } from '../../domain/errors.ts';
import { renderJsonTemplate } from '../../domain/json-template.ts';
import type { StatementResult } from '../../domain/model.ts';
import { referencesIn } from '../../domain/template.ts';
import { authTokenFor } from '../auth-token.ts';
import type { RuntimeRun } from '../connector.ts';
import { failedResult } from '../sql/run-sql.ts';
import type { Channels } from './channel.ts';
import type { GrpcActionInput, GrpcConnection } from './definition.ts';
import type { Described, Descriptors } from './descriptors.ts';
import { requestMessage } from './grpc-json.ts';
import { shapeGrpcResult } from './grpc-result.ts';
import { renderMetadata } from './metadata.ts';
import { grpcFailure } from './status.ts';

export interface GrpcParts {
  channels: Channels;
  descriptors: Descriptors;
}

export async function runGrpcAction(parts: GrpcParts, run: RuntimeRun): Promise<StatementResult[]> {
  const action = run.action as unknown as GrpcActionInput;
  const connection = run.connection as GrpcConnection;
  try {
    const usesToken = (connection.metadata ?? []).some((m) => referencesIn(m.value).includes('authToken'));
    const authToken = usesToken
      ? await authTokenFor({
          action,
          dataSource: run.dataSource,
          environmentId: run.environmentId,
          runAuthAction: (id) => run.callAction(id),
        })
      : undefined;
    const resolve = (reference: string) => {
      if (reference === 'authToken' && authToken !== undefined) return authToken;
      if (!(reference in run.values))
        throw new DoguError('internal_error', `No value was prepared for {{ ${reference} }}.`);
      return run.values[reference];
    };
    const metadata = renderMetadata(connection.metadata ?? [], resolve);
    const client = await parts.channels.clientFor(run.key, connection, run.network);
    const deadline = new Date(run.deadlineAt);
    const described = await parts.descriptors
      .describe({
        key: run.key,
        connection,
        files: run.files,
        client,
        deadline,
        signal: run.signal,
        metadata,
      })
      .catch((error) => {
        throw grpcFailure(error, `Reading the services of ${connection.address}`);
      });
    const method = unaryMethod(described, action.service, action.method);
    const requestType = method.resolvedRequestType!;
    const replyType = method.resolvedResponseType!;
    const request = requestMessage(
      requestType,
      renderJsonTemplate(action.request || '{}', resolve, { describe: 'The request' }),
    );
    const reply = await unaryCall(client, {
      path: `/${action.service}/${action.method}`,
      request: Buffer.from(requestType.encode(request).finish()),
      replyType,
      metadata,
      deadline,
      signal: run.signal,
    }).catch((error) => {
      if ((error as grpc.ServiceError).code === grpc.status.UNAVAILABLE) {
        parts.channels.drop(run.key);
        parts.descriptors.forget(run.key);
      }
      if (run.signal.aborted && (error as grpc.ServiceError).code === grpc.status.CANCELLED)
        throw new DoguError(
          'execution_timeout',
          `The call ${action.service}/${action.method} was stopped: the action's time limit passed.`,
        );
      throw grpcFailure(error, `The call ${action.service}/${action.method}`);
    });
    return [
      shapeGrpcResult(
        action.name,
        { service: action.service, method: action.method, reply: replyType },
        reply,
      ),
    ];
  } catch (error) {
    if (!(error instanceof DoguError)) throw error;
    return [failedResult(action.name, error)];
  }
}

export function unaryMethod(described: Described, serviceName: string, methodName: string): protobuf.Method {
  const service = described.root.lookup(serviceName);
  if (!(service instanceof protobuf.Service)) {
    const offered = described.services.map((s) => s.name).join(', ') || 'none';
    throw new DoguError(
      'invalid_definition',
      `The gRPC server has no service '${serviceName}' (services: ${offered}).`,
    );
  }
  const method = service.methods[methodName];
  if (!method) {
    const unary = service.methodsArray
      .filter((m) => !m.requestStream && !m.responseStream)
      .map((m) => m.name);
    throw new DoguError(
      'invalid_definition',
      `The service '${serviceName}' has no method '${methodName}' (unary methods: ${unary.join(', ') || 'none'}).`,
    );
  }
  if (method.requestStream || method.responseStream) {
    const kind =
      method.requestStream && method.responseStream
        ? 'bidirectional'
        : method.requestStream
          ? 'client'
          : 'server';
    throw new DoguError(
      'invalid_definition',
      `${serviceName}/${methodName} is a ${kind}-streaming method: Dogu calls unary methods only (to send or read a stream, combine unary calls in a JavaScript action).`,
    );
  }
  method.resolve();
  return method;
}

function unaryCall(
  client: grpc.Client,
  call: {
    path: string;
    request: Buffer;
    replyType: protobuf.Type;
    metadata: grpc.Metadata;
    deadline: Date;
    signal: AbortSignal;
  },
): Promise<protobuf.Message> {
  return new Promise((resolve, reject) => {
    if (call.signal.aborted) {
      reject(Object.assign(new Error('cancelled'), { code: grpc.status.CANCELLED, details: 'cancelled' }));
      return;
    }
    const pending = client.makeUnaryRequest(
      call.path,
      (bytes: Buffer) => bytes,
      (bytes: Buffer) => call.replyType.decode(bytes),
      call.request,
      call.metadata,
      { deadline: call.deadline },
      (error, reply) => {
        call.signal.removeEventListener('abort', cancel);
        if (error) reject(error);
        else resolve(reply!);
      },
    );
    const cancel = () => pending.cancel();
    call.signal.addEventListener('abort', cancel, { once: true });
  });
}
