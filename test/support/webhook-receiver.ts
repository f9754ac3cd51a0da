/** A real HTTP receiver for notification tests: records every request and answers as told. */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedRequest[];
  /** How to answer the n-th request (0-based) of a path; default 200 at once. */
  answer: (path: string, index: number) => { status: number; delayMs?: number };
  /** Resolves once `count` requests reached `path`, or rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received,
    answer: () => ({ status: 200 }),
    async waitFor(path, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter((r) => r.path === path);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) {
          throw new Error(`${path} got ${matching.length} of ${count} requests in ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const index = received.filter((r) => r.path === path).length;
    received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    const { status, delayMs } = receiver.answer(path, index);
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (!response.destroyed) response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
