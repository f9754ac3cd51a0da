/**
 * What account administrators do (docs/accounts.md): list, create with a password, invite by
 * e-mail (a link to copy, or delivered by the notifications hook), disable and enable, grant or
 * take the administrator flag, end a user's sessions.
 */
import { z } from 'zod';
import { DoguError, forbidden } from '../errors.ts';
import type { Principal } from '../model.ts';
import {
  type AccountView,
  ensureAccount,
  findOrCreateUser,
  hashOfToken,
  loadAccount,
  newLinkToken,
  requireAccountAdministrator,
  saveOver,
  viewOf,
} from './account-records.ts';
import type { AccountDeps } from './deps.ts';
import type { Account } from './model.ts';
import { requireAcceptablePassword } from './password-policy.ts';

const email = z
  .string()
  .trim()
  .max(254, 'at most 254 characters')
  .email('must be an e-mail address')
  .transform((value) => value.toLowerCase());

export const createAccountSchema = z
  .object({
    email,
    name: z.string().trim().min(1).max(200).optional(),
    /** Absent: the user gets an invitation link and sets the password. */
    password: z.string().max(1024).optional(),
    administrator: z.boolean().optional(),
  })
  .strict();

export const updateAccountSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    administrator: z.boolean().optional(),
    disabled: z.boolean().optional(),
  })
  .strict();

export interface IssuedInvitation {
  /** Path of the link under the console's origin: `/invitations/<token>`. Shown once. */
  path: string;
  expiresAt: string;
  /** True when the notifications hook delivered it. */
  sent: boolean;
}

export async function listAccounts(deps: AccountDeps, principal: Principal): Promise<AccountView[]> {
  await requireAccountAdministrator(deps, principal);
  const accounts = await deps.accounts.store.listAccounts();
  return accounts.map(viewOf).sort((a, b) => a.email.localeCompare(b.email));
}

export async function getAccount(
  deps: AccountDeps,
  principal: Principal,
  userId: string,
): Promise<AccountView> {
  if (principal.kind !== 'user' || principal.id !== userId)
    await requireAccountAdministrator(deps, principal);
  return viewOf(await loadAccount(deps, userId));
}

export async function createAccount(
  deps: AccountDeps,
  principal: Principal,
  input: z.infer<typeof createAccountSchema>,
): Promise<{ account: AccountView; invitation?: IssuedInvitation }> {
  await requireAccountAdministrator(deps, principal);
  if (input.password !== undefined) requireAcceptablePassword(input.password, input.email);
  const user = await findOrCreateUser(deps, input.email, input.name ?? input.email.split('@')[0]!);
  const existing = await deps.accounts.store.getAccount(user.id);
  if (existing && (existing.passwordHash || existing.invitation)) {
    throw new DoguError('state_conflict', `An account for '${input.email}' exists already.`, {
      errors: [{ pointer: '#/email', detail: 'An account with this address exists already.' }],
    });
  }
  const base = existing ?? (await ensureAccount(deps, user));
  const named: Account = {
    ...base,
    name: input.name ?? base.name,
    administrator: input.administrator ?? false,
  };
  if (input.password !== undefined) {
    const saved = await saveOver(deps, base, {
      ...named,
      passwordHash: await deps.accounts.hasher.hash(input.password),
    });
    return { account: viewOf(saved) };
  }
  const { account, invitation } = await issueInvitation(deps, principal, base, named);
  return { account: viewOf(account), invitation };
}

/** A new link for the account; the previous one stops working. Also how an administrator resets a password. */
export async function reinvite(
  deps: AccountDeps,
  principal: Principal,
  userId: string,
): Promise<{ account: AccountView; invitation: IssuedInvitation }> {
  await requireAccountAdministrator(deps, principal);
  const current = await loadAccount(deps, userId);
  if (current.disabled) throw new DoguError('state_conflict', 'Enable the account before inviting it again.');
  const { account, invitation } = await issueInvitation(deps, principal, current, current);
  return { account: viewOf(account), invitation };
}

async function issueInvitation(deps: AccountDeps, principal: Principal, current: Account, next: Account) {
  const token = newLinkToken();
  const tokenHash = hashOfToken(token);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.accounts.invitationSeconds * 1000).toISOString();
  const invitedBy = { id: principal.id, email: principal.email };
  await deps.accounts.store.putInvitation({ tokenHash, userId: current.userId, expiresAt });
  const account = await saveOver(deps, current, {
    ...next,
    invitation: { tokenHash, createdAt: now.toISOString(), expiresAt, createdBy: invitedBy },
  });
  const path = `/invitations/${token}`;
  const sent = deps.accounts.sendInvitation
    ? await deps.accounts
        .sendInvitation({ email: account.email, name: account.name, path, expiresAt, invitedBy })
        .catch(() => false)
    : false;
  return { account, invitation: { path, expiresAt, sent } };
}

export async function updateAccount(
  deps: AccountDeps,
  principal: Principal,
  userId: string,
  input: z.infer<typeof updateAccountSchema>,
): Promise<AccountView> {
  await requireAccountAdministrator(deps, principal);
  const current = await loadAccount(deps, userId);
  const losesAdministration =
    (input.disabled === true && current.administrator) ||
    (input.administrator === false && current.administrator);
  if (losesAdministration) {
    if (userId === principal.id) {
      throw forbidden('You cannot disable yourself or take away your own administrator flag.');
    }
    const others = (await deps.accounts.store.listAccounts()).filter(
      (a) => a.administrator && !a.disabled && a.userId !== userId,
    );
    if (others.length === 0)
      throw new DoguError('state_conflict', 'The last account administrator must stay.');
  }
  const disabling = input.disabled === true && !current.disabled;
  const next: Account = {
    ...current,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.administrator !== undefined ? { administrator: input.administrator } : {}),
    // Disabling ends every session and token at once; enabling does not bring them back.
    ...(disabling ? { tokenGeneration: current.tokenGeneration + 1 } : {}),
  };
  if (input.disabled !== undefined) {
    if (input.disabled) next.disabled = true;
    else delete next.disabled;
  }
  return viewOf(await saveOver(deps, current, next));
}

/** Ends every session and token of the user (the user themself, or an administrator). */
export async function revokeSessions(
  deps: AccountDeps,
  principal: Principal,
  userId: string,
): Promise<AccountView> {
  if (principal.kind !== 'user' || principal.id !== userId)
    await requireAccountAdministrator(deps, principal);
  const current = await loadAccount(deps, userId);
  return viewOf(await saveOver(deps, current, { ...current, tokenGeneration: current.tokenGeneration + 1 }));
}
