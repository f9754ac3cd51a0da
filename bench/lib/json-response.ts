import type http from 'node:http';

/** Answers with `value` as JSON and a content-length, as the benches' small servers all do. */
export function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}
