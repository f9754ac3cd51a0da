/**
 * Password sign-in and password change (decision 0029). An unknown address, an account without a
 * password and a wrong password get the same answer, after the same scrypt work; only with the
 * right password does a disabled account learn that it is disabled.
 */
import { z } from 'zod';
import { DoguError, unauthorized } from '../errors.ts';
import type { Principal, User } from '../model.ts';
import { ensureAccount, loadAccount, saveOver } from './account-records.ts';
import type { AccountDeps } from './deps.ts';
import { requireAcceptablePassword } from './password-policy.ts';
import { generationClaim } from './user-access.ts';

export const signInSchema = z.object({ email: z.string().max(254), password: z.string().max(1024) }).strict();
export const changePasswordSchema = z
  .object({ currentPassword: z.string().max(1024), newPassword: z.string().max(1024) })
  .strict();

const wrongCredentials = () => unauthorized('The e-mail address or the password is wrong.');
/** Verified against when there is no hash, so an unknown address costs the same time. */
let decoyHash: Promise<string> | undefined;

export async function signInWithPassword(
  deps: AccountDeps,
  input: z.infer<typeof signInSchema>,
  sourceIp: string,
): Promise<User> {
  const email = input.email.trim().toLowerCase();
  deps.accounts.limiter.check(email, sourceIp);
  const user = email ? await deps.store.getUserByEmail(email) : undefined;
  const account = user ? await deps.accounts.store.getAccount(user.id) : undefined;
  const { hasher } = deps.accounts;
  decoyHash ??= hasher.hash('decoy password that never matches');
  const right = await hasher.verify(input.password, account?.passwordHash ?? (await decoyHash));
  if (!user || !account?.passwordHash || !right) {
    deps.accounts.limiter.recordFailure(email, sourceIp);
    throw wrongCredentials();
  }
  if (account.disabled) throw new DoguError('forbidden', 'This account is disabled; ask an administrator.');
  if (account.demoPassword && !isLoopback(sourceIp)) {
    // Everyone knows the demo password: it opens the demo only on the machine it runs on.
    throw new DoguError('forbidden', 'The demo password works only from the machine Dogu runs on.');
  }
  deps.accounts.limiter.recordSuccess(email);
  if (hasher.needsRehash(account.passwordHash)) {
    await saveOver(deps, account, { ...account, passwordHash: await hasher.hash(input.password) }).catch(
      () => {},
    );
  }
  return user;
}

/** A Dogu login token of the user, carrying the account's token generation. */
export async function issueUserToken(
  deps: AccountDeps,
  user: User,
  extraClaims: Record<string, string> = {},
): Promise<{ token: string; expiresAt: number }> {
  const account = await ensureAccount(deps, user);
  return deps.tokens.issue(
    { kind: 'user', id: user.id, email: user.email, name: account.name || user.name },
    deps.settings.loginTokenSeconds,
    { ...extraClaims, [generationClaim]: account.tokenGeneration },
  );
}

/** Changes the caller's password; every other session and token of theirs ends. */
export async function changePassword(
  deps: AccountDeps,
  principal: Principal,
  input: z.infer<typeof changePasswordSchema>,
  sourceIp: string,
): Promise<void> {
  if (principal.kind !== 'user') throw new DoguError('forbidden', 'Only people have passwords.');
  const account = await loadAccount(deps, principal.id);
  if (!account.passwordHash) {
    throw new DoguError(
      'state_conflict',
      'This account signs in by single sign-on and has no password to change.',
    );
  }
  deps.accounts.limiter.check(account.email, sourceIp);
  if (!(await deps.accounts.hasher.verify(input.currentPassword, account.passwordHash))) {
    deps.accounts.limiter.recordFailure(account.email, sourceIp);
    throw new DoguError('invalid_definition', '#/currentPassword: The current password is wrong.', {
      errors: [{ pointer: '#/currentPassword', detail: 'The current password is wrong.' }],
    });
  }
  requireAcceptablePassword(input.newPassword, account.email, 'newPassword');
  if (input.newPassword === input.currentPassword) {
    throw new DoguError('invalid_definition', '#/newPassword: The new password is the current one.', {
      errors: [{ pointer: '#/newPassword', detail: 'The new password is the current one.' }],
    });
  }
  await saveOver(deps, account, {
    ...account,
    passwordHash: await deps.accounts.hasher.hash(input.newPassword),
    tokenGeneration: account.tokenGeneration + 1,
  });
}

const isLoopback = (ip: string) => ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
