/**
 * Accounts at start (docs/accounts.md). The loopback administrator always has an account with the
 * administrator flag. In the demo (default) the seeded users — the administrator and a reviewer —
 * get the documented demo password, so a newcomer can sign in as either at once. With
 * `DOGU_ACCOUNTS=on` (a team's own accounts) no demo password exists: those set earlier are
 * removed, and while the administrator has no password an invitation link is made to print.
 */
import { ensureAccount, findOrCreateUser, saveOver } from '../shared/domain/accounts/account-records.ts';
import type { AccountDeps } from '../shared/domain/accounts/deps.ts';
import { reinvite } from '../shared/domain/accounts/manage-accounts.ts';
import { ensureLocalAdmin, principalOf } from '../shared/domain/local-login.ts';

export const demoReviewer = { email: 'reviewer@dogu.local', name: 'Demo Reviewer' };
/** Printed at start and in the README; only ever set while the demo accounts are on. */
export const demoPassword = 'try-dogu-demo-2026';

export function accountsConfigured(env: NodeJS.ProcessEnv): boolean {
  return env.DOGU_ACCOUNTS === 'on' || env.DOGU_ACCOUNTS === 'true';
}

export interface AccountsAtStart {
  /** Demo only: who can sign in with the demo password. */
  demoUsers: string[];
  /** Accounts mode, administrator without a password: where to set it. */
  adminInvitationPath?: string;
}

export async function prepareAccounts(
  deps: AccountDeps,
  options: { demo: boolean },
): Promise<AccountsAtStart> {
  const admin = await ensureLocalAdmin(deps);
  const adminAccount = await ensureAccount(deps, admin, { administrator: true });
  if (options.demo) {
    const reviewer = await findOrCreateUser(deps, demoReviewer.email, demoReviewer.name);
    const reviewerAccount = await ensureAccount(deps, reviewer);
    for (const account of [adminAccount, reviewerAccount]) {
      if (account.passwordHash) continue;
      const hash = await deps.accounts.hasher.hash(demoPassword);
      await saveOver(deps, account, { ...account, passwordHash: hash, demoPassword: true });
    }
    return { demoUsers: [admin.email, reviewer.email] };
  }
  for (const account of await deps.accounts.store.listAccounts()) {
    if (!account.demoPassword) continue;
    const { passwordHash: _removed, demoPassword: _flag, ...rest } = account;
    // Ending its sessions too: they were opened with a password everyone knows.
    await saveOver(deps, account, { ...rest, tokenGeneration: account.tokenGeneration + 1 });
  }
  const current = await deps.accounts.store.getAccount(admin.id);
  if (current?.passwordHash || current?.disabled) return { demoUsers: [] };
  const { invitation } = await reinvite(deps, principalOf(admin), admin.id);
  return { demoUsers: [], adminInvitationPath: invitation.path };
}
