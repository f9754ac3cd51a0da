import * as z from 'zod';
import { loginWithIdentity, verifyIdpIdToken } from '../shared/adapters/oidc/sso-login.ts';
import { activeSsoConfig } from '../shared/adapters/oidc/sso-provider.ts';
import { DoguError } from '../shared/domain/errors.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, type Services } from '../shared/runtime/services.ts';

const configured = async (services: CoreServices & Pick<Services, 'secrets'>) => {
  const config = await activeSsoConfig(services);
  if (!config) throw new DoguError('not_found', 'This Dogu has no IdP configured for SSO login.');
  return config;
};

export const handler = defineRoutes(
  {
    /** GET /public/v1/login/config: where the CLI logs in. */
    loginConfig: async (_request, services) => {
      const config = await configured(services);
      return {
        status: 200,
        body: {
          issuer: config.issuer,
          clientId: config.cliClientId,
          deviceAuthorization: config.deviceAuthorization,
        },
      };
    },
    /** POST /public/v1/login/oidc: the IdP's ID token (issued to the CLI client) for a Dogu login JWT. */
    oidcLogin: async (request, services) => {
      const config = await configured(services);
      const { idToken } = request.parseBody(z.object({ idToken: z.string().min(1).max(16_384) }).strict());
      const identity = await verifyIdpIdToken(config, idToken, config.cliClientId, services.clock.now());
      const { user, token, expiresAt } = await loginWithIdentity(
        services,
        identity,
        { client: 'cli', event: request.event },
        {},
        config,
      );
      return { status: 200, body: { token, tokenType: 'Bearer', email: user.email, expiresAt } };
    },
  },
  compose(secretValues),
);
