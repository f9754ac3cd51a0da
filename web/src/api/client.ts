/**
 * The console's only way to the API: same-origin requests with the session cookie, the CSRF
 * header on state-changing calls (docs/authentication.md), and Problem Details turned into
 * `ApiError`, so every screen shows the server's own message and field pointers.
 */

export interface FieldError {
  /** JSON Pointer into the request body, e.g. `#/arguments/limit` or `/rows/3/amount`. */
  pointer: string;
  detail: string;
  /** The same in Japanese, where the server wrote it (views' save checks do). */
  ja?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  /** The whole Problem Details body, for members some screens need (e.g. `execution`). */
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    const title = typeof body.title === 'string' ? body.title : `HTTP ${status}`;
    const detail = typeof body.detail === 'string' ? body.detail : '';
    super(detail || title);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : 'http_error';
    this.title = title;
    this.detail = detail;
    this.errors = Array.isArray(body.errors)
      ? body.errors.filter(
          (e): e is FieldError =>
            typeof e === 'object' &&
            e !== null &&
            typeof e.pointer === 'string' &&
            typeof e.detail === 'string',
        )
      : [];
    this.body = body;
  }
}

/** Answers that are not JSON bodies: a download (CSV, JSON file) or a 202 with headers. */
export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

let csrfToken: string | undefined;
let onUnauthorized: (() => void) | undefined;

/** Set from `GET /auth/session`; sent as `X-CSRF-Token` on every state-changing request. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called on any 401 so the app can show the sign-in screen again (an expired session). */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

const safeMethods = new Set(['GET', 'HEAD']);

async function send(
  method: string,
  path: string,
  init: { body?: BodyInit; contentType?: string; accept?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: init.accept ?? 'application/json' };
  if (init.contentType) headers['content-type'] = init.contentType;
  if (!safeMethods.has(method) && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  if (!response.ok) throw await errorOf(response);
  return response;
}

async function errorOf(response: Response): Promise<ApiError> {
  if (response.status === 401) onUnauthorized?.();
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    body = { title: response.statusText || `HTTP ${response.status}`, detail: text.slice(0, 300) };
  }
  return new ApiError(response.status, body);
}

async function json<T>(
  method: string,
  path: string,
  body?: unknown,
  options: { accept?: string } = {},
): Promise<ApiResponse<T>> {
  const response = await send(method, path, {
    ...(body !== undefined ? { body: JSON.stringify(body), contentType: 'application/json' } : {}),
    ...(options.accept ? { accept: options.accept } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

export interface DownloadedFile {
  blob: Blob;
  /** From `Content-Disposition`, else a name made from the path. */
  fileName: string;
  text(): Promise<string>;
}

function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

export const api = {
  get: async <T>(path: string): Promise<T> => (await json<T>('GET', path)).body,
  post: async <T>(path: string, body?: unknown): Promise<T> => (await json<T>('POST', path, body ?? {})).body,
  put: async <T>(path: string, body?: unknown): Promise<T> => (await json<T>('PUT', path, body ?? {})).body,
  patch: async <T>(path: string, body?: unknown): Promise<T> =>
    (await json<T>('PATCH', path, body ?? {})).body,
  del: async (path: string): Promise<void> => {
    await send('DELETE', path);
  },
  /** Like `post` but with status and headers (a 202 review request, a `Location`). */
  postWithResponse: <T>(path: string, body?: unknown): Promise<ApiResponse<T>> =>
    json<T>('POST', path, body ?? {}),
  /**
   * A file answer (CSV, JSON) for a download. `body` makes it a POST (the execute call answers
   * one statement as CSV with `Accept: text/csv`).
   */
  download: async (
    path: string,
    accept: string,
    body?: unknown,
    fallbackName = 'download',
  ): Promise<DownloadedFile> => {
    const response = await send(body === undefined ? 'GET' : 'POST', path, {
      accept,
      ...(body !== undefined ? { body: JSON.stringify(body), contentType: 'application/json' } : {}),
    });
    const blob = await response.blob();
    return { blob, fileName: fileNameOf(response, fallbackName), text: () => blob.text() };
  },
  /** A raw body (a CSV file for a batch, for example) with its own content type. */
  upload: async <T>(path: string, body: Blob | string, contentType: string): Promise<T> => {
    const response = await send('POST', path, { body, contentType });
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  },
};

/** Saves a downloaded file through a temporary link (the browser's normal download). */
export function saveFile(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Builds `/a/b` paths with each segment encoded, so ids never change the path. */
export function pathOf(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  );
}
