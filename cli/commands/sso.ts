/**
 * SSO login of the CLI against the IdP the Dogu server names
 * (GET /public/v1/login/config): authorization code + PKCE with a loopback
 * redirect (RFC 8252), or the device authorization grant (RFC 8628). The IdP's
 * ID token is exchanged at POST /public/v1/login/oidc for a Dogu login token.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { callApi } from '../api-client.ts';
import type { Credentials } from '../credentials.ts';

const scope = 'openid email profile offline_access';
const loginTimeoutMs = 5 * 60_000;

interface LoginConfig {
  issuer: string;
  clientId: string;
  deviceAuthorization: boolean;
}

const isLoopbackHttp = (url: string) => {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
};

async function idpClient(issuer: string, clientId: string): Promise<oidc.Configuration> {
  try {
    return await oidc.discovery(
      new URL(issuer),
      clientId,
      undefined,
      oidc.None(),
      // Plain HTTP only for an IdP on this machine (the embedded runtime's development IdP).
      isLoopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : {},
    );
  } catch (error) {
    throw new Error(`The IdP at ${issuer} could not be reached: ${(error as Error).message}`);
  }
}

export async function ssoLogin(
  origin: string,
  options: { device: boolean; open: boolean; print: (text: string) => void },
): Promise<Credentials> {
  const config = (await callApi(new URL('/public/v1/login/config', origin).toString())) as LoginConfig;
  const client = await idpClient(config.issuer, config.clientId);
  const tokens = options.device
    ? await deviceLogin(client, config, options.print)
    : await browserLogin(client, options);
  return exchange(origin, config, tokens);
}

/** Renews through the IdP refresh token and exchanges the new ID token. */
export async function ssoRefresh(credentials: Credentials): Promise<Credentials> {
  if (!credentials.refreshToken || !credentials.issuer || !credentials.clientId) {
    throw new Error('The stored login cannot be renewed. Run `npx dogu login --sso` again.');
  }
  const client = await idpClient(credentials.issuer, credentials.clientId);
  let tokens: oidc.TokenEndpointResponse;
  try {
    tokens = await oidc.refreshTokenGrant(client, credentials.refreshToken);
  } catch (error) {
    throw new Error(
      `The IdP refused to renew the login (${describe(error)}). Run \`npx dogu login --sso\` again.`,
    );
  }
  return exchange(
    credentials.url,
    { issuer: credentials.issuer, clientId: credentials.clientId, deviceAuthorization: false },
    { ...tokens, refresh_token: tokens.refresh_token ?? credentials.refreshToken },
  );
}

async function exchange(
  origin: string,
  config: LoginConfig,
  tokens: oidc.TokenEndpointResponse,
): Promise<Credentials> {
  if (!tokens.id_token) throw new Error('The IdP returned no ID token (is the `openid` scope allowed?).');
  const body = (await callApi(new URL('/public/v1/login/oidc', origin).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken: tokens.id_token }),
  })) as { token: string; email: string; expiresAt: number };
  return {
    token: body.token,
    email: body.email,
    expiresAt: body.expiresAt,
    url: origin,
    kind: 'sso',
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    issuer: config.issuer,
    clientId: config.clientId,
    lastUsedAt: Math.floor(Date.now() / 1000),
  };
}

async function browserLogin(
  client: oidc.Configuration,
  options: { open: boolean; print: (text: string) => void },
): Promise<oidc.TokenEndpointResponse> {
  // RFC 8252 7.3: a loopback redirect on an ephemeral port, IP literal rather than "localhost".
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: redirectUri,
      scope,
      response_type: 'code',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('No login within 5 minutes.')), loginTimeoutMs);
      server.on('request', (request, response) => {
        const current = new URL(request.url ?? '/', redirectUri);
        if (current.pathname !== '/callback') {
          response.writeHead(404).end();
          return;
        }
        const failed = current.searchParams.get('error');
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(
          failed
            ? `Login failed: ${failed}. See the terminal.\n`
            : 'Logged in to Dogu. You can close this window.\n',
        );
        clearTimeout(timer);
        resolve(current);
      });
    });
    options.print(`Open this URL in a browser to log in:\n${url.href}\n`);
    if (options.open) openBrowser(url.href);
    const current = await callback;
    try {
      return await oidc.authorizationCodeGrant(client, current, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new Error(`The login at the IdP failed: ${(error as Error).message}`);
    }
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

async function deviceLogin(
  client: oidc.Configuration,
  config: LoginConfig,
  print: (text: string) => void,
): Promise<oidc.TokenEndpointResponse> {
  if (!config.deviceAuthorization) {
    throw new Error('The IdP of this Dogu does not offer the device flow; use `dogu login --sso`.');
  }
  const device = await oidc.initiateDeviceAuthorization(client, { scope });
  print(
    `On any device, open ${device.verification_uri} and enter the code ${device.user_code}\n` +
      (device.verification_uri_complete ? `(or open ${device.verification_uri_complete})\n` : ''),
  );
  try {
    return await oidc.pollDeviceAuthorizationGrant(client, device, undefined, {
      signal: AbortSignal.timeout(Math.min(device.expires_in * 1000, loginTimeoutMs)),
    });
  } catch (error) {
    throw new Error(`The device login did not complete: ${(error as Error).message}`);
  }
}

const describe = (error: unknown) => {
  const { error: code, error_description: description } = error as {
    error?: string;
    error_description?: string;
  };
  return code ? `${code}${description ? `: ${description}` : ''}` : (error as Error).message;
};

function openBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {}); // no browser here: the printed URL is enough
  child.unref();
}
