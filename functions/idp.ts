/**
 * The public face of the service's own IdP (spec 5.2): the OIDC discovery
 * document and the JWKS that clouds fetch to verify our storage ID tokens.
 * Both are public by design (auth 'none'); the JWKS holds public keys only.
 */
import { discoveryDocument } from '../shared/domain/identity/own-idp.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { compose } from '../shared/runtime/services.ts';

// Short enough that a rotated-in key is seen soon by verifiers that cache; they also refetch on an unknown kid.
const cacheHeaders = { 'cache-control': 'public, max-age=300' };

export const handler = defineRoutes(
  {
    idpDiscovery: async (_request, services) => ({
      status: 200,
      body: discoveryDocument(services.idp.issuer()),
      headers: cacheHeaders,
    }),
    idpJwks: async (_request, services) => ({
      status: 200,
      body: { keys: await services.idp.keys.publicKeys() },
      headers: { ...cacheHeaders, 'content-type': 'application/jwk-set+json' },
    }),
  },
  compose(ownIdp),
);
