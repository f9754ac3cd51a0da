/**
 * gRPC status → DoguError: the message names the status code and carries the server's message
 * (never the metadata sent). DEADLINE_EXCEEDED is the action's time limit: execution_timeout.
 */
import * as grpc from '@grpc/grpc-js';
import { DoguError } from '../../domain/errors.ts';

const hints: Partial<Record<number, string>> = {
  [grpc.status.UNAVAILABLE]:
    ' (is the server running and reachable at this address, with TLS set as it expects?)',
  [grpc.status.UNAUTHENTICATED]: ' (check the metadata and the authentication action)',
};

export function grpcFailure(error: unknown, what: string): DoguError {
  if (error instanceof DoguError) return error;
  const code = (error as Partial<grpc.ServiceError>)?.code;
  if (typeof code !== 'number') {
    return new DoguError(
      'data_source_error',
      `${what} failed: ${(error as Error)?.message ?? 'unknown error'}`,
    );
  }
  const name = grpc.status[code] ?? `code ${code}`;
  const details = (error as grpc.ServiceError).details || 'no message';
  const hint = /certificate/i.test(details)
    ? " (the server's TLS certificate is not trusted: add the CA certificate (PEM) that signed it to the data source)"
    : (hints[code] ?? '');
  const message = `${what} failed with gRPC status ${name} (${code}): ${details}${hint}`;
  return new DoguError(
    code === grpc.status.DEADLINE_EXCEEDED ? 'execution_timeout' : 'data_source_error',
    message,
    { extra: { grpcStatus: name } },
  );
}
