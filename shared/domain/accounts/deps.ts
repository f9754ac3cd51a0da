/** What the account use cases need; Services provides it (shared/runtime/services.ts). */
import type { AccessTokenIssuer } from '../identity/access-tokens.ts';
import type { Clock, IdGenerator, Store } from '../ports.ts';
import type { AccountStore, PasswordHasher } from './model.ts';
import type { SignInLimiter } from './sign-in-limiter.ts';
import type { UserAccessChecker } from './user-access.ts';

/** A new invitation, for whoever delivers it (e-mail when notifications are configured). */
export interface InvitationNotice {
  email: string;
  name: string;
  /** The path of the link under the console's origin: `/invitations/<token>`. */
  path: string;
  expiresAt: string;
  invitedBy: { id: string; email: string };
}

export interface AccountServices {
  store: AccountStore;
  hasher: PasswordHasher;
  limiter: SignInLimiter;
  access: UserAccessChecker;
  /**
   * Lower-case addresses that are account administrators whatever their record says
   * (DOGU_ACCOUNT_ADMINS): how a deployment without the loopback administrator (AWS) gets its first.
   */
  administratorEmails: readonly string[];
  /** How long an invitation link works. */
  invitationSeconds: number;
  /**
   * Hook for delivering invitations (the notifications work sends e-mail through it). Answers
   * whether it was sent; without it the link is only shown to the administrator to copy.
   */
  sendInvitation?: (notice: InvitationNotice) => Promise<boolean>;
}

export interface AccountDeps {
  store: Store;
  accounts: AccountServices;
  tokens: AccessTokenIssuer;
  clock: Clock;
  ids: IdGenerator;
  settings: { loginTokenSeconds: number };
}
