import { describe, expect, it } from 'vitest';
import { inexactNumbersIn, literalProblem } from '../../shared/domain/exact-numbers.ts';

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
});
