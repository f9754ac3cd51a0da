/**
 * Password rules (docs/accounts.md, NIST SP 800-63B 3.1.1.2): length only, no composition rules;
 * refused when it is a well-known password, a run of one character, or contains the e-mail
 * address or its local part. Counted in Unicode code points, so a Japanese passphrase is fine.
 */
import { DoguError } from '../errors.ts';

export const passwordLength = { min: 12, max: 256 };

/** The most common passwords of public breach corpora that reach 12 characters, and obvious variants. */
const commonPasswords = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123456789012345',
  '1234567890123456',
  '123123123123',
  '111111111111',
  '000000000000',
  '123412341234',
  '1q2w3e4r5t6y',
  'qwertyuiopas',
  'qwertyuiop123',
  'qwerty123456',
  'qwertyuiop12',
  'asdfghjkl123',
  'asdfasdfasdf',
  'zxcvbnm12345',
  '1qaz2wsx3edc',
  'qazwsxedcrfv',
  'password1234',
  'password12345',
  'password123456',
  'passwordpassword',
  'password1password',
  'p@ssw0rd1234',
  'p@ssword1234',
  'iloveyou1234',
  'letmein12345',
  'welcome12345',
  'welcome123456',
  'administrator',
  'administrator1',
  'admin1234567',
  'adminadmin123',
  'changeme1234',
  'changeme123456',
  'trustno11234',
  'football1234',
  'baseball1234',
  'sunshine1234',
  'princess1234',
  'starwars1234',
  'dragon123456',
  'monkey123456',
  'abc123456789',
  'abcdefghijkl',
  'abcd12345678',
  'aaaaaaaaaaaa',
  'qwertyqwerty',
  'doguadmin123',
  'dogudogudogu',
  'dogu12345678',
]);

/** The reason a password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < passwordLength.min) return `The password must have at least ${passwordLength.min} characters.`;
  if (length > passwordLength.max) return `The password must have at most ${passwordLength.max} characters.`;
  const folded = password.normalize('NFKC').toLowerCase();
  if (commonPasswords.has(folded))
    return 'This password is on the list of commonly used passwords; choose another.';
  if (new Set(folded).size <= 2) return 'The password repeats one or two characters; choose another.';
  const address = email.toLowerCase();
  const local = address.split('@')[0] ?? '';
  if (folded.includes(address) || (local.length >= 4 && folded.includes(local))) {
    return 'The password must not contain your e-mail address or its name part.';
  }
  return undefined;
}

/** 422 with a JSON Pointer to the field, so the console can show it next to the input. */
export function requireAcceptablePassword(password: string, email: string, field = 'password'): void {
  const problem = passwordProblem(password, email);
  if (problem) {
    throw new DoguError('invalid_definition', `#/${field}: ${problem}`, {
      errors: [{ pointer: `#/${field}`, detail: problem }],
    });
  }
}
