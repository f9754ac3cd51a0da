/** Invitation links by e-mail when the deployment names a sender: SMTP on the embedded runtime. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';
import { startSmtpReceiver } from '../support/smtp-receiver.ts';

const mailEnv = [
  'DOGU_MAIL_FROM',
  'DOGU_SMTP_HOST',
  'DOGU_SMTP_PORT',
  'DOGU_SMTP_USER',
  'DOGU_SMTP_PASSWORD',
];
const saved = Object.fromEntries(mailEnv.map((name) => [name, process.env[name]]));
let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

/** The text of a quoted-printable body (soft line breaks joined, =XX bytes decoded as UTF-8). */
const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

beforeAll(async () => {
  smtp = await startSmtpReceiver({ user: 'dogu', password: 'mail-secret' });
  Object.assign(process.env, {
    DOGU_MAIL_FROM: 'dogu@example.com',
    DOGU_SMTP_HOST: '127.0.0.1',
    DOGU_SMTP_PORT: String(smtp.port),
    DOGU_SMTP_USER: 'dogu',
    DOGU_SMTP_PASSWORD: 'mail-secret',
  });
  dir = await tempDir('invitation-mail');
  runtime = await startTestRuntime(dir.path);
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await smtp?.close();
  for (const name of mailEnv) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('invitation e-mail', () => {
  it('sends the link in English and Japanese, and the link sets a password', async () => {
    const admin = apiClient(runtime, await loginToken(runtime));
    const invited = await admin.post('/api/v1/users', { email: 'kenji@example.com', name: 'Kenji' });
    expect(invited.status).toBe(201);
    expect(invited.body.invitation.sent).toBe(true);
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail).toMatchObject({ from: 'dogu@example.com', to: ['kenji@example.com'] });
    const text = decodeQuotedPrintable(mail.data);
    const link = `${runtime.url}${invited.body.invitation.path}`;
    expect(text).toContain(link);
    expect(text).toContain('Dogu に招待しました');
    expect(text).not.toContain('mail-secret');

    const token = invited.body.invitation.path.split('/').pop();
    const accepted = await fetch(`${runtime.url}/auth/invitations/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'a long enough passphrase 42' }),
    });
    expect(accepted.status).toBeLessThan(300);
  });

  it('a mail server that refuses the login leaves the link to copy (sent: false), never failing the invitation', async () => {
    process.env.DOGU_SMTP_PASSWORD = 'wrong';
    await runtime.close();
    runtime = await startTestRuntime(dir.path);
    const admin = apiClient(runtime, await loginToken(runtime));
    const invited = await admin.post('/api/v1/users', { email: 'mei@example.com', name: 'Mei' });
    expect(invited.status).toBe(201);
    expect(invited.body.invitation).toMatchObject({ sent: false });
    expect(invited.body.invitation.path).toMatch(/^\/invitations\//);
    expect(smtp.messages).toHaveLength(1);
  });
});
