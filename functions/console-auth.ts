/** Console SSO: authorization code + PKCE against the deployment's IdP, then an HttpOnly session cookie. */
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { consoleClient } from '../shared/adapters/oidc/oidc-client.ts';
import { loginWithIdentity, verifyIdpIdToken } from '../shared/adapters/oidc/sso-login.ts';
import { activeSsoConfig, ssoStep } from '../shared/adapters/oidc/sso-provider.ts';
import { badRequest, DoguError, unauthorized } from '../shared/domain/errors.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import {
  cookie,
  cookiesOf,
  endSession,
  flowCookieName,
  requestOrigin,
  sessionTokenOf,
} from '../shared/http/session-cookie.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, type Services } from '../shared/runtime/services.ts';

const flowSeconds = 600;
const callbackPath = '/auth/callback';

const configured = async (services: CoreServices & Pick<Services, 'secrets'>) => {
  const config = await activeSsoConfig(services);
  if (!config) throw new DoguError('not_found', 'This Dogu has no IdP configured for SSO login.');
  return config;
};

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

export const handler = defineRoutes(
  {
    /** GET /auth/login: to the IdP, with state, nonce and the PKCE verifier kept in a short-lived cookie. */
    consoleLogin: async (request, services) => {
      const config = await configured(services);
      const client = await consoleClient(config);
      const flow: Flow = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
      };
      const location = oidc.buildAuthorizationUrl(client, {
        redirect_uri: `${requestOrigin(request.event)}${callbackPath}`,
        scope: 'openid email profile',
        response_type: 'code',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
      });
      const value = Buffer.from(JSON.stringify(flow)).toString('base64url');
      return {
        status: 302,
        headers: {
          location: location.href,
          'set-cookie': cookie(request.event, 'flow', value, {
            maxAgeSeconds: flowSeconds,
            path: callbackPath,
          }),
          'cache-control': 'no-store',
        },
      };
    },
    /** GET /auth/callback: code exchange, user by e-mail, session cookie, back to the console. */
    consoleCallback: async (request, services) => {
      const config = await configured(services);
      const raw = cookiesOf(request.event).get(flowCookieName);
      if (!raw)
        throw badRequest('The login took too long or was not started here; start again at /auth/login.');
      let flow: Flow;
      try {
        flow = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Flow;
      } catch {
        throw badRequest('The login cookie is damaged; start again at /auth/login.');
      }
      const { event } = request;
      const current = new URL(
        `${requestOrigin(event)}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`,
      );
      let idToken: string | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(await consoleClient(config), current, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        idToken = tokens.id_token;
      } catch (error) {
        // The token endpoint's refusal or unreachability, or openid-client's own ID token checks.
        const step =
          error instanceof oidc.ResponseBodyError || error instanceof TypeError
            ? 'token'
            : 'id token validation';
        throw unauthorized(ssoStep(step, (error as Error).message));
      }
      const identity = await verifyIdpIdToken(config, idToken!, config.consoleClientId, services.clock.now());
      const csrf = randomBytes(32).toString('base64url');
      const { token } = await loginWithIdentity(
        services,
        identity,
        { client: 'console', event },
        { csrf },
        config,
      );
      return {
        status: 302,
        headers: {
          location: '/',
          'set-cookie': cookie(event, 'secure', token, {
            maxAgeSeconds: services.settings.loginTokenSeconds,
          }),
          'cache-control': 'no-store',
        },
      };
    },
    /** GET /auth/session: who is logged in, and the CSRF token for state-changing requests. */
    consoleSession: async (request, services) => {
      const session = sessionTokenOf(request.event);
      const claims =
        session && !request.event.headers.authorization
          ? (await services.tokens.verifyWithClaims(session)).claims
          : {};
      return {
        status: 200,
        body: {
          user: request.caller(),
          ...(typeof claims.csrf === 'string' ? { csrfToken: claims.csrf } : {}),
          ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
        },
        headers: { 'cache-control': 'no-store' },
      };
    },
    /** POST /auth/logout: clears the session cookie (CSRF-checked like every cookie-authenticated change). */
    consoleLogout: async (request, services) => {
      const token = sessionTokenOf(request.event);
      if (token) await endSession(services, token);
      return {
        status: 204,
        headers: { 'set-cookie': cookie(request.event, 'secure', '', { maxAgeSeconds: 0 }) },
      };
    },
  },
  compose(secretValues),
);
