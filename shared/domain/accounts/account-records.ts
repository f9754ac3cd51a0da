/** Reading and writing account records: views without secrets, conditional saves, user creation. */
import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { DoguError, forbidden, notFound } from '../errors.ts';
import type { Principal, User } from '../model.ts';
import { AlreadyExistsError } from '../ports.ts';
import type { AccountDeps } from './deps.ts';
import type { Account } from './model.ts';

export type AccountStatus = 'invited' | 'active' | 'disabled' | 'single_sign_on';

export interface AccountView {
  userId: string;
  email: string;
  name: string;
  administrator: boolean;
  status: AccountStatus;
  hasPassword: boolean;
  invitationExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
}

export function statusOf(account: Account): AccountStatus {
  if (account.disabled) return 'disabled';
  if (account.passwordHash) return 'active';
  if (account.invitation) return 'invited';
  return 'single_sign_on';
}

export const viewOf = (account: Account): AccountView => ({
  userId: account.userId,
  email: account.email,
  name: account.name,
  administrator: account.administrator,
  status: statusOf(account),
  hasPassword: account.passwordHash !== undefined,
  ...(account.invitation ? { invitationExpiresAt: account.invitation.expiresAt } : {}),
  createdAt: account.createdAt,
  updatedAt: account.updatedAt,
});

export const hashOfToken = (token: string) => createHash('sha256').update(token).digest('base64url');
export const newLinkToken = () => randomBytes(32).toString('base64url');

/** The caller's own account, which must be an enabled administrator's. */
export async function requireAccountAdministrator(deps: AccountDeps, principal: Principal): Promise<Account> {
  const account = principal.kind === 'user' ? await deps.accounts.store.getAccount(principal.id) : undefined;
  const named = deps.accounts.administratorEmails.includes(principal.email.toLowerCase());
  if (!account || account.disabled || !(account.administrator || named)) {
    throw forbidden('Only an account administrator may manage accounts and single sign-on.');
  }
  return account;
}

export async function loadAccount(deps: AccountDeps, userId: string): Promise<Account> {
  const account = await deps.accounts.store.getAccount(userId);
  if (!account) throw notFound('User account', userId);
  return account;
}

/** Saves `next` over `current` (version + 1); 409 when someone else saved in between. */
export async function saveOver(
  deps: AccountDeps,
  current: Account | undefined,
  next: Account,
): Promise<Account> {
  const saved = { ...next, version: (current?.version ?? 0) + 1, updatedAt: deps.clock.now().toISOString() };
  if (!(await deps.accounts.store.saveAccount(saved, current?.version ?? 0))) {
    throw new DoguError(
      'state_conflict',
      `The account '${next.email}' was changed at the same time; try again.`,
    );
  }
  deps.accounts.access.forget(next.userId);
  return saved;
}

const oneAddress = z.email().max(254);
/**
 * Whether a text is exactly one e-mail address: `x@evil.com@corp.example`, a line break, a display
 * name or a list are not (an account is keyed by its address, and a domain is read from it).
 */
export const isOneEmailAddress = (text: string) => oneAddress.safeParse(text).success;

/** The user with this address, created when there is none (concurrent creations end with one). */
export async function findOrCreateUser(deps: AccountDeps, email: string, name: string): Promise<User> {
  if (!isOneEmailAddress(email)) {
    throw forbidden(
      `${JSON.stringify(email.slice(0, 254))} is not one valid e-mail address; no account is made for it.`,
    );
  }
  const existing = await deps.store.getUserByEmail(email);
  if (existing) return existing;
  try {
    return await deps.store.createUser({
      id: deps.ids.next('usr'),
      email,
      name,
      createdAt: deps.clock.now().toISOString(),
    });
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    const created = await deps.store.getUserByEmail(email);
    if (!created) throw error;
    return created;
  }
}

/** The account of a user, made on first need (users who came by SSO or the loopback login). */
export async function ensureAccount(
  deps: AccountDeps,
  user: User,
  initial: Partial<Pick<Account, 'administrator' | 'ssoProvisioned'>> = {},
): Promise<Account> {
  const existing = await deps.accounts.store.getAccount(user.id);
  if (existing) return existing;
  const now = deps.clock.now().toISOString();
  const account: Account = {
    userId: user.id,
    email: user.email.toLowerCase(),
    name: user.name,
    administrator: initial.administrator ?? false,
    ...(initial.ssoProvisioned ? { ssoProvisioned: true } : {}),
    tokenGeneration: 0,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  if (await deps.accounts.store.saveAccount(account, 0)) return account;
  return (await deps.accounts.store.getAccount(user.id)) ?? account;
}
