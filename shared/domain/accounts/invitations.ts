/**
 * Accepting an invitation: the link's token names the account; the user sets a password (and
 * may correct the name). A used, replaced or expired link is refused with a reason the console
 * shows (409 with `reason`); an unknown one with 404.
 */
import { z } from 'zod';
import { DoguError, notFound } from '../errors.ts';
import type { User } from '../model.ts';
import { hashOfToken, saveOver } from './account-records.ts';
import type { AccountDeps } from './deps.ts';
import type { Account } from './model.ts';
import { requireAcceptablePassword } from './password-policy.ts';

export const acceptInvitationSchema = z
  .object({ password: z.string().max(1024), name: z.string().trim().min(1).max(200).optional() })
  .strict();

const refused = (reason: 'used' | 'replaced' | 'expired' | 'disabled', message: string) =>
  new DoguError('state_conflict', message, { extra: { reason } });

async function openInvitation(deps: AccountDeps, token: string): Promise<Account> {
  if (!/^[\w-]{20,100}$/.test(token)) throw notFound('Invitation', 'link');
  const tokenHash = hashOfToken(token);
  const record = await deps.accounts.store.getInvitation(tokenHash);
  if (!record)
    throw new DoguError('not_found', 'This invitation link is not known; check that it was copied whole.');
  if (record.usedAt) {
    throw refused(
      'used',
      'This invitation has been used already. Sign in with your password, or ask an administrator for a new invitation.',
    );
  }
  const account = await deps.accounts.store.getAccount(record.userId);
  if (!account || account.invitation?.tokenHash !== tokenHash) {
    throw refused(
      'replaced',
      'This invitation was replaced by a newer one; use the latest link you received.',
    );
  }
  if (account.disabled) throw refused('disabled', 'This account is disabled; ask an administrator.');
  if (Date.parse(account.invitation.expiresAt) <= deps.clock.now().getTime()) {
    throw refused('expired', 'This invitation has expired; ask an administrator for a new one.');
  }
  return account;
}

export async function describeInvitation(deps: AccountDeps, token: string) {
  const account = await openInvitation(deps, token);
  return { email: account.email, name: account.name, expiresAt: account.invitation!.expiresAt };
}

/** Sets the password, closes the invitation and answers the user to sign in. */
export async function acceptInvitation(
  deps: AccountDeps,
  token: string,
  input: z.infer<typeof acceptInvitationSchema>,
): Promise<User> {
  const account = await openInvitation(deps, token);
  requireAcceptablePassword(input.password, account.email);
  const { invitation: _used, ...rest } = account;
  const saved = await saveOver(deps, account, {
    ...rest,
    ...(input.name ? { name: input.name } : {}),
    passwordHash: await deps.accounts.hasher.hash(input.password),
  });
  const now = deps.clock.now().toISOString();
  await deps.accounts.store.putInvitation({
    tokenHash: account.invitation!.tokenHash,
    userId: account.userId,
    expiresAt: account.invitation!.expiresAt,
    usedAt: now,
  });
  return { id: saved.userId, email: saved.email, name: saved.name, createdAt: saved.createdAt };
}
