/**
 * Domain errors carry a stable machine-readable code and the HTTP status the
 * API layer maps them to. Messages are written for the person who called us:
 * what was wrong and where, never internals or secrets.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'state_conflict'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'header_too_large'
  | 'argument_invalid'
  | 'invalid_definition'
  | 'data_source_error'
  | 'script_error'
  | 'execution_timeout'
  | 'internal_error'
  | 'service_unavailable'
  | 'too_many_requests';

export const statusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  state_conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  header_too_large: 431,
  argument_invalid: 422,
  invalid_definition: 422,
  data_source_error: 422,
  script_error: 422,
  execution_timeout: 504,
  internal_error: 500,
  service_unavailable: 503,
  too_many_requests: 429,
};

export const titleOf: Record<ErrorCode, string> = {
  bad_request: 'Bad request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  state_conflict: 'State conflict',
  request_timeout: 'Request timeout',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  header_too_large: 'Request header fields too large',
  argument_invalid: 'Invalid arguments',
  invalid_definition: 'Invalid definition',
  data_source_error: 'Data source error',
  script_error: 'Script error',
  execution_timeout: 'Execution timed out',
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
  too_many_requests: 'Too many requests',
};

/** One offending input, addressed by a JSON Pointer into the request body. */
export interface FieldError {
  pointer: string;
  detail: string;
  /** The same in Japanese, where the check writes one (views). */
  ja?: string;
}

export class DoguError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly extra: Record<string, unknown> | undefined;
  /** Response headers the error implies, such as `Allow` on a 405. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      errors?: FieldError[];
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DoguError';
    this.code = code;
    this.errors = options.errors;
    this.extra = options.extra;
    this.headers = options.headers;
  }

  get status(): number {
    return statusOf[this.code];
  }
}

export const notFound = (what: string, id: string) =>
  new DoguError('not_found', `${what} '${id}' was not found.`);
export const forbidden = (message: string) => new DoguError('forbidden', message);
export const unauthorized = (message: string) => new DoguError('unauthorized', message);
export const badRequest = (message: string, errors?: FieldError[]) =>
  new DoguError('bad_request', message, errors ? { errors } : {});
export const argumentInvalid = (errors: FieldError[]) =>
  new DoguError(
    'argument_invalid',
    errors.length === 1 ? errors[0]!.detail : `${errors.length} arguments are invalid.`,
    { errors },
  );
