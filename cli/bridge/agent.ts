/**
 * The bridge agent: one HTTPS port. `CONNECT host:port` with Dogu's token opens a raw TCP tunnel
 * to a target on the allow-list (database drivers keep their own TLS end to end; HTTP and gRPC
 * clients speak HTTP/1.1 or HTTP/2 through it the same way); `GET /ok` answers health and version;
 * `GET /metrics` the counters. Every other request is refused. Docs: docs/bridge.md.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import packageJson from '../../package.json' with { type: 'json' };
import {
  type BridgeRefusal,
  bridgeHeaders,
  parseTarget,
  targetOf,
} from '../../shared/connectors/network/bridge-protocol.ts';
import type { BridgeConfig } from './config.ts';
import { BridgeCounters } from './counters.ts';
import { type BridgeLog, jsonLog } from './json-log.ts';
import { ReplayGuard } from './replay-guard.ts';
import { TokenRefused, tokenVerifier, type VerifiedToken } from './token-verifier.ts';

export const bridgeVersion = packageJson.version;

export interface RunningBridge {
  url: string;
  port: number;
  counters: BridgeCounters;
  close(): Promise<void>;
}

const statusOf: Record<BridgeRefusal, [number, string]> = {
  unauthorized: [401, 'Unauthorized'],
  replayed: [401, 'Unauthorized'],
  target_mismatch: [403, 'Forbidden'],
  target_not_allowed: [403, 'Forbidden'],
  target_unreachable: [502, 'Bad Gateway'],
  target_refused: [502, 'Bad Gateway'],
  busy: [503, 'Service Unavailable'],
};

/** Time allowed to reach a target before the tunnel is refused as unreachable. */
const targetConnectMs = 10_000;

