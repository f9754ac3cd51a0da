import { callApi } from '../api-client.ts';
import { type Credentials, writeCredentials } from '../credentials.ts';
import { passwordLogin } from './password-login.ts';
import { ssoLogin } from './sso.ts';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface LoginOptions {
  /** Authorization code + PKCE at the IdP, with a loopback redirect. */
  sso?: boolean;
  /** The device authorization grant, for machines without a browser. */
  device?: boolean;
  /** Start the system browser on the login URL. */
  open?: boolean;
  /** Sign in with this address and a password (DOGU_PASSWORD or asked for). */
  email?: string;
  print?: (text: string) => void;
}

/**
 * Logs in and stores the token. Without --sso or --device against the embedded
 * runtime this is its loopback admin login: no prompt, so scripts and CI can use it.
 */
export async function login(baseUrl: string, options: LoginOptions = {}): Promise<Credentials> {
  const url = new URL(baseUrl);
  if (options.sso || options.device) {
    const credentials = await ssoLogin(url.origin, {
      device: options.device === true,
      open: options.open === true,
      print: options.print ?? ((text) => process.stdout.write(text)),
    });
    await writeCredentials(credentials);
    return credentials;
  }
  if (options.email) {
    const credentials = await passwordLogin(url.origin, options.email);
    await writeCredentials(credentials);
    return credentials;
  }
  if (!loopbackHosts.has(url.hostname)) {
    throw new Error(
      `${url.origin} is not on this machine. The local login works only against the embedded runtime (npm start); log in to a deployed Dogu with \`dogu login --sso\` (or --device, or --email <address> with a password).`,
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
