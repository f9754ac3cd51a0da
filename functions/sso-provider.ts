import {
  deleteSsoProvider,
  getSsoProvider,
  putSsoProvider,
  ssoProviderSchema,
} from '../shared/adapters/oidc/sso-provider.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/** /api/v1/sso-provider: the OpenID Connect provider for single sign-on (account administrators; decision 0030). */
export const handler = defineRoutes({
  getSsoProvider: async (request, services) => ({
    status: 200,
    body: await getSsoProvider(services, request.caller()),
  }),
  putSsoProvider: async (request, services) => ({
    status: 200,
    body: await putSsoProvider(services, request.caller(), request.parseBody(ssoProviderSchema)),
  }),
  deleteSsoProvider: async (request, services) => {
    await deleteSsoProvider(services, request.caller());
    return { status: 204 };
  },
});