export async function startBridge(config: BridgeConfig, log: BridgeLog = jsonLog()): Promise<RunningBridge> {
  const verify = tokenVerifier({
    issuer: config.issuer,
    jwksUri: config.jwksUri ?? `${config.issuer.replace(/\/+$/, '')}/jwks`,
    audience: config.id,
  });
  const replays = new ReplayGuard();
  const counters = new BridgeCounters();
  const allowed = new Set(config.allow);
  const tunnels = new Set<Duplex>();
  const pruner = setInterval(() => replays.prune(Math.floor(Date.now() / 1000)), 60_000).unref();

  const server: Server = createServer({ cert: config.certificate.cert, key: config.certificate.key });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const common = { [bridgeHeaders.version]: bridgeVersion, 'cache-control': 'no-store' };
    if (request.method === 'GET' && request.url === '/ok') {
      response.writeHead(200, { ...common, 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ ok: true, id: config.id, version: bridgeVersion, timeoutMs: config.timeoutMs }),
      );
    } else if (request.method === 'GET' && request.url === '/metrics') {
      response.writeHead(200, { ...common, 'content-type': 'text/plain; version=0.0.4' });
      response.end(counters.text());
    } else {
      response.writeHead(404, { ...common, 'content-type': 'text/plain' });
      response.end('Only CONNECT tunnels, GET /ok and GET /metrics are served here.\n');
    }
  });

  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => {});
    const refuse = (code: BridgeRefusal, message: string, fields: Record<string, string> = {}) => {
      counters.refuse(code);
      log('warn', 'tunnel_refused', { bridge: config.id, reason: code, message, ...fields });
      const [status, text] = statusOf[code];
      const safe = message.replace(/[^\x20-\x7e]/g, '?');
      client.end(
        `HTTP/1.1 ${status} ${text}\r\n${bridgeHeaders.error}: ${code}\r\n${bridgeHeaders.message}: ${safe}\r\n${bridgeHeaders.version}: ${bridgeVersion}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`,
      );
    };
    const target = parseTarget(request.url ?? '');
    if (!target) return refuse('target_not_allowed', 'The CONNECT target is not host:port.');
    const { host: targetHost, port: targetPort } = target;
    const wanted = targetOf(targetHost, targetPort);
    const bearer = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer) return refuse('unauthorized', 'A Dogu connection token is required.', { target: wanted });
    // The token's own digest names it in logs; the token itself never appears.
    const tokenId = createHash('sha256').update(bearer).digest('hex').slice(0, 16);
    verify(bearer).then(
      (claims) => open(claims),
      (error: unknown) =>
        refuse(
          'unauthorized',
          error instanceof TokenRefused ? `Refused: ${error.message}.` : 'The token could not be verified.',
          { target: wanted, token: tokenId },
        ),
    );

    function open(claims: VerifiedToken) {
      const who = {
        target: wanted,
        project: claims.project_id,
        environment: claims.environment_id,
        dataSource: claims.data_source_id,
        token: tokenId,
      };
      if (claims.target.toLowerCase() !== wanted)
        return refuse('target_mismatch', `The token allows ${claims.target}, not ${wanted}.`, who);
      if (!allowed.has(wanted))
        return refuse('target_not_allowed', `${wanted} is not on this bridge's allow-list.`, who);
      if (!replays.admit(claims.jti, claims.exp, Math.floor(Date.now() / 1000)))
        return refuse('replayed', 'This token was used before.', who);
      if (tunnels.size >= config.maxTunnels)
        return refuse('busy', `This bridge has its maximum of ${config.maxTunnels} tunnels open.`, who);

      const address = config.hosts[targetHost] ?? targetHost;
      const upstream: Socket = net.connect({ host: address, port: targetPort });
      upstream.setTimeout(targetConnectMs);
      let connected = false;
      const failBeforeOpen = (code: BridgeRefusal, message: string) => {
        upstream.destroy();
        refuse(code, message, who);
      };
      upstream.once('timeout', () => {
        if (!connected)
          failBeforeOpen('target_unreachable', `${wanted} did not answer within ${targetConnectMs} ms.`);
      });
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        if (connected) return;
        if (error.code === 'ECONNREFUSED')
          failBeforeOpen('target_refused', `${wanted} refused the connection.`);
        else
          failBeforeOpen(
            'target_unreachable',
            `${wanted} could not be reached (${error.code ?? error.message}).`,
          );
      });
      upstream.once('connect', () => {
        connected = true;
        upstream.setTimeout(0);
        upstream.setNoDelay(true);
        relay(client, upstream, head, who);
      });
    }
  });

  function relay(client: Duplex, upstream: Socket, head: Buffer, who: Record<string, string>) {
    const started = Date.now();
    counters.opened++;
    counters.open++;
    tunnels.add(client);
    log('info', 'tunnel_opened', { bridge: config.id, ...who });
    client.write(
      `HTTP/1.1 200 Connection Established\r\n${bridgeHeaders.timeoutMs}: ${config.timeoutMs}\r\n${bridgeHeaders.version}: ${bridgeVersion}\r\n\r\n`,
    );
    let up = 0;
    let down = 0;
    let ending = 'closed';
    // The per-request time-out on a byte stream: bytes went to the target and nothing came back.
    let unanswered: NodeJS.Timeout | undefined;
    const stopTimer = () => {
      if (unanswered) clearTimeout(unanswered);
      unanswered = undefined;
    };
    const startTimer = () => {
      unanswered ??= setTimeout(() => {
        ending = 'timed_out';
        counters.timedOut++;
        client.destroy();
        upstream.destroy();
      }, config.timeoutMs);
    };
    if (head.length > 0) {
      up += head.length;
      upstream.write(head);
      startTimer();
    }
    client.on('data', (chunk: Buffer) => {
      up += chunk.length;
      startTimer();
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.on('data', (chunk: Buffer) => {
      down += chunk.length;
      stopTimer();
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    upstream.on('error', () => {
      ending = 'target_error';
      client.destroy();
    });
    client.on('error', () => upstream.destroy());
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      stopTimer();
      client.destroy();
      upstream.destroy();
      tunnels.delete(client);
      counters.open--;
      counters.closed++;
      counters.bytesToTarget += up;
      counters.bytesFromTarget += down;
      log(ending === 'timed_out' ? 'warn' : 'info', 'tunnel_closed', {
        bridge: config.id,
        ...who,
        ending,
        ...(ending === 'timed_out' ? { timeoutMs: config.timeoutMs } : {}),
        bytesToTarget: up,
        bytesFromTarget: down,
        durationMs: Date.now() - started,
      });
    };
    client.once('close', finish);
    upstream.once('close', finish);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `https://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  log('info', 'bridge_listening', {
    bridge: config.id,
    url,
    issuer: config.issuer,
    targets: config.allow.length,
    timeoutMs: config.timeoutMs,
    version: bridgeVersion,
  });
  return {
    url,
    port,
    counters,
    close: async () => {
      clearInterval(pruner);
      for (const tunnel of tunnels) tunnel.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
