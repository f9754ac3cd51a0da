/**
 * Sends invitation links by e-mail when the deployment names a sender (DOGU_MAIL_FROM): through
 * SMTP on the embedded runtime (DOGU_SMTP_*), through SES on AWS. Without a sender the link is only
 * shown to the administrator, who passes it on.
 */
import type { InvitationNotice } from '../../domain/accounts/deps.ts';
import type { MailMessage } from '../../domain/notifications/ports.ts';
import type { Mailer } from '../notifications/http-notification-channels.ts';

export interface InvitationMailSettings {
  from: string;
  /** The console's origin, e.g. https://dogu.example.com; the link is this plus the notice's path. */
  consoleOrigin: () => string;
  smtp?: MailMessage['smtp'];
}

/** The settings from the environment, or undefined when no sender is configured. */
export function invitationMailFromEnv(
  env: NodeJS.ProcessEnv,
  consoleOrigin: () => string,
  transport: 'smtp' | 'ses',
): InvitationMailSettings | undefined {
  const from = env.DOGU_MAIL_FROM?.trim();
  if (!from) return undefined;
  const origin = () => (env.DOGU_PUBLIC_URL ? new URL(env.DOGU_PUBLIC_URL).origin : consoleOrigin());
  if (transport === 'ses') return { from, consoleOrigin: origin };
  const host = env.DOGU_SMTP_HOST?.trim();
  if (!host) return undefined;
  const secure = env.DOGU_SMTP_SECURE === 'true';
  const port = Number(env.DOGU_SMTP_PORT ?? (secure ? 465 : 587));
  return {
    from,
    consoleOrigin: origin,
    smtp: {
      host,
      port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 587,
      secure,
      ...(env.DOGU_SMTP_USER ? { username: env.DOGU_SMTP_USER, password: env.DOGU_SMTP_PASSWORD ?? '' } : {}),
    },
  };
}

/** The message: English first, then Japanese, as one plain-text body (no tracking, no HTML). */
export function invitationMessage(notice: InvitationNotice, settings: InvitationMailSettings): MailMessage {
  const link = `${settings.consoleOrigin()}${notice.path}`;
  const until = notice.expiresAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  return {
    from: settings.from,
    to: [notice.email],
    subject: 'You are invited to Dogu / Dogu への招待',
    // The operator's own relay (DOGU_SMTP_HOST), not a project's target: it may well be on localhost.
    allowPrivateNetworks: true,
    text: [
      `${notice.invitedBy.email} invited you to Dogu.`,
      `Set your password here (the link works once, until ${until}):`,
      link,
      '',
      `${notice.invitedBy.email} さんが Dogu に招待しました。`,
      `次のリンクでパスワードを設定してください（1 回限り、${until} まで有効）:`,
      link,
      '',
    ].join('\n'),
    ...(settings.smtp ? { smtp: settings.smtp } : {}),
    timeoutMs: 10_000,
  };
}

/** The accounts' `sendInvitation` hook: true when the mail server took the message. */
export function invitationMailSender(mailer: Mailer, settings: InvitationMailSettings) {
  return async (notice: InvitationNotice): Promise<boolean> => {
    await mailer.send(invitationMessage(notice, settings));
    return true;
  };
}
