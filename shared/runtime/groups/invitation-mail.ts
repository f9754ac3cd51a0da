/**
 * Invitation links by e-mail (docs/accounts.md): only the functions that invite people compose
 * this group, so SES reaches no other bundle. The embedded runtime's accounts already send
 * through SMTP when DOGU_MAIL_FROM and DOGU_SMTP_HOST are set.
 */
import type { AccountServices } from '../../domain/accounts/deps.ts';
import type { ServiceGroup } from '../services.ts';

export const invitationMail: ServiceGroup<{ accounts: AccountServices }> = {
  name: 'invitation-mail',
  pick: ({ accounts }) => ({ accounts }),
  async createOnAws(core) {
    const [{ withInvitationMail }, { invitationMailFromEnv }, { SesMailer }] = await Promise.all([
      import('../../adapters/auth/account-services.ts'),
      import('../../adapters/auth/invitation-mail.ts'),
      import('../../adapters/notifications/ses-mailer.ts'),
    ]);
    const publicUrl = () => process.env.DOGU_PUBLIC_URL ?? '';
    return {
      accounts: withInvitationMail(
        core.accounts,
        new SesMailer(),
        invitationMailFromEnv(process.env, publicUrl, 'ses'),
      ),
    };
  },
};
