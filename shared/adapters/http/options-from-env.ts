/**
 * The HTTP client's settings from the environment, for the composition root:
 * - DOGU_HTTP_DENY_PRIVATE_NETWORKS=true refuses loopback and private
 *   addresses (link-local and cloud metadata addresses are always refused);
 * - DOGU_HTTP_EXTRA_CA_FILE=<path> or DOGU_HTTP_EXTRA_CA_PEM=<PEM text> adds
 *   CA certificates trusted besides Node's own, for APIs with a private CA.
 */
import { readFileSync } from 'node:fs';
import type { NodeHttpClientOptions } from './node-http-client.ts';

export function httpClientOptionsFromEnv(env: NodeJS.ProcessEnv): NodeHttpClientOptions {
  const options: NodeHttpClientOptions = {
    denyPrivateNetworks: booleanFrom(env, 'DOGU_HTTP_DENY_PRIVATE_NETWORKS'),
  };
  const pem = [
    env.DOGU_HTTP_EXTRA_CA_FILE ? readFileSync(env.DOGU_HTTP_EXTRA_CA_FILE, 'utf8') : '',
    env.DOGU_HTTP_EXTRA_CA_PEM ?? '',
  ]
    .filter((text) => text.trim() !== '')
    .join('\n');
  if (pem !== '') options.extraCaPem = pem;
  return options;
}

/** A typo must not silently leave private networks open. */
function booleanFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new Error(`${name} must be true or false, not '${env[name]}'.`);
}
