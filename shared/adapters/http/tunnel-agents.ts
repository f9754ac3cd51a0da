/**
 * node:http agents whose connections are tunnels through a bridge (shared/connectors/network/):
 * HTTP goes over the tunnel as it is; HTTPS runs TLS to the target inside the tunnel, so the
 * bridge relays bytes it cannot read. HTTP/2 (gRPC) uses the network's forwarder instead.
 */
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { rootCertificates } from 'node:tls';
import type { Network } from '../../connectors/network/bridge-network.ts';

export function tunnelAgents(
  network: Network,
  extraCaPem?: string,
): { http: http.Agent; https: https.Agent } {
  const target = (options: http.ClientRequestArgs) => ({
    host: String(options.host ?? options.hostname ?? 'localhost').replace(/^\[(.*)\]$/, '$1'),
    port: Number(options.port),
  });
  class TunnelHttpAgent extends http.Agent {
    override createConnection(options: http.ClientRequestArgs): Duplex {
      const { host, port } = target(options);
      return network.socket(host, port);
    }
  }
  class TunnelHttpsAgent extends https.Agent {
    override createConnection(
      options: http.ClientRequestArgs,
      callback?: (error: Error | null, socket: Duplex) => void,
    ) {
      const { host, port } = target(options);
      // biome-ignore lint/suspicious/noExplicitAny: node's typings omit https.Agent#createConnection.
      return (https.Agent.prototype as any).createConnection.call(
        this,
        { ...options, socket: network.socket(host, port) },
        callback,
      );
    }
  }
  return {
    http: new TunnelHttpAgent({ keepAlive: true }),
    https: new TunnelHttpsAgent({
      keepAlive: true,
      ...(extraCaPem ? { ca: [...rootCertificates, extraCaPem] } : {}),
    }),
  };
}
