/**
 * Builds the `idp` service of each runtime from its configuration:
 * - DOGU_IDP_ISSUER: the issuer URL; locally it defaults to the runtime's URL + `/idp`,
 *   on AWS the stack sets it to the API URL + `/idp`.
 * - DOGU_TENANT_SUBDOMAIN: the `tenant_subdomain` claim, default `local`.
 * - DOGU_IDP_TOKEN_SECONDS: lifetime of issued tokens, default and maximum 3600.
 * - DOGU_IDP_KEYS_SECRET_ARN (AWS): the Secrets Manager secret holding the key document.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { maxStorageIdTokenSeconds, type OwnIdp } from '../../domain/identity/own-idp.ts';
import type { Clock } from '../../domain/ports.ts';
import {
  FileSigningKeyStore,
  SecretsManagerSigningKeyStore,
  SigningKeyRing,
  type SigningKeyStore,
} from './signing-keys.ts';

type Env = Record<string, string | undefined>;

function settingsFrom(env: Env) {
  const seconds = Number(env.DOGU_IDP_TOKEN_SECONDS ?? maxStorageIdTokenSeconds);
  return {
    tenantSubdomain: env.DOGU_TENANT_SUBDOMAIN || 'local',
    tokenSeconds:
      Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, maxStorageIdTokenSeconds) : 3600,
  };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Embedded runtime: keys in `<dataDir>/idp-keys.json`, made here at first start (so a broken data
 * directory fails the start, not a later request); `baseUrl` is known only once the server listens.
 */
export async function createLocalOwnIdp(options: {
  dataDir: string;
  baseUrl: () => string;
  clock: Clock;
  env: Env;
}): Promise<OwnIdp & { keys: SigningKeyRing }> {
  const { env } = options;
  const keys = new SigningKeyRing(new FileSigningKeyStore(options.dataDir), options.clock, {
    createIfEmpty: true,
  });
  await keys.current();
  return {
    issuer: () => withoutTrailingSlash(env.DOGU_IDP_ISSUER || `${options.baseUrl()}/idp`),
    keys,
    clock: options.clock,
    ...settingsFrom(env),
  };
}

/**
 * AWS: keys in a Secrets Manager secret. Both settings are read when first needed, so a stack
 * that does not configure the IdP yet still starts; only the IdP routes then fail.
 */
export function createAwsOwnIdp(options: { clock: Clock; env: Env }): OwnIdp {
  const { env } = options;
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`Environment variable ${name} is not set (the service's own IdP).`);
    return value;
  };
  let store: SigningKeyStore | undefined;
  const secretStore = () =>
    (store ??= new SecretsManagerSigningKeyStore(
      new SecretsManagerClient({}),
      required('DOGU_IDP_KEYS_SECRET_ARN'),
    ));
  const lazyStore: SigningKeyStore = {
    load: () => secretStore().load(),
    save: (keys) => secretStore().save(keys),
  };
  return {
    issuer: () => withoutTrailingSlash(required('DOGU_IDP_ISSUER')),
    keys: new SigningKeyRing(lazyStore, options.clock),
    clock: options.clock,
    ...settingsFrom(env),
  };
}
