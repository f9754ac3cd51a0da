/** openid-client configurations of the deployment's IdP, discovered once per client. */
import * as oidc from 'openid-client';
import { DoguError } from '../../domain/errors.ts';
import { isLoopbackHttp, type SsoConfig } from './sso-config.ts';

const configurations = new Map<string, Promise<oidc.Configuration>>();

export function consoleClient(config: SsoConfig): Promise<oidc.Configuration> {
  // The secret is part of the key: an administrator's corrected secret takes effect at once.
  const key = `${config.issuer} ${config.consoleClientId} ${config.consoleClientSecret ?? ''}`;
  let configuration = configurations.get(key);
  if (!configuration) {
    configuration = oidc
      .discovery(
        new URL(config.issuer),
        config.consoleClientId,
        undefined,
        config.consoleClientSecret ? oidc.ClientSecretPost(config.consoleClientSecret) : oidc.None(),
        isLoopbackHttp(config.issuer) ? { execute: [oidc.allowInsecureRequests] } : {},
      )
      .catch((error: Error) => {
        configurations.delete(key);
        throw new DoguError(
          'service_unavailable',
          `Single sign-on failed at the discovery step: the IdP could not be reached: ${error.message}.`,
        );
      });
    configurations.set(key, configuration);
  }
  return configuration;
}
