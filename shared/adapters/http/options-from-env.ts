/**
 * The HTTP client's settings from the environment, for the composition root:
 * - DOGU_HTTP_DENY_PRIVATE_NETWORKS=true refuses loopback and private
 *   addresses (link-local and cloud metadata addresses are always refused);
 * - on AWS Lambda (AWS_LAMBDA_FUNCTION_NAME set) or a CodeBuild long job (CODEBUILD_BUILD_ID set,
 *   decision 0075) loopback is always refused (the Lambda Runtime API listens there), and HTTP actions refuse private networks unless the setting above is
 *   `false` or the data source opts in (`httpActionOptionsFromEnv`, decision 0058);
 * - DOGU_HTTP_EXTRA_CA_FILE=<path> or DOGU_HTTP_EXTRA_CA_PEM=<PEM text> adds
 *   CA certificates trusted besides Node's own, for APIs with a private CA.
 */
import { readFileSync } from 'node:fs';
import type { NodeHttpClientOptions } from './node-http-client.ts';

export function httpClientOptionsFromEnv(env: NodeJS.ProcessEnv): NodeHttpClientOptions {
  const options: NodeHttpClientOptions = {
    denyPrivateNetworks: booleanFrom(env, 'DOGU_HTTP_DENY_PRIVATE_NETWORKS') ?? false,
    ...(onLambda(env) ? { denyLoopback: true } : {}),
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

/**
 * The HTTP kind's client: as above, but on AWS private networks are refused unless
 * DOGU_HTTP_DENY_PRIVATE_NETWORKS=false says otherwise; a data source opts in per environment.
 */
export function httpActionOptionsFromEnv(env: NodeJS.ProcessEnv): NodeHttpClientOptions {
  return {
    ...httpClientOptionsFromEnv(env),
    denyPrivateNetworks: booleanFrom(env, 'DOGU_HTTP_DENY_PRIVATE_NETWORKS') ?? onLambda(env),
  };
}

/** A Dogu worker on AWS: a Lambda function, or the CodeBuild build that runs a long job. */
const onLambda = (env: NodeJS.ProcessEnv) => Boolean(env.AWS_LAMBDA_FUNCTION_NAME || env.CODEBUILD_BUILD_ID);

/** A typo must not silently leave private networks open. Undefined when unset. */
function booleanFrom(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return undefined;
  if (value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new Error(`${name} must be true or false, not '${env[name]}'.`);
}
