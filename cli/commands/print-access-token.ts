import { type Credentials, readCredentials, writeCredentials } from '../credentials.ts';
import { login } from './login.ts';
import { ssoRefresh } from './sso.ts';

/** Seconds before expiry at which a token counts as expired: a call started now must not fail mid-way. */
const expirySkewSeconds = 30;
/** Spec 5.1: after 30 days or more without using the CLI, log in again. */
export const maxIdleSeconds = 30 * 24 * 3600;

/**
 * The stored token, renewed first when it has expired: the local login renews
 * without a prompt; an SSO login renews through the IdP's refresh token unless
 * it has not been used for 30 days.
 */
export async function accessToken(now = Date.now()): Promise<Credentials> {
  const credentials = await readCredentials();
  if (!credentials) throw new Error('Not logged in. Run `npx dogu login` first.');
  const nowSeconds = Math.floor(now / 1000);
  if (credentials.kind !== 'sso') {
    if (credentials.expiresAt - expirySkewSeconds > nowSeconds) return credentials;
    if (credentials.kind === 'password') {
      throw new Error(
        `The login has expired. Log in again: \`npx dogu login --email ${credentials.email}\`.`,
      );
    }
    return login(credentials.url);
  }
  const lastUsedAt = credentials.lastUsedAt ?? 0;
  if (nowSeconds - lastUsedAt >= maxIdleSeconds) {
    throw new Error(
      `This login was last used on ${new Date(lastUsedAt * 1000).toISOString().slice(0, 10)}, 30 days or more ago. Log in again: \`npx dogu login --sso\`.`,
    );
  }
  const current =
    credentials.expiresAt - expirySkewSeconds > nowSeconds ? credentials : await ssoRefresh(credentials);
  const used = { ...current, lastUsedAt: nowSeconds };
  await writeCredentials(used);
  return used;
}
