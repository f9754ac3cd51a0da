import { describe, expect, it } from 'vitest';
import { DoguError } from '../../shared/domain/errors.ts';
import { SecretRedactor } from '../../shared/domain/secret-redaction.ts';

const secret = `it's "a/b" ok`;
const redactor = new SecretRedactor([secret, '', undefined, 42]);

describe('SecretRedactor', () => {
  it('removes a secret as it is, JSON-escaped, SQL-quoted and URL-encoded', () => {
    for (const form of [
      secret,
      JSON.stringify(secret).slice(1, -1),
      'it\'\'s "a/b" ok',
      encodeURIComponent(secret),
    ]) {
      expect(redactor.text(`value: '${form}' refused`)).toBe(`value: '[secret]' refused`);
    }
  });

  it('removes a secret in any letter case and as engines quote or cut it (issue 24, item 9)', () => {
    const key = new SecretRedactor(['SK-Live-Abc\\9', '"QuotedKey"', `${'Long'.repeat(20)}Tail`]);
    for (const [echo, cleaned] of [
      ['relation "sk-live-abc\\9" does not exist', 'relation "[secret]" does not exist'],
      ["VALUE 'SK-LIVE-ABC\\9'", "VALUE '[secret]'"],
      ["Incorrect value: 'sk-live-abc\\\\9'", "Incorrect value: '[secret]'"],
      ['sk-live-abc%5C9 and sk-live-abc%5c9', '[secret] and [secret]'],
      ['relation "QuotedKey" does not exist', 'relation [secret] does not exist'],
      ['table quotedkey', 'table [secret]'],
      [`relation "${'long'.repeat(15)}lon" does not exist`, 'relation "[secret]" does not exist'],
    ] as const) {
      expect(key.text(echo)).toBe(cleaned);
    }
    // Other text is left alone, and regular-expression characters in a secret are plain characters.
    expect(new SecretRedactor(['a.c']).text('abc a.c A.C')).toBe('abc [secret] [secret]');
  });

  it('cleans statement errors and messages, not rows', () => {
    const [cleaned] = redactor.results([
      {
        title: 't',
        status: 'failed',
        columns: [],
        rows: [{ v: secret }],
        rowCount: 1,
        messages: [`note ${secret}`],
        error: { code: 'data_source_error', message: `bad ${secret}` },
      },
    ]);
    expect(cleaned).toMatchObject({ messages: ['note [secret]'], error: { message: 'bad [secret]' } });
    expect(cleaned!.rows).toEqual([{ v: secret }]);
  });

  it('cleans a thrown error in place, keeping its type, code and field errors', () => {
    const error = new DoguError('data_source_error', `no ${secret}`, {
      errors: [{ pointer: '/x', detail: `has ${secret}` }],
      cause: Object.assign(new Error(`cause ${secret}`), { detail: `pg detail ${secret}` }),
    });
    const cleaned = redactor.error(error);
    expect(cleaned).toBe(error);
    expect(cleaned.code).toBe('data_source_error');
    expect(cleaned.message).toBe('no [secret]');
    expect(cleaned.stack).not.toContain(secret);
    expect(cleaned.errors).toEqual([{ pointer: '/x', detail: 'has [secret]' }]);
    expect((cleaned.cause as Error & { detail: string }).detail).toBe('pg detail [secret]');
  });
});
