/**
 * HTTP(S) agents that apply Dogu's address rule (checked-addresses.ts) to every connection they
 * open, for client libraries that make their own requests (Google's): a connection to a metadata
 * address is refused whatever URL, redirect or key file led there, and the socket connects only to
 * the addresses that were checked. Kept-alive sockets are reused, as with NodeHttpClient.
 */

import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { type AddressRules, checkedAddresses, pinnedLookup } from './checked-addresses.ts';

export interface CheckedAgentOptions extends AddressRules {
  /** CA certificates (PEM) trusted besides Node's own, for APIs with a private CA. */
  extraCaPem?: string;
}

export interface CheckedAgents {
  http: http.Agent;
  https: https.Agent;
  /** The agent for a URL, as node-fetch and gaxios take it. */
  forUrl(url: URL | string): http.Agent;
  destroy(): void;
}

type ConnectionCallback = (error: Error | null, socket?: Duplex) => void;

export function checkedAgents(options: CheckedAgentOptions = {}): CheckedAgents {
  const rules: AddressRules = {
    ...(options.denyPrivateNetworks !== undefined
      ? { denyPrivateNetworks: options.denyPrivateNetworks }
      : {}),
    ...(options.denyLoopback !== undefined ? { denyLoopback: options.denyLoopback } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  };
  const check = (connection: http.ClientRequestArgs, protocol: 'http:' | 'https:') => {
    const host = String(connection.host ?? connection.hostname ?? 'localhost');
    const port = connection.port ? `:${connection.port}` : '';
    return checkedAddresses(new URL(`${protocol}//${host.includes(':') ? `[${host}]` : host}${port}`), rules);
  };

  class CheckedHttpAgent extends http.Agent {
    override createConnection(connection: http.ClientRequestArgs, callback: ConnectionCallback) {
      check(connection, 'http:').then(
        (addresses) =>
          connect(() => super.createConnection({ ...connection, lookup: pinnedLookup(addresses) }), callback),
        callback,
      );
      return undefined as unknown as Duplex;
    }
  }
  class CheckedHttpsAgent extends https.Agent {
    override createConnection(connection: http.ClientRequestArgs, callback: ConnectionCallback) {
      check(connection, 'https:').then(
        (addresses) =>
          connect(() => super.createConnection({ ...connection, lookup: pinnedLookup(addresses) }), callback),
        callback,
      );
      return undefined as unknown as Duplex;
    }
  }

  const httpAgent = new CheckedHttpAgent({ keepAlive: true });
  const httpsAgent = new CheckedHttpsAgent({
    keepAlive: true,
    // `ca` replaces Node's list, so the public roots go in with the extra CA.
    ...(options.extraCaPem ? { ca: [...rootCertificates, options.extraCaPem] } : {}),
  });
  return {
    http: httpAgent,
    https: httpsAgent,
    forUrl: (url) => (new URL(String(url)).protocol === 'http:' ? httpAgent : httpsAgent),
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

function connect(open: () => Duplex | undefined | null, callback: ConnectionCallback) {
  try {
    const socket = open();
    if (socket) callback(null, socket);
  } catch (error) {
    callback(error as Error);
  }
}
