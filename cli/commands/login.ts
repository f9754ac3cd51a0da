import { callApi } from '../api-client.ts';
import { type Credentials, writeCredentials } from '../credentials.ts';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Logs in and stores the token. Against the embedded runtime this is its
 * loopback admin login: no prompt, so scripts and CI can use it.
 */
export async function login(baseUrl: string): Promise<Credentials> {
  const url = new URL(baseUrl);
  if (!loopbackHosts.has(url.hostname)) {
    throw new Error(
      `${url.origin} is not on this machine. The local login works only against the embedded runtime (npm start); SSO login for deployed Dogu is not available in this version.`,
    );
  }
  const body = (await callApi(new URL('/local/v1/login', url).toString(), { method: 'POST' })) as {
    token: string;
    email: string;
    expiresAt: number;
  };
  const credentials: Credentials = {
    token: body.token,
    email: body.email,
    expiresAt: body.expiresAt,
    url: url.origin,
    kind: 'local',
  };
  await writeCredentials(credentials);
  return credentials;
}
