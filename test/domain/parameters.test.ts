import { describe, expect, it } from 'vitest';
import type { ParameterDefinition } from '../../shared/domain/definitions/parameter.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { bindArguments } from '../../shared/domain/parameters.ts';

const context = { system: { 'currentUser.email': 'ann@example.com', executionId: 'exe_1' } };
const bind = (parameters: ParameterDefinition[], args: Record<string, unknown>) =>
  bindArguments(parameters, args, context);

function refusals(parameters: ParameterDefinition[], args: Record<string, unknown>) {
  try {
    bind(parameters, args);
  } catch (error) {
    expect(error).toBeInstanceOf(DoguError);
    expect((error as DoguError).code).toBe('argument_invalid');
    return (error as DoguError).errors;
  }
  throw new Error('expected the arguments to be refused');
}
const one = (parameter: ParameterDefinition, value: unknown) =>
  refusals([parameter], { [parameter.name]: value })?.[0]?.detail;

describe('bindArguments: values per kind', () => {
  it.each<[string, ParameterDefinition, unknown, unknown]>([
    ['text', { name: 'p', kind: 'text' }, 'paid', 'paid'],
    ['text not entered → ""', { name: 'p', kind: 'text' }, undefined, ''],
    ['text default', { name: 'p', kind: 'text', default: 'x' }, undefined, 'x'],
    ['number', { name: 'p', kind: 'number' }, 5, 5],
    ['number zero is a value', { name: 'p', kind: 'number', default: 7 }, 0, 0],
    ['number not entered → null', { name: 'p', kind: 'number' }, null, null],
    ['boolean', { name: 'p', kind: 'boolean' }, true, true],
    ['boolean not entered → false', { name: 'p', kind: 'boolean' }, undefined, false],
    ['date text kept', { name: 'p', kind: 'date' }, '2026-11-22', '2026-11-22'],
    ['date not entered → ""', { name: 'p', kind: 'date' }, undefined, ''],
    [
      'date as unixtime',
      { name: 'p', kind: 'date', useAsUnixtime: true },
      '2026-11-22T00:00:00Z',
      1_795_305_600,
    ],
    [
      'date with offset as unixtime',
      { name: 'p', kind: 'date', useAsUnixtime: true },
      '2026-11-22T09:00:00+09:00',
      1_795_305_600,
    ],
    [
      'date without zone is UTC',
      { name: 'p', kind: 'date', useAsUnixtime: true },
      '2026-11-22T00:00:00',
      1_795_305_600,
    ],
    ['date unixtime not entered → null', { name: 'p', kind: 'date', useAsUnixtime: true }, undefined, null],
    ['date from unix seconds', { name: 'p', kind: 'date' }, 1_795_305_600, '2026-11-22T00:00:00.000Z'],
    ['array', { name: 'p', kind: 'array', itemKind: 'number', format: 'sql' }, [1, 2], [1, 2]],
    ['array not entered → []', { name: 'p', kind: 'array', itemKind: 'text', format: 'json' }, undefined, []],
    [
      'tuple',
      { name: 'p', kind: 'tuple', items: [{ kind: 'text' }, { kind: 'number' }], format: 'json' },
      ['a', 1],
      ['a', 1],
    ],
    ['sql', { name: 'p', kind: 'sql' }, 'ORDER BY id', 'ORDER BY id'],
    ['json', { name: 'p', kind: 'json' }, { a: [1] }, { a: [1] }],
    ['json not entered → null', { name: 'p', kind: 'json' }, undefined, null],
    ['system', { name: 'p', kind: 'system', value: 'currentUser.email' }, undefined, 'ann@example.com'],
    [
      'choice label → value',
      { name: 'p', kind: 'text', choices: [{ value: 'paid', label: 'Paid' }] },
      'Paid',
      'paid',
    ],
    [
      'number choice by label',
      { name: 'p', kind: 'number', choices: [{ value: 1, label: 'One' }] },
      'One',
      1,
    ],
  ])('%s', (_name, parameter, value, expected) => {
    expect(bind([parameter], value === undefined ? {} : { p: value })).toEqual({ p: expected });
  });

  it('binds a file as name, type, size and content', () => {
    const file = {
      name: 'a.csv',
      contentType: 'text/csv',
      contentBase64: Buffer.from('a,b\n').toString('base64'),
    };
    expect(bind([{ name: 'p', kind: 'file' }], { p: file })).toEqual({ p: { ...file, size: 4 } });
  });

  it('uses master data for choices', () => {
    const parameter: ParameterDefinition = { name: 'p', kind: 'text', masterData: 'statuses' };
    const masterData = { statuses: [{ value: 'S', label: 'Shipped' }] };
    expect(bindArguments([parameter], { p: 'Shipped' }, { system: {}, masterData })).toEqual({ p: 'S' });
  });
});

