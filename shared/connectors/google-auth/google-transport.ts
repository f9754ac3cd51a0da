/**
 * Where Google's client libraries send their requests: through agents that apply Dogu's address
 * rule (shared/adapters/http/checked-agents.ts), so a key file, an endpoint setting or a redirect
 * can never make them reach a metadata address (or loopback on AWS).
 * - google-auth-library and the upload and signing calls of @google-cloud/storage use gaxios,
 *   which takes an `agent` per client (transporterOptions); the chunks of a resumable upload to a
 *   custom endpoint go through gaxios's default instance, whose default agent is set once.
 * - The JSON calls of @google-cloud/storage and @google-cloud/bigquery go through teeny-request,
 *   which takes no agent: it uses the entry of its agent pool for the URL's protocol. Those
 *   entries are set to the checked agents once per process; only Google's libraries use it.
 * The libraries never look for credentials of the machine (we always hand them a client), and
 * METADATA_SERVER_DETECTION=none keeps any code path from probing the metadata server.
 */
import type { Agent } from 'node:http';
import { instance as gaxiosDefault } from 'gaxios';
import teenyAgents from 'teeny-request/build/src/agents.js';
import { type CheckedAgents, checkedAgents } from '../../adapters/http/checked-agents.ts';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';

let shared: CheckedAgents | undefined;

/** The process's agents for Google's APIs (the rules come from the environment, as for HTTP clients). */
export function googleAgents(): CheckedAgents {
  if (!shared) {
    process.env.METADATA_SERVER_DETECTION ??= 'none';
    shared = checkedAgents(httpClientOptionsFromEnv(process.env));
    routeTeenyRequest(shared);
    // @google-cloud/storage sends a resumable upload's chunks to a custom endpoint with the default
    // gaxios instance (the session URI is the credential), not with the auth client.
    gaxiosDefault.defaults.agent = (url: URL) => shared!.forUrl(url) as Agent;
  }
  return shared;
}

/** gaxios options for an auth client: every request through the checked agents. */
export const gaxiosAgent = (agents: CheckedAgents) => ({
  agent: (url: URL) => agents.forUrl(url) as Agent,
});

function routeTeenyRequest(agents: CheckedAgents) {
  // teeny-request keeps no per-request agent option; its pool is what it connects with.
  const pool = (teenyAgents as unknown as { pool: Map<string, Agent> }).pool;
  // Google's libraries ask for kept-alive connections (`forever`), which have entries of their own.
  for (const key of ['http', 'http:forever']) pool.set(key, agents.http);
  for (const key of ['https', 'https:forever']) pool.set(key, agents.https);
}
