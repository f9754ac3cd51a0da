/** Deep expressions are refused at save with a 422 problem every time, never a 500 (issue 25 item 6). */
import { describe, expect, it } from 'vitest';
import { viewLimits } from '../../shared/domain/definitions/view.ts';
import { checkExpressionField } from '../../shared/domain/views/check-expressions.ts';
import {
  maxNesting,
  nestingDepth,
  parseExpressionSyntax,
  treeDepth,
} from '../../shared/domain/views/expression-syntax.ts';

const known = { queries: new Set<string>(), components: new Set<string>() };
const check = (text: string) =>
  checkExpressionField({ pointer: '#/definition/layout/title', text, kind: 'binding' } as never, known);
const refusedAsDeep = (text: string) => {
  const problems = check(text);
  expect(problems, text.slice(0, 40)).toHaveLength(1);
  expect(problems[0]!.detail, text.slice(0, 40)).toContain(`nests more than ${maxNesting} levels deep`);
};

/** Chains of every kind of node: `n` levels of each. */
const shapes: Record<string, (n: number) => string> = {
  not: (n) => `${'!'.repeat(n)}true`,
  minus: (n) => `${'- '.repeat(n)}1`,
  tilde: (n) => `${'~'.repeat(n)}1`,
  mixedPrefix: (n) => `${'!-+~'.repeat(n / 4)}1`,
  parentheses: (n) => `${'('.repeat(n)}1${')'.repeat(n)}`,
  negatedParentheses: (n) => `${'-('.repeat(n)}1${')'.repeat(n)}`,
  arrays: (n) => `${'['.repeat(n)}${']'.repeat(n)}`,
  objects: (n) => `${'{a:'.repeat(n)}1${'}'.repeat(n)}`,
  spreads: (n) => `${'[...'.repeat(n)}a${']'.repeat(n)}`,
  callArguments: (n) => `${'f('.repeat(n)}1${')'.repeat(n)}`,
  conditionalsInElse: (n) => `${'a?a:'.repeat(n)}a`,
  conditionalsInThen: (n) => `${'a?'.repeat(n)}a${':a'.repeat(n)}`,
  arrows: (n) => `${'a=>'.repeat(n)}a`,
  callbacks: (n) => `${'f(a=>'.repeat(n)}a${')'.repeat(n)}`,
  templates: (n) => `${'`${'.repeat(n)}1${'}`'.repeat(n)}`,
  members: (n) => `a${'.a'.repeat(n)}`,
  optionalMembers: (n) => `a${'?.a'.repeat(n)}`,
  indexes: (n) => `a${'[0]'.repeat(n)}`,
  calls: (n) => `a${'()'.repeat(n)}`,
  sums: (n) => Array.from({ length: n + 1 }, () => '1').join('+'),
  powers: (n) => Array.from({ length: n + 1 }, () => '1').join('**'),
  ands: (n) => Array.from({ length: n + 1 }, () => 'a').join('&&'),
};

/** The most levels of `shape` that fit in the longest expression. */
const longest = (shape: (n: number) => string) => {
  let n = 4;
  while (shape(n + 4).length <= viewLimits.maxExpressionLength) n += 4;
  return n;
};

describe('nesting at save', () => {
  it('a 3,990-deep unary chain is refused the same way in 20 of 20 tries', () => {
    for (let i = 0; i < 20; i++) refusedAsDeep(`${'!'.repeat(3990)}true`);
  });

  it('a chain of every kind of node, as long as an expression may be, is refused by the depth limit', () => {
    for (const [name, shape] of Object.entries(shapes)) {
      const text = shape(longest(shape));
      expect(text.length, name).toBeLessThanOrEqual(viewLimits.maxExpressionLength);
      for (let i = 0; i < 3; i++) refusedAsDeep(text);
    }
  });

  it('every kind of chain passes at 60 levels and is refused just past the limit', () => {
    for (const [name, shape] of Object.entries(shapes)) {
      expect(check(shape(60)), name).toEqual([]);
      refusedAsDeep(shape(maxNesting + 4));
    }
    // The limit is the parsed tree's depth: 199 prefix operators over a literal are 200 levels.
    expect(treeDepth(parseExpressionSyntax(`${'!'.repeat(maxNesting - 1)}true`))).toBe(maxNesting);
    expect(check(`${'!'.repeat(maxNesting - 1)}true`)).toEqual([]);
    refusedAsDeep(`${'!'.repeat(maxNesting)}true`);
  });

  it('counts brackets, prefix operators and chained ?: and => outside strings; ordinary expressions pass', () => {
    // Brackets inside a string do not count; the binary + does (the scan is an upper bound).
    expect(nestingDepth("'((((((' + x")).toBe(1);
    expect(nestingDepth('!(a && -(b))')).toBe(2);
    expect(nestingDepth('1 + 2 - 3')).toBe(1);
    expect(nestingDepth('a ? b : c ? d : e')).toBe(2);
    expect(nestingDepth('a?.b ?? c')).toBe(0);
    // A comma or a closing bracket ends a chain: many conditionals side by side are shallow.
    const side = `[${Array.from({ length: 300 }, () => 'a ? 1 : 2').join(', ')}]`;
    expect(nestingDepth(side)).toBe(2);
    expect(check(side)).toEqual([]);
    expect(check(`rows.map(r => r.a).filter(a => a > 1).map(a => ({ a, b: a ? 1 : 2 }))`)).toEqual([]);
    expect(check(`${'!'.repeat(150)}true`)).toEqual([]);
    expect(check('[1, 2, 3].map(n => n * 2).filter(n => n > 2)')).toEqual([]);
    expect(check(Array.from({ length: 150 }, () => '1').join(' + '))).toEqual([]);
  });
});
