/**
 * RFC 9457 Problem Details responses. Every error of every non-token endpoint
 * leaves through here, so no stack trace or internal message can leak.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DoguError, type ErrorCode, statusOf, titleOf } from '../domain/errors.ts';

export const problemType = (code: ErrorCode) => `urn:dogu:problem:${code}`;

export function problemResponse(error: DoguError, requestId: string): APIGatewayProxyStructuredResultV2 {
  const body: Record<string, unknown> = {
    type: problemType(error.code),
    code: error.code,
    status: statusOf[error.code],
    title: titleOf[error.code],
    detail: error.message,
    instance: `urn:dogu:request:${requestId}`,
    ...error.extra,
  };
  // Every pointer is written as a URI fragment (`#/arguments/x`), whichever layer made it.
  if (error.errors) {
    body.errors = error.errors.map((e) =>
      e.pointer.startsWith('/') ? { ...e, pointer: `#${e.pointer}` } : e,
    );
  }
  return {
    statusCode: statusOf[error.code],
    headers: { 'content-type': 'application/problem+json', ...error.headers },
    body: JSON.stringify(body),
  };
}

/** Anything that is not a DoguError is a bug: the caller learns only the request id. */
export function toDoguError(error: unknown, requestId: string): DoguError {
  if (error instanceof DoguError) return error;
  return new DoguError(
    'internal_error',
    `An unexpected error occurred. Quote request id ${requestId} when reporting it.`,
  );
}
