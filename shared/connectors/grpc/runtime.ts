/** The gRPC kind's runtime: channels per data source environment, service descriptions, calls. */
import type { ConnectorRuntime, RuntimeCheck, RuntimeRun, RuntimeSettings } from '../connector.ts';
import { type ChannelSettings, Channels, channelSettingsFromEnv } from './channel.ts';
import type { GrpcConnection } from './definition.ts';
import { Descriptors } from './descriptors.ts';
import { requestTemplate } from './grpc-json.ts';
import { literalMetadata } from './metadata.ts';
import { type GrpcParts, runGrpcAction, unaryMethod } from './run-grpc.ts';
import { grpcFailure } from './status.ts';

export function grpcRuntime(
  settings: ChannelSettings = channelSettingsFromEnv(process.env),
): ConnectorRuntime {
  const parts: GrpcParts = { channels: new Channels(settings), descriptors: new Descriptors() };
  return {
    run: (run: RuntimeRun) => runGrpcAction(parts, run),
    async testConnection(check) {
      await describeFor(parts, check);
    },
    async catalog(check) {
      const described = await describeFor(parts, check);
      const entries = described.services.flatMap((service) =>
        service.methods
          .filter((m) => m.unary)
          .map((m) => {
            const method = unaryMethod(described, service.name, m.name);
            const request = method.resolvedRequestType!;
            const reply = method.resolvedResponseType!;
            return {
              id: `${service.name}/${m.name}`,
              label: `${service.name}/${m.name}`,
              description: `${request.fullName.slice(1)} → ${reply.fullName.slice(1)}`,
              fill: { service: service.name, method: m.name, request: requestTemplate(request) },
            };
          }),
      );
      return { entries };
    },
    async close() {
      parts.channels.close();
    },
  };
}

/**
 * Service descriptions for a connection test or the catalog: reflection proves the server answers;
 * with a protoset, the channel must also become ready. Uses no cache and keeps no channel.
 */
async function describeFor(parts: GrpcParts, check: RuntimeCheck) {
  const connection = check.connection as GrpcConnection;
  const key = `check/${check.key}/${Date.now()}/${Math.random()}`;
  const deadline = new Date(Date.now() + 10_000);
  try {
    const client = await parts.channels.clientFor(key, connection, check.network);
    const metadata = literalMetadata(connection.metadata ?? []);
    const described = await parts.descriptors.describe({
      key,
      connection,
      files: check.files,
      client,
      deadline,
      signal: check.signal,
      metadata,
    });
    if (connection.serviceSource === 'protoset') await waitForReady(client, deadline, connection.address);
    return described;
  } catch (error) {
    throw grpcFailure(error, `Reaching the gRPC server ${connection.address}`);
  } finally {
    parts.channels.drop(key);
    parts.descriptors.forget(key);
  }
}

function waitForReady(
  client: import('@grpc/grpc-js').Client,
  deadline: Date,
  address: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    client.waitForReady(deadline, (error) => {
      if (!error) resolve();
      else
        reject(
          Object.assign(new Error(error.message), {
            code: 14,
            details: `no connection to ${address} within 10 s (is the server running, with TLS set as it expects?)`,
          }),
        );
    });
  });
}

/** The kind's runtime as the engines load it (docs/connectors.md): pool settings do not apply. */
export function createRuntime(_settings: RuntimeSettings): ConnectorRuntime {
  return grpcRuntime();
}
