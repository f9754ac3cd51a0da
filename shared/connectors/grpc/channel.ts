/**
 * One grpc-js client per data source environment and connection settings. The host is resolved
 * here and the HTTP connector's address rule (SSRF) applied to every address before the channel
 * is made; the channel then dials the checked address, so DNS cannot answer differently later.
 * TLS verifies the certificate against the host name given, with an optional private CA.
 */
import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { classifyAddress, isLoopback } from '../../adapters/http/address-policy.ts';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import { DoguError } from '../../domain/errors.ts';
import type { Network } from '../network/bridge-network.ts';
import type { GrpcConnection } from './definition.ts';

export interface ChannelSettings {
  /** Refuse loopback and private addresses (DOGU_HTTP_DENY_PRIVATE_NETWORKS, as for HTTP APIs). */
  denyPrivateNetworks: boolean;
  /** Refuse loopback always (on AWS: the Lambda Runtime API listens there; decision 0058). */
  denyLoopback?: boolean;
  /** Host name to addresses; dns.lookup by default. */
  resolveHost?: (host: string) => Promise<string[]>;
}

export const channelSettingsFromEnv = (env: NodeJS.ProcessEnv): ChannelSettings => {
  const options = httpClientOptionsFromEnv(env);
  return {
    denyPrivateNetworks: options.denyPrivateNetworks ?? false,
    ...(options.denyLoopback ? { denyLoopback: true } : {}),
  };
};

interface Kept {
  fingerprint: string;
  client: Promise<grpc.Client>;
}

export class Channels {
  private readonly clients = new Map<string, Kept>();

  constructor(private readonly settings: ChannelSettings) {}

  /** The client for a connection, made (and its address checked) on first use or after a change. */
  clientFor(key: string, connection: GrpcConnection, network?: Network): Promise<grpc.Client> {
    const fingerprint = createHash('sha256')
      .update(
        JSON.stringify([
          connection.address,
          connection.tls,
          connection.caCertificate ?? '',
          network?.scope ?? '',
        ]),
      )
      .digest('hex');
    const kept = this.clients.get(key);
    if (kept?.fingerprint === fingerprint) return kept.client;
    if (kept) this.drop(key);
    // Kept as a promise so concurrent first calls share one channel.
    const client = this.open(connection, network);
    this.clients.set(key, { fingerprint, client });
    client.catch(() => {
      if (this.clients.get(key)?.client === client) this.clients.delete(key);
    });
    return client;
  }

  /** Forgets a client whose channel failed, so the next call resolves and checks the host again. */
  drop(key: string): void {
    const kept = this.clients.get(key);
    this.clients.delete(key);
    kept?.client.then((c) => c.close()).catch(() => {});
  }

  close(): void {
    for (const key of [...this.clients.keys()]) this.drop(key);
  }

  private async open(connection: GrpcConnection, network?: Network): Promise<grpc.Client> {
    const { host, port } = splitAddress(connection.address);
    let target: string;
    if (network) {
      // Through a bridge: its allow-list decides what is reachable, and only it resolves the name.
      target = `unix:${await network.forward(host, port)}`;
    } else {
      const address = await this.checkedAddress(host, connection.address);
      target = `${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
    }
    const options: grpc.ChannelOptions = {
      'grpc.default_authority': connection.address,
      // Calls and reflection are small; a reply above this is refused rather than buffered.
      'grpc.max_receive_message_length': 16 * 1024 * 1024,
    };
    if (!connection.tls) return new grpc.Client(target, grpc.credentials.createInsecure(), options);
    if (isIP(host) === 0 || network) options['grpc.ssl_target_name_override'] = host;
    const ca = connection.caCertificate ? Buffer.from(connection.caCertificate) : null;
    return new grpc.Client(target, grpc.credentials.createSsl(ca), options);
  }

  private async checkedAddress(host: string, shown: string): Promise<string> {
    let addresses: string[];
    if (isIP(host) !== 0) addresses = [host];
    else {
      try {
        addresses = await (this.settings.resolveHost ?? resolveWithDns)(host);
      } catch {
        addresses = [];
      }
    }
    if (addresses.length === 0)
      throw new DoguError(
        'data_source_error',
        `The gRPC server ${shown} is unreachable: its host name could not be resolved.`,
      );
    for (const address of addresses) {
      const kind = classifyAddress(address);
      if (kind === 'metadata') {
        throw new DoguError(
          'data_source_error',
          `The gRPC call to ${shown} was refused: ${host} is a link-local or cloud metadata address, which actions may never reach.`,
        );
      }
      if (this.settings.denyLoopback && isLoopback(address)) {
        throw new DoguError(
          'data_source_error',
          `The gRPC call to ${shown} was refused: ${host} is a loopback address, which actions may never reach on this runtime.`,
        );
      }
      if (kind === 'private' && this.settings.denyPrivateNetworks) {
        throw new DoguError(
          'data_source_error',
          `The gRPC call to ${shown} was refused: ${host} is a loopback or private network address, and private networks are denied here (DOGU_HTTP_DENY_PRIVATE_NETWORKS).`,
        );
      }
    }
    return addresses[0]!;
  }
}

async function resolveWithDns(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

export function splitAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  const port = Number(address.slice(at + 1));
  if (!(port >= 1 && port <= 65_535))
    throw new DoguError('invalid_definition', `The gRPC address '${address}' has no valid port (1-65535).`);
  return { host, port };
}
