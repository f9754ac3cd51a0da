import { describe, expect, it } from 'vitest';
import type { DoguError } from '../../shared/domain/errors.ts';
import { firstUnkeptNumber, inexactNumbersIn, literalProblem } from '../../shared/domain/exact-numbers.ts';
import { bindArguments } from '../../shared/domain/parameters.ts';

describe('the number rule', () => {
  it('keeps numbers a double holds exactly as written', () => {
    for (const literal of [
      '0',
      '-0',
      '0.1',
      '1.50',
      '1e3',
      '9007199254740991',
      '-9007199254740991',
      '1e-130',
      '123.456',
    ]) {
      expect(literalProblem(literal), literal).toBeUndefined();
    }
  });

  it('refuses numbers that would change or that the store cannot hold', () => {
    expect(literalProblem('9007199254740993')).toContain('2^53');
    expect(literalProblem('1e308')).toContain('2^53');
    expect(literalProblem('1e400')).toContain('finite');
    expect(literalProblem('1e-200')).toContain('closer to zero');
    expect(literalProblem('0.12345678901234567891')).toContain('digits');
  });

  it('names each offending number by its JSON Pointer, in nested objects and arrays', () => {
    const text =
      '{"a":[1,{"b/c":"12345678901234567","d~":[0,2e308]}],"e\\"x":{"f":12345678901234567},"g":[[],7]}';
    JSON.parse(text);
    expect(inexactNumbersIn(text).map((n) => [n.pointer, n.literal])).toEqual([
      ['/a/1/d~0/1', '2e308'],
      ['/e"x/f', '12345678901234567'],
    ]);
  });

  it('reads deeply nested bodies without exhausting the stack', () => {
    const depth = 200_000;
    expect(inexactNumbersIn(`${'['.repeat(depth)}1${']'.repeat(depth)}`)).toEqual([]);
  });

  it('applies to number parameters whatever the source (defaults, stored jobs, query strings)', () => {
    const bind = (value: unknown, itemKind = false) =>
      bindArguments(
        [
          itemKind
            ? { name: 'n', kind: 'array', itemKind: 'number', format: 'json' }
            : { name: 'n', kind: 'number', default: 2 ** 60 },
        ],
        value === undefined ? {} : { n: value },
        { system: {} },
      );
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as DoguError).errors?.[0]?.detail;
      }
      return undefined;
    };
    expect(refusal(() => bind(undefined))).toBe(
      `'n' is ${2 ** 60}, which is beyond ±9007199254740991 (2^53−1), so it would not be kept exactly; send such amounts or ids as text.`,
    );
    expect(refusal(() => bind([1, 1e-200], true))).toMatch(/item 1 is 1e-200, which is closer to zero/);
    expect(bind(12.5)).toEqual({ n: 12.5 });
  });

  it('finds an unkept number in a stored value, not looking into binary data', () => {
    expect(firstUnkeptNumber({ a: [1, { 'b/c': 2 ** 60 }], d: new Uint8Array(3) })).toMatchObject({
      pointer: '/a/1/b~1c',
    });
    expect(firstUnkeptNumber({ a: [1, 2.5], d: new Uint8Array(3) })).toBeUndefined();
  });
});

describe('user JSON everywhere it is parsed (issue 24, item 7)', () => {
  it('parseExactJson keeps exact numbers and refuses rounded ones with their pointer', async () => {
    const { parseExactJson } = await import('../../shared/domain/exact-numbers.ts');
    expect(parseExactJson('{"a":[1,9007199254740991]}')).toEqual({
      ok: true,
      value: { a: [1, 9007199254740991] },
    });
    expect(parseExactJson('{"a":[1,9007199254740993]}')).toMatchObject({
      ok: false,
      inexact: { pointer: '/a/1', literal: '9007199254740993' },
      message: expect.stringMatching(/^\/a\/1: 9007199254740993 is beyond/),
    });
    expect(parseExactJson('{')).not.toHaveProperty('inexact');
  });

  it('the CLI refuses --arg id=9007199254740993 and sends the quoted form as text', async () => {
    const { parseArgumentPairs } = await import('../../cli/commands/execute.ts');
    expect(() => parseArgumentPairs(['id=9007199254740993'])).toThrow(
      /--arg 'id': .*9007199254740993 is beyond.*id='"9007199254740993"'/,
    );
    expect(parseArgumentPairs(['id="9007199254740993"', 'n=12', 'x=[0.5]'])).toEqual({
      id: '9007199254740993',
      n: 12,
      x: [0.5],
    });
  });
});