describe('bindArguments: refusals name the parameter and the rule', () => {
  it.each<[string, ParameterDefinition, unknown, string]>([
    ['text not a string', { name: 'p', kind: 'text' }, 42, "'p' must be a string."],
    ['required text', { name: 'p', kind: 'text', required: true }, '', "'p' is required."],
    ['pattern', { name: 'p', kind: 'text', pattern: '[a-z]+' }, 'ab1', "'p' must match the pattern [a-z]+."],
    [
      'NUL in text',
      { name: 'p', kind: 'text' },
      'a\u0000b',
      "'p' must not contain the NUL character (U+0000).",
    ],
    [
      'NUL in an item',
      { name: 'p', kind: 'array', itemKind: 'text', format: 'json' },
      ['\u0000'],
      "'p' item 0 must not contain the NUL",
    ],
    [
      'identifier',
      { name: 'p', kind: 'text', identifier: true },
      'orders; DROP TABLE x',
      "'p' must be a name",
    ],
    [
      'choice',
      { name: 'p', kind: 'text', choices: [{ value: 'a', label: 'A' }] },
      'b',
      `'p' must be one of "a".`,
    ],
    ['number as string', { name: 'p', kind: 'number' }, '5', "'p' must be a finite number."],
    [
      'number infinite',
      { name: 'p', kind: 'number' },
      Number.POSITIVE_INFINITY,
      "'p' must be a finite number.",
    ],
    ['integer', { name: 'p', kind: 'number', integer: true }, 1.5, "'p' must be a whole number."],
    ['min', { name: 'p', kind: 'number', min: 1 }, 0, "'p' must be at least 1."],
    ['max', { name: 'p', kind: 'number', max: 10 }, 11, "'p' must be at most 10."],
    ['boolean', { name: 'p', kind: 'boolean' }, 'true', "'p' must be true or false."],
    ['date', { name: 'p', kind: 'date' }, 'next tuesday', "'p' must be a date"],
    ['impossible date', { name: 'p', kind: 'date' }, '2026-13-45', "'p' is not a valid date"],
    ['array', { name: 'p', kind: 'array', itemKind: 'number', format: 'sql' }, 'x', "'p' must be an array."],
    [
      'array item',
      { name: 'p', kind: 'array', itemKind: 'number', format: 'sql' },
      [1, 'x'],
      "'p' item 1 must be a finite number.",
    ],
    [
      'array max',
      { name: 'p', kind: 'array', itemKind: 'text', format: 'json', maxItems: 1 },
      ['a', 'b'],
      "'p' may have at most 1 items.",
    ],
    [
      'tuple length',
      { name: 'p', kind: 'tuple', items: [{ kind: 'text' }], format: 'json' },
      ['a', 'b'],
      "'p' must have exactly 1 items.",
    ],
    ['sql', { name: 'p', kind: 'sql' }, 5, "'p' must be a string of SQL."],
    ['file shape', { name: 'p', kind: 'file' }, 'abc', "'p' must be {"],
    [
      'file type',
      { name: 'p', kind: 'file', accept: ['image/*'] },
      { name: 'a', contentType: 'text/csv', contentBase64: '' + 'YQ==' },
      "'p' must be of type image/*",
    ],
    [
      'file size',
      { name: 'p', kind: 'file', maxBytes: 1 },
      { name: 'a', contentType: 'x/y', contentBase64: 'YWI=' },
      "'p' is 2 bytes",
    ],
  ])('%s', (_name, parameter, value, detail) => {
    expect(one(parameter, value)).toContain(detail);
  });

  it('refuses a value for a system parameter and arguments that are not parameters', () => {
    const errors = refusals([{ name: 's', kind: 'system', value: 'now' }], { s: 'x', 'a/b~c': 1 });
    expect(errors).toEqual([
      { pointer: '#/arguments/s', detail: "'s' is a system value and cannot be given." },
      { pointer: '#/arguments/a~1b~0c', detail: "'a/b~c' is not a parameter of this action." },
    ]);
  });

  it('reports every invalid argument at once', () => {
    const errors = refusals(
      [
        { name: 'a', kind: 'text' },
        { name: 'b', kind: 'number' },
      ],
      { a: 1, b: 'x', c: true },
    );
    expect(errors?.map((e) => e.pointer).sort()).toEqual(['#/arguments/a', '#/arguments/b', '#/arguments/c']);
  });
});

