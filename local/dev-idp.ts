/**
 * The embedded runtime's built-in development IdP: oidc-provider (a certified
 * OpenID Provider) on its own loopback port, so `dogu login --sso`, the device
 * flow and console SSO run end to end without an external IdP.
 *
 * Development only: the login form is oidc-provider's devInteractions, which
 * does not check passwords; only the seeded accounts can sign in. Signing and
 * cookie keys live in the data directory, so ID tokens and browser sessions
 * stay valid across restarts; grants and refresh tokens live in memory (a
 * restart means logging in again).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC, type OidcClient } from 'oidc-provider';
import type { SsoConfig } from '../shared/adapters/oidc/sso-config.ts';

export const devIdpAccounts = [
  { email: 'admin@dogu.local', name: 'Local Administrator' },
  // The demo's second person (local/accounts-startup.ts), so request → approve works by SSO too.
  { email: 'reviewer@dogu.local', name: 'Demo Reviewer' },
];
export const devIdpClientIds = { cli: 'dogu-cli', console: 'dogu-console' };
const thirtyDays = 30 * 24 * 3600;

export interface DevIdp {
  config: SsoConfig;
  close(): Promise<void>;
}

export async function startDevIdp(options: {
  dataDir: string;
  host: string;
  port: number;
  /** The runtime's `/auth/callback` (console SSO). */
  consoleRedirectUris: string[];
  /** Who may sign in (tests use it as an external provider with other people); default devIdpAccounts. */
  accounts?: { email: string; name: string }[];
}): Promise<DevIdp> {
  const keys = await persistentKeys(join(options.dataDir, 'dev-idp-keys.json'));
  const server = createServer();
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '' ? '127.0.0.1' : options.host;
  const issuer = `http://${host}:${port}`;
  const accounts = new Map((options.accounts ?? devIdpAccounts).map((a) => [a.email, a]));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: devIdpClientIds.cli,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        // RFC 8252 7.3: any port on the loopback address is accepted for native clients.
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
      },
      {
        client_id: devIdpClientIds.console,
        client_secret: keys.consoleClientSecret,
        redirect_uris: options.consoleRedirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [keys.signing] },
    cookies: { keys: [keys.cookie] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put e-mail and name into the ID token itself: Dogu logs in from the ID token.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, deviceFlow: { enabled: true } },
    pkce: { required: () => true },
    findAccount: async (_ctx: KoaContextWithOIDC, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: id, email_verified: true, name: account.name }),
      };
    },
    // First-party clients: no consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client!;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile offline_access');
      await grant.save();
      return grant;
    },
    // The CLI refreshes for up to 30 days without use (spec 5.1): rotating refresh tokens, 30-day lifetime.
    issueRefreshToken: async (_ctx: KoaContextWithOIDC, client: OidcClient) =>
      client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      DeviceCode: 600,
      Grant: thirtyDays,
      Interaction: 3600,
      RefreshToken: thirtyDays,
      Session: 14 * 24 * 3600,
    },
  });
  server.on('request', provider.callback());
  return {
    config: {
      issuer,
      cliClientId: devIdpClientIds.cli,
      consoleClientId: devIdpClientIds.console,
      consoleClientSecret: keys.consoleClientSecret,
      deviceAuthorization: true,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface DevIdpKeys {
  signing: Record<string, unknown>;
  cookie: string;
  consoleClientSecret: string;
}

/** Made on first start, readable only by this user. */
async function persistentKeys(path: string): Promise<DevIdpKeys> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as DevIdpKeys;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signing = {
    ...(await exportJWK(privateKey)),
    alg: 'RS256',
    use: 'sig',
    kid: randomBytes(8).toString('hex'),
  };
  const keys: DevIdpKeys = {
    signing,
    cookie: randomBytes(32).toString('base64url'),
    consoleClientSecret: randomBytes(32).toString('base64url'),
  };
  try {
    await writeFile(path, JSON.stringify(keys), { flag: 'wx', mode: 0o600 });
    return keys;
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    return JSON.parse(await readFile(path, 'utf8')) as DevIdpKeys;
  }
}
