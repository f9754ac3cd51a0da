/**
 * Built-ins are charged by what they make or go through (issue 25 item 6): each at its limit and
 * one past it, and the expression that froze a tab ends with a budget error. The budget is shown
 * to bind by the error it throws and by how much was charged, never by wall time.
 */
import { describe, expect, it } from 'vitest';
import { Budget, budgetLimits } from './budget.ts';
import { ExpressionError, evaluate, renderTemplate } from './evaluate.ts';

const { maxStringLength: maxString, maxArrayLength: maxArray, maxWork, maxValueDepth } = budgetLimits;

const failure = (fn: () => unknown): ExpressionError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error('no error thrown');
};
const codeOf = (text: string, context: Record<string, unknown> = {}) =>
  failure(() => evaluate(text, context)).code;

describe('the budget of built-ins', () => {
  it("ends the issue's freezing expression with the work budget, after a bounded amount of work", () => {
    const text = "'x'.padStart(10000).split('').map(a => 'x'.padStart(10000)).join('')";
    const error = failure(() => evaluate(text, {}));
    expect(error.code).toBe('tooMuchWork');
    expect(error.vars).toEqual({ max: '10,000,000', what: 'padStart' });
    expect(error.message).toContain('more than 10,000,000 characters and items');
    // It stopped inside the map after about 1,000 of its 10,000 callbacks (each padStart made
    // 10,000 characters): the work done is bounded by the budget plus the one charge that passed it.
    const budget = new Budget();
    expect(() => evaluate(text, {}, budget)).toThrow(ExpressionError);
    expect(budget.spent).toBeGreaterThan(maxWork);
    expect(budget.spent).toBeLessThanOrEqual(maxWork + 10_000);
    // The second freezing shape (join of a large map) fails the same way before joining.
    expect(codeOf("'x'.padStart(5000).split('').map(a => 'x'.padStart(5000)).join('').length")).toBe(
      'tooMuchWork',
    );
  });

  it('padStart and padEnd: a string at the limit is made, one past it is refused', () => {
    expect(evaluate(`'x'.padStart(${maxString}).length`, {})).toBe(maxString);
    expect(evaluate(`'x'.padEnd(${maxString}, 'ab').length`, {})).toBe(maxString);
    const past = failure(() => evaluate(`'x'.padStart(${maxString + 1})`, {}));
    expect(past.code).toBe('stringTooLong');
    expect(past.vars).toEqual({ max: '1,000,000', what: 'padStart' });
    expect(codeOf(`'x'.padEnd(${maxString + 1})`)).toBe('stringTooLong');
    expect(codeOf("'x'.padEnd(1 / 0)")).toBe('stringTooLong');
    // NaN and negatives are 0, as in JavaScript.
    expect(evaluate("'x'.padStart('a')", {})).toBe('x');
  });

  it('join: the text is measured before it is made', () => {
    const atLimit = { list: Array.from({ length: maxString / 10 }, () => 'abcdefghij') };
    expect((evaluate("list.join('')", atLimit) as string).length).toBe(maxString);
    const past = { list: [...atLimit.list, 'k'] };
    expect(codeOf("list.join('')", past)).toBe('stringTooLong');
    // The separator counts: n - 1 of them.
    const two = { list: ['a'.repeat(499_990), 'b'.repeat(499_990)] };
    expect((evaluate(`list.join('${'-'.repeat(20)}')`, two) as string).length).toBe(maxString);
    expect(codeOf(`list.join('${'-'.repeat(21)}')`, two)).toBe('stringTooLong');
    // Nested arrays and objects print their text: measured, never expanded.
    expect(evaluate('[[1, 2], [3], {}, null].join()', {})).toBe('1,2,3,[object Object],');
  });

  it('concat, spread and slice: an array at the limit is made, one past it is refused', () => {
    const half = { a: Array.from({ length: maxArray / 2 }, (_, i) => i) };
    expect((evaluate('a.concat(a)', half) as unknown[]).length).toBe(maxArray);
    expect(codeOf('a.concat(a, 1)', half)).toBe('arrayTooLong');
    expect((evaluate('[...a, ...a]', half) as unknown[]).length).toBe(maxArray);
    const past = failure(() => evaluate('[...a, ...a, 1]', half));
    expect(past.code).toBe('arrayTooLong');
    expect(past.vars).toEqual({ max: '100,000', what: '[...]' });
    const full = { a: Array.from({ length: maxArray + 1 }, (_, i) => i) };
    expect((evaluate(`a.slice(1)`, full) as unknown[]).length).toBe(maxArray);
    expect(codeOf('a.slice()', full)).toBe('arrayTooLong');
  });

  it('split: the parts are counted before they are made', () => {
    expect((evaluate(`'x'.padStart(${maxArray}).split('')`, {}) as unknown[]).length).toBe(maxArray);
    expect(codeOf(`'x'.padStart(${maxArray + 1}).split('')`)).toBe('arrayTooLong');
    const commas = { s: ','.repeat(maxArray - 1) };
    expect((evaluate("s.split(',')", commas) as unknown[]).length).toBe(maxArray);
    expect(codeOf("s.split(',')", { s: `${commas.s},` })).toBe('arrayTooLong');
    // A limit caps the parts, as in JavaScript.
    expect(evaluate("s.split(',', 2)", { s: `${commas.s},` })).toEqual(['', '']);
  });

  it('map and filter make at most the array limit; callbacks are steps as before', () => {
    const full = { a: Array.from({ length: maxArray + 1 }, () => 1) };
    expect(codeOf('a.map(x => x)', full)).toBe('arrayTooLong');
    expect(codeOf('a.filter(x => x)', full)).toBe('arrayTooLong');
    const atLimit = { a: full.a.slice(1) };
    // Within the array limit the step limit still ends a long map (200,000 steps).
    expect(codeOf('a.map(x => x + 1)', atLimit)).toBe('tooComplex');
    expect((evaluate('a.map(x => x)', { a: full.a.slice(0, 50_000) }) as unknown[]).length).toBe(50_000);
  });

  it('flat counts what it would make, each level charged', () => {
    const rows = { a: Array.from({ length: maxArray / 4 }, () => [1, 2, 3, 4]) };
    expect((evaluate('a.flat()', rows) as unknown[]).length).toBe(maxArray);
    expect(codeOf('a.concat([[1]]).flat()', rows)).toBe('arrayTooLong');
    // One array shared a thousand times over is counted, not copied.
    expect(codeOf('[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(i => a).flat(2)', rows)).toBe('arrayTooLong');
  });

  it("replaceAll: the text it makes is bounded before it runs, $` and $' included", () => {
    const s = { s: 'x'.repeat(maxString / 2) };
    expect((evaluate("s.replaceAll('x', 'yy')", s) as string).length).toBe(maxString);
    expect(codeOf("s.replaceAll('x', 'yyy')", s)).toBe('stringTooLong');
    // `$\`` inserts everything before each match: quadratic, refused from its bound.
    expect(codeOf("'x'.padStart(2000, 'x').replaceAll('x', '$`')")).toBe('stringTooLong');
    expect((evaluate("'x'.padStart(999, 'x').replaceAll('x', '$`')", {}) as string).length).toBe(
      (998 * 999) / 2,
    );
    expect(evaluate("'a-b'.replaceAll('-', '[$&]')", {})).toBe('a[-]b');
  });

  it('toUpperCase, toLowerCase, upper and lower are held to the string limit', () => {
    expect((evaluate('s.toUpperCase()', { s: 'a'.repeat(maxString) }) as string).length).toBe(maxString);
    // ß becomes SS: the text made is checked too.
    expect(codeOf('s.toUpperCase()', { s: 'ß'.repeat(maxString / 2 + 1) })).toBe('stringTooLong');
    expect(codeOf('upper(s)', { s: 'ß'.repeat(maxString / 2 + 1) })).toBe('stringTooLong');
    expect(codeOf('s.toLowerCase()', { s: 'A'.repeat(maxString + 1) })).toBe('stringTooLong');
  });

  it('json and string measure the value first; shared parts cannot blow it up', () => {
    // A value of ~1,000,000 characters as JSON: an array of strings of 8 + 2 quotes + 1 comma.
    const n = (maxString - 2) / 11;
    const data = { a: Array.from({ length: Math.floor(n) }, () => 'abcdefgh') };
    expect((evaluate('string(a)', data) as string).length).toBeLessThanOrEqual(maxString);
    expect(codeOf("string(a.concat(['abcdefgh', 'abcdefgh']))", data)).toBe('stringTooLong');
    // json pretty-prints: its line breaks and indentation count.
    expect(codeOf('json(a)', data)).toBe('stringTooLong');
    // 2^40 leaves when printed, built in 40 steps: measured, not printed.
    const doubling = `[${Array(40).fill('0').join(',')}].reduce(a => [a, a], 1)`;
    expect(codeOf(`json(${doubling})`)).toBe('stringTooLong');
    expect(codeOf(`[${Array(30).fill('0').join(',')}].reduce(a => [a, a], 1)`)).toBe('tooMuchWork');
    expect(codeOf(`string([${Array(30).fill('0').join(',')}].reduce(a => [a, a], 1))`)).toBe('stringTooLong');
  });

  it('a value nesting past the depth limit is refused where it would be printed', () => {
    const list = `[${Array(maxValueDepth + 1)
      .fill('0')
      .join(',')}]`;
    const error = failure(() => evaluate(`json(${list}.reduce(a => [a], 1))`, {}));
    expect(error.code).toBe('tooDeep');
    expect(error.vars.max).toBe(maxValueDepth);
    const atLimit = `[${Array(maxValueDepth - 1)
      .fill('0')
      .join(',')}]`;
    expect(typeof evaluate(`json(${atLimit}.reduce(a => [a], 1))`, {})).toBe('string');
  });

  it('arrays and objects turned into text by operators are measured first', () => {
    const big = { a: Array.from({ length: maxString / 4 }, () => 'xyz') };
    expect(evaluate('[1, [2, 3]] + 1', {})).toBe('1,2,31');
    expect(codeOf("a + ''", big)).toBe('stringTooLong');
    expect(codeOf('a < 1', big)).toBe('stringTooLong');
    expect(codeOf('-a', big)).toBe('stringTooLong');
    expect(codeOf("'x'.includes(a)", big)).toBe('stringTooLong');
    expect(codeOf('number(a)', big)).toBe('stringTooLong');
    // Strict equality compares references: nothing is printed.
    expect(evaluate('a === a', big)).toBe(true);
  });

  it('+ holds strings to the limit and charges what it adds', () => {
    const s = { s: 'x'.repeat(maxString / 2) };
    expect((evaluate('s + s', s) as string).length).toBe(maxString);
    expect(codeOf("s + s + 'x'", s)).toBe('stringTooLong');
    // Doubling a string is charged as it grows: 19 doublings of 2 characters pass the string limit.
    expect(codeOf(`[${Array(20).fill('0').join(',')}].reduce(a => a + a, 'xx')`)).toBe('stringTooLong');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression itself is a template literal
    expect(codeOf('`${s}${s}x`', s)).toBe('stringTooLong');
  });

  it('templates share one budget across their holes', () => {
    const s = { s: 'x'.repeat(maxString / 2) };
    expect((renderTemplate('{{ s }}{{ s }}', s) as string).length).toBe(maxString);
    expect(failure(() => renderTemplate('{{ s }}{{ s }}!', s)).code).toBe('stringTooLong');
    const quarter = { o: { v: 'x'.repeat(maxString / 4) } };
    expect(failure(() => renderTemplate('{{ o }}{{ o }}{{ o }}{{ o }}', quarter)).code).toBe('stringTooLong');
  });

  it('reads of strings and arrays are charged: a loop over a large string ends', () => {
    const context = { s: 'x'.repeat(maxString), a: Array.from({ length: 50_000 }, () => 0) };
    expect(codeOf("a.map(i => s.includes('y'))", context)).toBe('tooMuchWork');
    expect(codeOf('a.map(i => s === s.trim())', context)).toBe('tooMuchWork');
    expect(codeOf('a.map(i => a.indexOf(1))', context)).toBe('tooMuchWork');
    // A computed key is read to look it up.
    expect(codeOf('a.map(i => a[k])', { ...context, k: '1'.repeat(maxString) })).toBe('tooMuchWork');
  });

  it('charges stop at exactly the work budget', () => {
    const budget = new Budget();
    budget.charge(maxWork, 'x');
    const error = failure(() => budget.charge(1, 'join'));
    expect(error.code).toBe('tooMuchWork');
    expect(error.vars.what).toBe('join');
    expect(() => new Budget().string(maxString, 'a')).not.toThrow();
    expect(failure(() => new Budget().string(maxString + 1, 'a')).code).toBe('stringTooLong');
    expect(() => new Budget().array(maxArray, 'a')).not.toThrow();
    expect(failure(() => new Budget().array(maxArray + 1, 'a')).code).toBe('arrayTooLong');
  });

  it('each built-in is charged what it makes or reads: it runs at exactly that budget and fails one below', () => {
    const context = {
      s: 'abcdefghij'.repeat(4),
      csv: 'a,b,c,d',
      list: [1, 2, 3, 4, 5, 6, 7, 8],
      nested: [[1, 2], [3, [4, 5]], 6],
      row: { a: 1, b: 'two', c: [3] },
    };
    const cases: [string, number | undefined][] = [
      // Exact charges, worked out by hand.
      ["s.padStart(50, '-')", 50],
      ['s.padEnd(45)', 45],
      ["s.includes('j')", 41],
      ["s.indexOf('j')", 41],
      ["s.startsWith('abc')", 43],
      ['s.trim()', 40],
      ['s.toUpperCase()', 80],
      ["s.replaceAll('a', 'AA')", 40 + 44],
      ["list.join('-')", 8 + 15],
      ['upper(s)', 40],
      ['encode(s)', 40],
      ['list.includes(9)', 8],
      ['list.some(x => x > 9)', 8],
      ['list.reduce((a, x) => a + x, 0)', 8],
      ["s + 'xy'", 2],
      // Charges that include measuring the array or object made: checked at the limit only.
      ["csv.split(',')", undefined],
      ['list.map(x => x * 2)', undefined],
      ['list.filter(x => x > 2)', undefined],
      ['list.slice(2)', undefined],
      ['list.concat(list)', undefined],
      ['nested.flat(2)', undefined],
      ['[...list, ...list]', undefined],
      ['({...row, d: 4})', undefined],
      ['keys(row)', undefined],
      ['json(row)', undefined],
      ['string(nested)', undefined],
      ['sum(list)', undefined],
      ["nested + ''", undefined],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression itself is a template literal
      ['`${row}`', undefined],
    ];
    for (const [text, expected] of cases) {
      const measured = new Budget();
      const value = evaluate(text, context, measured);
      if (expected !== undefined) expect(measured.spent, text).toBe(expected);
      expect(measured.spent, text).toBeGreaterThan(0);
      // Exactly the budget it needs: the same value.
      const exact = new Budget({ ...budgetLimits, maxWork: measured.spent });
      expect(evaluate(text, context, exact), text).toEqual(value);
      // One unit less: the budget error, naming the built-in that passed it.
      const short = new Budget({ ...budgetLimits, maxWork: measured.spent - 1 });
      const error = failure(() => evaluate(text, context, short));
      expect(error.code, text).toBe('tooMuchWork');
      expect(typeof error.vars.what, text).toBe('string');
    }
  });

  it('helpers: encode, keys and number conversions are held to the limits', () => {
    expect((evaluate('encode(s)', { s: 'a'.repeat(maxString) }) as string).length).toBe(maxString);
    // é is %C3%A9: the text made is checked.
    expect(codeOf('encode(s)', { s: 'é'.repeat(maxString / 6 + 1) })).toBe('stringTooLong');
    const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect((evaluate('keys(o)', { o: wide(maxArray) }) as unknown[]).length).toBe(maxArray);
    expect(codeOf('keys(o)', { o: wide(maxArray + 1) })).toBe('arrayTooLong');
    const big = { a: [Array.from({ length: maxString / 4 }, () => 'xyz')] };
    expect(codeOf('sum(a)', big)).toBe('stringTooLong');
    expect(codeOf('date(a)', big)).toBe('stringTooLong');
    expect(codeOf('(1).toFixed(a)', big)).toBe('stringTooLong');
    expect(evaluate('sum([1, [2], 3])', {})).toBe(6);
  });

  it('leaves ordinary expressions as they were', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `n${i}`, qty: i % 7, price: 3 }));
    const out = evaluate('rows.map(r => ({...r, total: r.qty * r.price})).filter(r => r.total > 10)', {
      rows,
    }) as unknown[];
    expect(out.length).toBeGreaterThan(1000);
    expect(evaluate("rows.map(r => r.name).join(', ').length", { rows })).toBeGreaterThan(20_000);
    expect(typeof evaluate('json(rows)', { rows })).toBe('string');
  });
});