describe('bindArguments: dates that do not exist are refused, not rolled over (dates.ts)', () => {
  const day: ParameterDefinition = { name: 'd', kind: 'date' };
  const unix: ParameterDefinition = { name: 'd', kind: 'date', useAsUnixtime: true };
  it.each<[string, unknown]>([
    ['30 February', '2026-02-30'],
    ['29 February of a common year', '2026-02-29'],
    ['31 April', '2026-04-31T10:00:00Z'],
    ['hour 24', '2026-11-22T24:00:00Z'],
    ['minute 60', '2026-11-22T09:60'],
    ['offset hour 24', '2026-11-22T09:00:00+24:00'],
    ['month 0', '2026-00-10'],
  ])('%s', (_name, value) => {
    expect(one(day, value)).toBe("'d' is not a valid date: no such day or time on the calendar.");
    expect(one(unix, value)).toBe("'d' is not a valid date: no such day or time on the calendar.");
  });

  it('keeps real dates, leap days included', () => {
    expect(bind([day], { d: '2028-02-29' })).toEqual({ d: '2028-02-29' });
    expect(bind([unix], { d: '2026-11-22T09:00:00+09:00' })).toEqual({ d: 1_795_305_600 });
    expect(bind([unix], { d: '2026-11-22 00:00' })).toEqual({ d: 1_795_305_600 });
  });

  it('refuses Unix seconds outside the years 0001–9999 with a 4xx, where toISOString() threw', () => {
    for (const seconds of [1e20, -1e20, 8.64e12 + 1, 253_402_300_800]) {
      expect(one(day, seconds)).toMatch(/^'d' must lie between the years 0001 and 9999 \(Unix seconds /);
      expect(one(unix, seconds)).toMatch(/^'d' must lie between the years 0001 and 9999/);
    }
    expect(bind([day], { d: 253_402_300_799 })).toEqual({ d: '9999-12-31T23:59:59.000Z' });
  });
});

describe('bindArguments: patterns run on a linear-time matcher (docs/decisions/0027)', () => {
  const words: ParameterDefinition = { name: 'w', kind: 'text', pattern: '(\\w+\\s?)*' };
  it('answers the catastrophic-backtracking case at once and still matches what it should', () => {
    // No clock: a backtracking matcher needs about half a second for 26 characters and three times
    // more per two characters, so for 64 it would run for days and this test would time out.
    expect(one(words, `${'a'.repeat(64)}!`)).toBe("'w' must match the pattern (\\w+\\s?)*.");
    expect(bind([words], { w: 'two words' })).toEqual({ w: 'two words' });
  });

  it('matches the whole value, by code point', () => {
    const code: ParameterDefinition = { name: 'c', kind: 'text', pattern: '[A-Z]{3}|\\p{Han}+' };
    expect(bind([code], { c: 'ABC' })).toEqual({ c: 'ABC' });
    expect(bind([code], { c: '日本' })).toEqual({ c: '日本' });
    expect(one(code, 'ABCD')).toBe("'c' must match the pattern [A-Z]{3}|\\p{Han}+.");
  });

  it('refuses a value longer than a pattern is checked against', () => {
    expect(one(words, 'a'.repeat(10_001))).toBe(
      "'w' is longer than 10000 characters, the most a pattern is checked against.",
    );
  });

  it('refuses to run a stored pattern RE2 cannot read, as a definition problem', () => {
    const stored: ParameterDefinition = { name: 'b', kind: 'text', pattern: '(a)\\1' };
    expect(() => bind([stored], { b: 'aa' })).toThrow(
      expect.objectContaining({ code: 'invalid_definition' }) as unknown as Error,
    );
  });
});
