/** A new console session for a user: a login token with a random CSRF claim (decision 0014). */
import { randomBytes } from 'node:crypto';
import { issueUserToken } from '../domain/accounts/sign-in.ts';
import type { User } from '../domain/model.ts';
import type { CoreServices } from '../runtime/core-services.ts';

export async function newConsoleSession(services: CoreServices, user: User) {
  const csrf = randomBytes(32).toString('base64url');
  const { token, expiresAt } = await issueUserToken(services, user, { csrf });
  return { token, expiresAt, csrf };
}
