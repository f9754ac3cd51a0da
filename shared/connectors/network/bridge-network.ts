/**
 * The connectors seam's connection factory for a data source environment that goes through a
 * bridge (`via`): kinds ask it for sockets (pg, mysql2, node:http agents take a stream) or, for
 * clients that only take an address (grpc-js), a Unix socket in a private directory that forwards
 * each connection through its own tunnel. Direct environments get no network and connect as before.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { BridgeRoute } from '../../domain/ports.ts';
import { describeBridgeNetworkError } from './bridge-errors.ts';
import { type BridgeContact, BridgeError, openBridgeTunnel } from './bridge-tunnel.ts';
import { DeferredSocket } from './deferred-socket.ts';

export interface Network {
  bridgeId: string;
  /** The bridge and the data source environment: clients that keep connections are kept per scope. */
  scope: string;
  /** Changes when the bridge's address or pinned certificates change (pools are replaced then). */
  fingerprint: string;
  /** A socket to host:port, usable at once: writes wait for the tunnel. */
  socket(host: string, port: number): DeferredSocket;
  /** A tunnel to host:port, once open. */
  connect(host: string, port: number): Promise<Duplex>;
  /** A local address (a Unix socket path) whose connections reach host:port through the bridge. */
  forward(host: string, port: number): Promise<string>;
  /** The bridge's per-request time-out, asked at GET /ok when no answer of the bridge told it yet. */
  timeoutMs(signal?: AbortSignal): Promise<number | undefined>;
}

const contacts = new Map<string, BridgeContact>();
const forwarders = new Map<string, Promise<string>>();

export function bridgeNetwork(
  route: BridgeRoute,
  key: string,
  /** Sees every failure to open a tunnel (test connection names the hop from it). */
  observe?: (error: BridgeError) => void,
): Network {
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([route.id, route.url, route.certificates]))
    .digest('hex')
    .slice(0, 24);
  const remember = (contact: BridgeContact) => {
    contacts.set(fingerprint, contact);
    route.contacted?.({
      ...(contact.version ? { version: contact.version } : {}),
      ...(contact.timeoutMs ? { timeoutMs: contact.timeoutMs } : {}),
    });
  };
  const connect = (host: string, port: number) =>
    openBridgeTunnel(route, host, port, remember).catch((error: unknown) => {
      if (error instanceof BridgeError) observe?.(error);
      throw error;
    });
  return {
    bridgeId: route.id,
    scope: `${fingerprint}|${key}`,
    fingerprint,
    connect,
    socket: (host, port) => new DeferredSocket(() => connect(host, port)),
    forward(host, port) {
      // One forwarder per data source environment and target: the tokens it asks for name them.
      const id = `${fingerprint}|${key}|${host}|${port}`;
      let path = forwarders.get(id);
      if (!path) {
        path = listenForwarder(() => connect(host, port));
        forwarders.set(id, path);
        path.catch(() => forwarders.delete(id));
      }
      return path;
    },
    async timeoutMs(signal) {
      const known = contacts.get(fingerprint);
      if (known?.timeoutMs) return known.timeoutMs;
      const contact = await probe(route, signal);
      remember(contact);
      return contact.timeoutMs;
    },
  };
}

/** GET /ok on the bridge with the pinned trust: the Dogu → bridge hop on its own. */
export function probe(route: BridgeRoute, signal?: AbortSignal): Promise<BridgeContact> {
  return new Promise((resolve, reject) => {
    const url = new URL('/ok', route.url);
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const request = https.get(
      {
        host: hostname,
        port: url.port || 443,
        path: '/ok',
        ca: route.certificates,
        ...(net.isIP(hostname) === 0 ? { servername: hostname } : {}),
        agent: false,
        timeout: 10_000,
        ...(signal ? { signal } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              id?: string;
              version?: string;
              timeoutMs?: number;
            };
            if (response.statusCode !== 200 || body.id !== route.id) {
              reject(
                new BridgeError(
                  'dogu_to_bridge',
                  `The server at ${route.url} is not bridge '${route.id}' (it answered ${body.id ? `'${body.id}'` : `HTTP ${response.statusCode}`}).`,
                ),
              );
              return;
            }
            resolve({
              at: Date.now(),
              ...(body.version ? { version: body.version } : {}),
              ...(typeof body.timeoutMs === 'number' ? { timeoutMs: body.timeoutMs } : {}),
            });
          } catch {
            reject(
              new BridgeError('dogu_to_bridge', `The server at ${route.url} does not answer as a bridge.`),
            );
          }
        });
      },
    );
    request.once('timeout', () =>
      request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    request.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BridgeError(
          'dogu_to_bridge',
          `Dogu could not reach bridge '${route.id}' at ${route.url}: ${describeBridgeNetworkError(error)}.`,
        ),
      ),
    );
  });
}

/**
 * A Unix socket in a directory only this process's user may enter; removed at exit. The first
 * tunnel is opened before the socket is offered, so a failing hop is said here, in words, rather
 * than as the client's "connection closed".
 */
async function listenForwarder(open: () => Promise<Duplex>): Promise<string> {
  let first: Promise<Duplex> | undefined = open();
  await first;
  const dir = mkdtempSync(join(tmpdir(), 'dogu-bridge-'));
  const path = join(dir, 'tunnel.sock');
  const server = net.createServer((local) => {
    local.on('error', () => {});
    const tunnel = first ?? open();
    first = undefined;
    tunnel.then(
      (tunnel) => {
        tunnel.on('error', () => local.destroy());
        local.on('close', () => tunnel.destroy());
        tunnel.on('close', () => local.destroy());
        local.pipe(tunnel).pipe(local);
      },
      () => local.destroy(),
    );
  });
  server.unref();
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(path));
  });
}
