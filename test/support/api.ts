/** A small client for the API of a test runtime. */
import type { LocalRuntime } from '../../local/runtime.ts';

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely and assert on them
  body: any;
}

export function apiClient(runtime: LocalRuntime, token: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${runtime.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
    } as ApiResponse;
  };
  return {
    get: (path: string) => call('GET', path),
    put: (path: string, body: unknown, headers?: Record<string, string>) => call('PUT', path, body, headers),
    post: (path: string, body: unknown) => call('POST', path, body),
    delete: (path: string) => call('DELETE', path),
    request: (method: string, path: string, body?: unknown) => call(method, path, body),
    execute: (
      actionId: string,
      args: Record<string, unknown>,
      environmentId = 'development',
      projectId = 'demo',
    ) =>
      call(
        'POST',
        `/public/v1/projects/${projectId}/environments/${environmentId}/actions/${actionId}/executions`,
        {
          arguments: args,
        },
      ),
  };
}
