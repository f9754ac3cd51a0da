/** ~/.dogu/credentials.json: the login token, readable only by its owner. */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Credentials {
  token: string;
  email: string;
  /** Unix time, seconds. */
  expiresAt: number;
  /** The Dogu the token was issued by. */
  url: string;
  /**
   * 'local': the embedded runtime's loopback admin login; 'sso': a login at the IdP (login --sso/--device);
   * 'password': e-mail and password (login --email).
   */
  kind: 'local' | 'sso' | 'password';
  /** SSO only: the IdP's refresh token, used to renew an expired token (spec 5.1). */
  refreshToken?: string;
  /** SSO only: the IdP and the CLI's client id there. */
  issuer?: string;
  clientId?: string;
  /** SSO only: Unix time, seconds, of the last use; after 30 days without use, log in again. */
  lastUsedAt?: number;
}

export const credentialsPath = () => join(homedir(), '.dogu', 'credentials.json');

export async function readCredentials(): Promise<Credentials | undefined> {
  try {
    return JSON.parse(await readFile(credentialsPath(), 'utf8')) as Credentials;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw new Error(`${credentialsPath()} could not be read: ${(error as Error).message}`);
  }
}

export async function writeCredentials(credentials: Credentials): Promise<void> {
  const path = credentialsPath();
  await mkdir(join(homedir(), '.dogu'), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600); // the file may have existed with wider permissions
}

export async function removeCredentials(): Promise<boolean> {
  try {
    await rm(credentialsPath());
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return false;
    throw error;
  }
}
