/**
 * A real node:http server playing the API for one component test file: started before the tests,
 * closed after them, with `fetch` pointed at it meanwhile (the console calls same-origin paths,
 * which Node's fetch cannot resolve on its own).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export function serveApi(handler: RequestListener): void {
  let server: Server;
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    globalThis.fetch = (input, init) => realFetch(new URL(String(input), base), init);
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

/** The request's path without the query. */
export const pathOf = (request: IncomingMessage): string =>
  new URL(request.url ?? '/', 'http://api').pathname;

/** The request's JSON body (`{}` when empty). */
export async function jsonBodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}
