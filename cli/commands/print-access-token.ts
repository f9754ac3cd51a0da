import { type Credentials, readCredentials } from '../credentials.ts';
import { login } from './login.ts';

/** Seconds before expiry at which a token counts as expired: a call started now must not fail mid-way. */
const expirySkewSeconds = 30;

/** The stored token, renewed first when it has expired (local login renews without a prompt). */
export async function accessToken(now = Date.now()): Promise<Credentials> {
  const credentials = await readCredentials();
  if (!credentials) throw new Error('Not logged in. Run `npx dogu login` first.');
  if (credentials.expiresAt - expirySkewSeconds > now / 1000) return credentials;
  return login(credentials.url);
}
