/**
 * E-mail notifications: SMTP through nodemailer to a real SMTP server started here (login checked
 * by the server), and SES v2 through a mocked client with the exact SendEmail request.
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SesMailer } from '../../shared/adapters/notifications/ses-mailer.ts';
import { SmtpMailer } from '../../shared/adapters/notifications/smtp-mailer.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { mailOf, testPayload } from '../../shared/domain/notifications/messages.ts';
import { startSmtpReceiver } from '../support/smtp-receiver.ts';

const login = { user: 'dogu', password: 'smtp-password-123' };
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpReceiver(login);
});
afterAll(() => smtp?.close());

const mail = mailOf(testPayload('ntf_0193', 'demo', '2026-11-26T00:00:00.000Z'));

describe('SMTP mailer', () => {
  it('delivers the message through the target server with its login', async () => {
    await new SmtpMailer().send({
      from: 'dogu@example.com',
      to: ['ops@example.com', 'oncall@example.com'],
      ...mail,
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        username: login.user,
        password: login.password,
      },
      allowPrivateNetworks: true,
      timeoutMs: 5_000,
    });
    expect(smtp.messages).toHaveLength(1);
    const [message] = smtp.messages;
    expect(message).toMatchObject({
      from: 'dogu@example.com',
      to: ['ops@example.com', 'oncall@example.com'],
    });
    expect(message!.data).toContain("Subject: [Dogu] Test notification from Dogu project 'demo'.");
    expect(message!.data).toContain('Delivery: ntf_0193');
  });

  it('says why a wrong password fails, without repeating it', async () => {
    const attempt = new SmtpMailer().send({
      from: 'dogu@example.com',
      to: ['ops@example.com'],
      ...mail,
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        username: login.user,
        password: 'wrong-pass',
      },
      allowPrivateNetworks: true,
      timeoutMs: 5_000,
    });
    await expect(attempt).rejects.toThrow(DoguError);
    await expect(attempt).rejects.toThrow(/authentication failed/);
    await expect(attempt).rejects.not.toThrow(/wrong-pass/);
  });

  it('refuses a target without an SMTP server', async () => {
    await expect(
      new SmtpMailer().send({
        from: 'a@example.com',
        to: ['b@example.com'],
        ...mail,
        allowPrivateNetworks: true,
        timeoutMs: 1_000,
      }),
    ).rejects.toThrow(/no SMTP server/);
  });

  it('follows the webhook address rule at delivery, one answer whatever the port (issue 24, item 10)', async () => {
    const sendTo = (host: string, port: number, allowPrivateNetworks: boolean) =>
      new SmtpMailer().send({
        from: 'a@example.com',
        to: ['b@example.com'],
        ...mail,
        smtp: { host, port, secure: false, username: login.user, password: login.password },
        allowPrivateNetworks,
        timeoutMs: 2_000,
      });
    const before = smtp.messages.length;
    // A listening port, a closed one and one nobody answers on all get the same refusal: no connection.
    const answers = await Promise.all(
      [smtp.port, 1, 9].map((port) =>
        sendTo('127.0.0.1', port, false).catch((error: Error) => error.message),
      ),
    );
    expect(new Set(answers)).toEqual(
      new Set([
        "The target 127.0.0.1 is on a loopback or private network; an admin must allow private network targets in the project's notification settings first.",
      ]),
    );
    for (const host of ['169.254.169.254', '[::ffff:169.254.169.254]', 'fd00:ec2::254']) {
      await expect(sendTo(host, 25, true)).rejects.toThrow(/link-local or cloud metadata address/);
    }
    await expect(sendTo('localhost', smtp.port, false)).rejects.toThrow(/loopback or private network/);
    expect(smtp.messages.length).toBe(before);
    // Allowed by the project: delivered, to the address that was checked.
    await sendTo('localhost', smtp.port, true);
    expect(smtp.messages.length).toBe(before + 1);
  });
});

describe('SES mailer', () => {
  const ses = mockClient(SESv2Client);
  afterEach(() => ses.reset());

  it('sends one SendEmail request with the exact content', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await new SesMailer().send({
      from: 'dogu@example.com',
      to: ['ops@example.com'],
      subject: 'S',
      text: 'T',
      smtp: { host: 'ignored', port: 25, secure: false },
      allowPrivateNetworks: true,
      timeoutMs: 5_000,
    });
    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input)).toEqual([
      {
        FromEmailAddress: 'dogu@example.com',
        Destination: { ToAddresses: ['ops@example.com'] },
        Content: {
          Simple: {
            Subject: { Data: 'S', Charset: 'UTF-8' },
            Body: { Text: { Data: 'T', Charset: 'UTF-8' } },
          },
        },
      },
    ]);
  });

  it('turns an SES refusal into a message naming it', async () => {
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    await expect(
      new SesMailer().send({
        from: 'x@example.com',
        to: ['y@example.com'],
        subject: 'S',
        text: 'T',
        allowPrivateNetworks: true,
        timeoutMs: 5_000,
      }),
    ).rejects.toThrow('SES did not send the message (MessageRejected).');
  });
});
