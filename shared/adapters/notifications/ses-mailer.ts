/** E-mail on AWS: SES (v2 SendEmail) from the target's verified sender address; SMTP settings are ignored. */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { DoguError } from '../../domain/errors.ts';
import type { MailMessage } from '../../domain/notifications/ports.ts';
import type { Mailer } from './http-notification-channels.ts';

export class SesMailer implements Mailer {
  private client: Promise<SESv2Client> | undefined;

  constructor(private readonly makeClient?: () => SESv2Client) {}

  async send(message: MailMessage): Promise<void> {
    const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    this.client ??= Promise.resolve(this.makeClient?.() ?? new SESv2Client({}));
    const client = await this.client;
    try {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: message.from,
          Destination: { ToAddresses: message.to },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
        { abortSignal: AbortSignal.timeout(message.timeoutMs) },
      );
    } catch (error) {
      const name = (error as { name?: string }).name ?? 'error';
      throw new DoguError('data_source_error', `SES did not send the message (${name}).`);
    }
  }
}
