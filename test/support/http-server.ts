/**
 * Real HTTP and HTTPS servers on 127.0.0.1 for the HTTP client's tests, which
 * record what they received. HTTPS uses a self-signed certificate made with
 * the openssl CLI (Node cannot create X.509 certificates itself).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** As sent: names in their case, repeated headers apart. */
  rawHeaders: string[];
  body: Buffer;
  /** Which TCP connection carried it (1, 2, … in order of connection). */
  connection: number;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse, raw: IncomingMessage) => void;

export interface TestServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Connections that closed before their response finished (the client hung up). */
  abandoned: number;
  connections: number;
  close(): Promise<void>;
}

export async function startHttpServer(
  handler: Handler,
  options: { tls?: { key: string; cert: string } } = {},
): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const connectionIds = new WeakMap<Socket, number>();
  const state = { abandoned: 0, connections: 0 };
  const listener = (raw: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const request: ReceivedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        rawHeaders: raw.rawHeaders,
        body: Buffer.concat(chunks),
        connection: connectionIds.get(raw.socket) ?? 0,
      };
      requests.push(request);
      response.on('close', () => {
        if (!response.writableFinished) state.abandoned++;
      });
      handler(request, response, raw);
    });
  };
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener);
  server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    connectionIds.set(socket, ++state.connections);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    get abandoned() {
      return state.abandoned;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound once, then released. */
export async function unusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A one-day self-signed certificate for localhost and 127.0.0.1. Fails clearly without openssl. */
export async function selfSignedCertificate(
  subjectAltName = 'DNS:localhost,IP:127.0.0.1',
): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'dogu-tls-'));
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${subjectAltName}`,
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]).catch((error: unknown) => {
      throw new Error(`The HTTPS tests need the openssl CLI to make a certificate: ${String(error)}`);
    });
    return {
      key: await readFile(join(dir, 'key.pem'), 'utf8'),
      cert: await readFile(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
