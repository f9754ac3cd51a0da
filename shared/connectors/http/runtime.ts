/** The HTTP kind's runtime: one HTTP client per process (SSRF rule from the environment, opt-in per data source). */
import { NodeHttpClient } from '../../adapters/http/node-http-client.ts';
import { httpActionOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import type { HttpClient } from '../../domain/ports.ts';
import type { ConnectorRuntime, RuntimeRun, RuntimeSettings } from '../connector.ts';
import type { Network } from '../network/bridge-network.ts';
import type { HttpActionInput, HttpConnection } from './definition.ts';
import { runHttpAction } from './run-http.ts';

export function httpRuntime(
  client: HttpClient = new NodeHttpClient(httpActionOptionsFromEnv(process.env)),
): ConnectorRuntime {
  // One client per bridge a data source goes through (its agents keep tunnels alive like sockets).
  const tunnelled = new Map<string, NodeHttpClient>();
  const clientFor = (network: Network | undefined): HttpClient => {
    if (!network) return client;
    const id = network.scope;
    let found = tunnelled.get(id);
    if (!found) {
      found = new NodeHttpClient({ ...httpActionOptionsFromEnv(process.env), network });
      tunnelled.set(id, found);
    }
    return found;
  };
  return {
    run: (run: RuntimeRun) =>
      runHttpAction(clientFor(run.network), {
        action: run.action as unknown as HttpActionInput,
        dataSource: run.dataSource,
        environmentId: run.environmentId,
        connection: run.connection as HttpConnection,
        values: run.values,
        signal: run.signal,
        deadlineAt: run.deadlineAt,
        runAuthAction: (actionId) => run.callAction(actionId),
      }),
    async testConnection(check) {
      // Any HTTP answer means the server is reachable; the address rule and TLS apply as for actions.
      const connection = check.connection as HttpConnection;
      await clientFor(check.network).send(
        { method: 'GET', url: connection.url, headers: [] },
        {
          signal: check.signal,
          timeoutMs: connection.timeoutMs ?? 10_000,
          maxBodyBytes: 1024 * 1024,
          ...(connection.allowPrivateNetworks ? { allowPrivateNetworks: true } : {}),
        },
      );
    },
    async close() {
      for (const tunnelClient of tunnelled.values()) tunnelClient.close();
      tunnelled.clear();
    },
  };
}

/** The kind's runtime as the engines load it (docs/connectors.md): pool settings do not apply. */
export function createRuntime(_settings: RuntimeSettings): ConnectorRuntime {
  return httpRuntime();
}
