/**
 * `dogu login --email <address>`: a password sign-in at any Dogu with accounts (docs/accounts.md).
 * The password comes from DOGU_PASSWORD (scripts) or is asked for on the terminal without echo.
 */
import { callApi } from '../api-client.ts';
import type { Credentials } from '../credentials.ts';

export async function passwordLogin(
  origin: string,
  email: string,
  password: string | undefined = process.env.DOGU_PASSWORD,
): Promise<Credentials> {
  const secret = password ?? (await askHidden(`Password for ${email}: `));
  const body = (await callApi(new URL('/public/v1/login/password', origin).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: secret }),
  })) as { token: string; email: string; expiresAt: number };
  return { token: body.token, email: body.email, expiresAt: body.expiresAt, url: origin, kind: 'password' };
}

async function askHidden(prompt: string): Promise<string> {
  const { stdin, stderr } = process;
  if (!stdin.isTTY) throw new Error('No terminal to ask for the password: set DOGU_PASSWORD.');
  stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  let typed = '';
  try {
    for await (const chunk of stdin) {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return typed;
        if (char === '\u0003') throw new Error('Cancelled.');
        if (char === '\u007f') typed = typed.slice(0, -1);
        else typed += char;
      }
    }
    return typed;
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    stderr.write('\n');
  }
}
