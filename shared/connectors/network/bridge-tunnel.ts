/**
 * Opens one tunnel through a bridge: TLS to the bridge, trusting only the certificates pinned for
 * it (its own or its CA's), then `CONNECT host:port` with a fresh token of Dogu's IdP. Failures
 * say which hop failed: Dogu → bridge, the bridge's refusal, bridge → target, or the target.
 */
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { DoguError } from '../../domain/errors.ts';
import type { BridgeRoute } from '../../domain/ports.ts';
import { describeBridgeNetworkError } from './bridge-errors.ts';
import { type BridgeRefusal, bridgeHeaders, targetOf } from './bridge-protocol.ts';

/** Which part of the way failed (test connection names it). */
export type BridgeHop = 'dogu_to_bridge' | 'bridge' | 'bridge_to_target' | 'target';

export class BridgeError extends DoguError {
  constructor(
    readonly hop: BridgeHop,
    message: string,
    readonly refusal?: BridgeRefusal,
  ) {
    super('data_source_error', message);
  }
}

/** What a bridge told us about itself on its last answer. */
export interface BridgeContact {
  version?: string;
  timeoutMs?: number;
  at: number;
}

const connectMs = 10_000;

export function openBridgeTunnel(
  route: BridgeRoute,
  host: string,
  port: number,
  onContact?: (contact: BridgeContact) => void,
): Promise<Duplex> {
  const target = targetOf(host, port);
  const bridge = `bridge '${route.id}'`;
  return route.token(target).then(
    (token) =>
      new Promise<Duplex>((resolve, reject) => {
        const url = new URL(route.url);
        const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
        const request = https.request({
          host: hostname,
          port: url.port || 443,
          method: 'CONNECT',
          path: target,
          headers: { host: target, authorization: `Bearer ${token}` },
          // Pinning: only what was registered for this bridge is trusted, never the public roots.
          ca: route.certificates,
          // Node would take the name from the Host header (the target's): the bridge's own name it is.
          servername: isIP(hostname) === 0 ? hostname : '',
          agent: false,
          timeout: connectMs,
        });
        request.once('timeout', () =>
          request.destroy(
            Object.assign(new Error(`no answer within ${connectMs} ms`), { code: 'ETIMEDOUT' }),
          ),
        );
        request.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            new BridgeError(
              'dogu_to_bridge',
              `Dogu could not reach ${bridge} at ${route.url}: ${describeBridgeNetworkError(error)}.`,
            ),
          ),
        );
        request.once('connect', (response, socket, head) => {
          const header = (name: string) => {
            const value = response.headers[name];
            return Array.isArray(value) ? value[0] : value;
          };
          const timeoutMs = Number(header(bridgeHeaders.timeoutMs));
          const version = header(bridgeHeaders.version);
          onContact?.({
            at: Date.now(),
            ...(version ? { version } : {}),
            ...(Number.isFinite(timeoutMs) && timeoutMs > 0 ? { timeoutMs } : {}),
          });
          if (response.statusCode === 200) {
            socket.setNoDelay(true);
            if (head.length > 0) socket.unshift(head);
            resolve(socket);
            return;
          }
          socket.destroy();
          const code = header(bridgeHeaders.error) as BridgeRefusal | undefined;
          const said = header(bridgeHeaders.message) ?? `HTTP ${response.statusCode}`;
          if (code === 'target_refused')
            reject(new BridgeError('target', `${target} refused the connection (through ${bridge}).`, code));
          else if (code === 'target_unreachable')
            reject(new BridgeError('bridge_to_target', `${bridge} could not reach ${target}: ${said}`, code));
          else
            reject(
              new BridgeError(
                'bridge',
                `${bridge} refused the tunnel to ${target}: ${said}`,
                code ?? undefined,
              ),
            );
        });
        request.end();
      }),
  );
}
