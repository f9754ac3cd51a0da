/** The account services of a runtime: the store, scrypt, the sign-in limiter and the access check. */
import type { AccountServices } from '../../domain/accounts/deps.ts';
import type { AccountStore } from '../../domain/accounts/model.ts';
import { defaultSignInLimits, SignInLimiter } from '../../domain/accounts/sign-in-limiter.ts';
import { UserAccessChecker } from '../../domain/accounts/user-access.ts';
import type { Mailer } from '../notifications/http-notification-channels.ts';
import { type InvitationMailSettings, invitationMailSender } from './invitation-mail.ts';
import { scryptHasher } from './password-hasher.ts';

export function createAccountServices(
  store: AccountStore,
  accessCacheMs: number,
  env: NodeJS.ProcessEnv = process.env,
): AccountServices {
  const hours = Number(env.DOGU_INVITATION_HOURS ?? 72);
  return {
    store,
    hasher: scryptHasher,
    limiter: new SignInLimiter({
      ...defaultSignInLimits,
      perAccount: positiveInteger(env.DOGU_SIGN_IN_LIMIT_PER_ACCOUNT, defaultSignInLimits.perAccount),
      perAddress: positiveInteger(env.DOGU_SIGN_IN_LIMIT_PER_IP, defaultSignInLimits.perAddress),
    }),
    access: new UserAccessChecker(
      store,
      Number.isFinite(accessCacheMs) && accessCacheMs >= 0 ? accessCacheMs : 5_000,
    ),
    administratorEmails: (env.DOGU_ACCOUNT_ADMINS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    invitationSeconds: Math.round(
      (Number.isFinite(hours) && hours > 0 ? Math.min(hours, 24 * 30) : 72) * 3600,
    ),
  };
}

/** Adds e-mail delivery of invitation links when the deployment names a sender. */
export function withInvitationMail(
  accounts: AccountServices,
  mailer: Mailer,
  settings: InvitationMailSettings | undefined,
): AccountServices {
  return settings ? { ...accounts, sendInvitation: invitationMailSender(mailer, settings) } : accounts;
}

/** A setting that is not a positive integer falls back to the default rather than locking everyone out. */
function positiveInteger(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}
