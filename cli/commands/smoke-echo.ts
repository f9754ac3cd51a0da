/**
 * The HTTP echo `dogu smoke` serves itself: it answers every request with what it received, so the
 * smoke's temporary HTTP action can prove a request left the runtime and its answer came back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SmokeEcho {
  url: string;
  close(): Promise<void>;
}

export async function startSmokeEcho(): Promise<SmokeEcho> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: echoed as text
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, path: request.url, body }));
    });
  });
  // Loopback only: the embedded runtime on this machine reaches it; nothing else should.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A runtime at a loopback address runs on this machine and can reach the smoke's own echo. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
