/** E-mail on the embedded runtime: each target's own SMTP server, through nodemailer (loaded on first use). */
import { DoguError } from '../../domain/errors.ts';
import type { MailMessage } from '../../domain/notifications/ports.ts';
import type { Mailer } from './http-notification-channels.ts';
import { checkedTargetAddresses } from './target-address.ts';

export class SmtpMailer implements Mailer {
  async send(message: MailMessage): Promise<void> {
    if (!message.smtp) {
      throw new DoguError(
        'bad_request',
        'This e-mail target has no SMTP server: set its host and port in the notification settings.',
      );
    }
    const { smtp } = message;
    // The address is checked, then connected to as checked (a name that resolves again could point
    // elsewhere by then); TLS still verifies the certificate against the host's name.
    const addresses = await checkedTargetAddresses(smtp.host, message.allowPrivateNetworks, smtp.host);
    if (!addresses?.[0]) {
      throw new DoguError('data_source_error', `The SMTP server ${smtp.host} could not be resolved.`);
    }
    const { createTransport } = await import('nodemailer');
    const transport = createTransport({
      host: addresses[0],
      tls: { servername: smtp.host },
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.username ? { auth: { user: smtp.username, pass: smtp.password ?? '' } } : {}),
      connectionTimeout: message.timeoutMs,
      greetingTimeout: message.timeoutMs,
      socketTimeout: message.timeoutMs,
    });
    try {
      await transport.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    } catch (error) {
      throw new DoguError(
        'data_source_error',
        `The SMTP server ${smtp.host}:${smtp.port} refused the message: ${smtpReason(error)}.`,
      );
    } finally {
      transport.close();
    }
  }
}

/** nodemailer's error, without anything the server echoed about credentials. */
function smtpReason(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  if (code === 'EAUTH') return 'authentication failed (check the user name and password)';
  if (code === 'ETIMEDOUT') return 'it did not answer in time';
  if (code === 'ECONNECTION' || code === 'ESOCKET') return 'it could not be reached';
  if (responseCode) return `it answered ${responseCode}`;
  return code ? `error ${code}` : 'unknown error';
}
