/** The HTTP kind's runtime: one HTTP client per process (SSRF rule from the environment, opt-in per data source). */
import { NodeHttpClient } from '../../adapters/http/node-http-client.ts';
import { httpActionOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import type { EngineRun, HttpClient } from '../../domain/ports.ts';
import type { ConnectorRuntime, RuntimeSettings } from '../connector.ts';
import type { HttpActionInput, HttpConnection } from './definition.ts';
import { runHttpAction } from './run-http.ts';

export function httpRuntime(
  client: HttpClient = new NodeHttpClient(httpActionOptionsFromEnv(process.env)),
): ConnectorRuntime {
  return {
    run: (run: EngineRun) =>
      runHttpAction(client, {
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
      await client.send(
        { method: 'GET', url: connection.url, headers: [] },
        {
          signal: check.signal,
          timeoutMs: connection.timeoutMs ?? 10_000,
          maxBodyBytes: 1024 * 1024,
          ...(connection.allowPrivateNetworks ? { allowPrivateNetworks: true } : {}),
        },
      );
    },
  };
}

/** The kind's runtime as the engines load it (docs/connectors.md): pool settings do not apply. */
export function createRuntime(_settings: RuntimeSettings): ConnectorRuntime {
  return httpRuntime();
}
