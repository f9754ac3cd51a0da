import { describe, expect, it } from 'vitest';
import { ExpressionError, evaluate, limits, renderTemplate } from './evaluate.ts';

const context = {
  panel: { args: { id: 42, status: 'open' } },
  row: { id: 7, total: 12.5, customer: { name: 'Aiko' }, tags: ['a', 'b'] },
  queries: {
    orders: {
      rows: [
        { id: 1, qty: 2, price: 3 },
        { id: 2, qty: 1, price: 10 },
      ],
    },
  },
  user: { email: 'ops@dogu.local' },
};

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ExpressionError) return error.code;
    throw error;
  }
  throw new Error('no error thrown');
};

describe('evaluate', () => {
  it('reads members, computes, compares and picks', () => {
    expect(evaluate('panel.args.id + 1', context)).toBe(43);
    expect(evaluate("row.customer.name + ' / ' + user.email", context)).toBe('Aiko / ops@dogu.local');
    expect(evaluate("row.total > 10 ? 'big' : 'small'", context)).toBe('big');
    expect(evaluate('row.tags[1]', context)).toBe('b');
    expect(evaluate('row.tags.length', context)).toBe(2);
    expect(evaluate('row.missing ?? "none"', context)).toBe('none');
    expect(evaluate('row.missing?.deep', context)).toBeUndefined();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression itself is a template literal
    expect(evaluate('`#${row.id}`', context)).toBe('#7');
  });

  it('transforms rows with arrow functions, spreads and helpers', () => {
    expect(evaluate('queries.orders.rows.map(r => ({...r, total: r.qty * r.price}))', context)).toEqual([
      { id: 1, qty: 2, price: 3, total: 6 },
      { id: 2, qty: 1, price: 10, total: 10 },
    ]);
    expect(evaluate('queries.orders.rows.filter(r => r.price > 5).length', context)).toBe(1);
    expect(evaluate('sum(queries.orders.rows.map(r => r.price))', context)).toBe(13);
    expect(evaluate('queries.orders.rows.reduce((a, r) => a + r.qty, 0)', context)).toBe(3);
    expect(evaluate("upper(panel.args.status).padStart(6, '*')", context)).toBe('**OPEN');
    expect(evaluate('round(2.345, 2)', context)).toBe(2.35);
  });

  it('never reaches prototypes, constructors or host functions', () => {
    expect(codeOf(() => evaluate('row.__proto__', context))).toBe('forbiddenProperty');
    expect(codeOf(() => evaluate('row.constructor', context))).toBe('forbiddenProperty');
    expect(codeOf(() => evaluate("row['constructor']", context))).toBe('forbiddenProperty');
    expect(codeOf(() => evaluate("row['__pro' + 'to__']", context))).toBe('forbiddenProperty');
    expect(codeOf(() => evaluate('row.tags.constructor', context))).toBe('forbiddenProperty');
    expect(codeOf(() => evaluate("''.constructor.constructor('return 1')()", context))).toBe(
      'forbiddenProperty',
    );
    expect(codeOf(() => evaluate('({__proto__: 1})', context))).toBe('forbiddenProperty');
    expect(codeOf(() => evaluate('(x => x.prototype)(row)', context))).toBe('forbiddenProperty');
    // Inherited members are not data: they read as undefined, and are not callable.
    expect(evaluate('row.hasOwnProperty', context)).toBeUndefined();
    expect(evaluate('row.toString', context)).toBeUndefined();
    expect(codeOf(() => evaluate('row.toString()', context))).toBe('notAFunction');
    expect(codeOf(() => evaluate('row.tags.push(1)', context))).toBe('notAFunction');
    expect(context.row.tags).toEqual(['a', 'b']);
  });

  it('knows only the names of its context and the helpers', () => {
    expect(codeOf(() => evaluate('window', context))).toBe('unknownName');
    expect(codeOf(() => evaluate('globalThis.document', context))).toBe('unknownName');
    expect(codeOf(() => evaluate('fetch("/api")', context))).toBe('unknownName');
    expect(codeOf(() => evaluate('Function', context))).toBe('unknownName');
    expect(codeOf(() => evaluate('this', context))).toBe('unsupported');
  });

  it('does not run getters of host objects', () => {
    let ran = false;
    const withGetter = {
      get secret() {
        ran = true;
        return 's';
      },
    };
    expect(evaluate('o.secret', { o: withGetter })).toBeUndefined();
    expect(ran).toBe(false);
    expect(evaluate('o.now', { o: new Date() })).toBeUndefined();
  });

  it('refuses statements, assignment and new', () => {
    expect(codeOf(() => evaluate('a = 1', context))).toBe('syntax');
    expect(codeOf(() => evaluate('new Date()', context))).toBe('syntax');
    expect(codeOf(() => evaluate('1; 2', context))).toBe('syntax');
    expect(codeOf(() => evaluate('row.', context))).toBe('syntax');
  });

  it('stops runaway evaluation within its budget', () => {
    expect(codeOf(() => evaluate('(f => f(f))(f => f(f))', context))).toBe('tooDeep');
    const big = { list: Array.from({ length: 1000 }, (_, i) => i) };
    expect(codeOf(() => evaluate('list.map(a => list.map(b => list.map(c => a + b + c)))', big))).toBe(
      'tooComplex',
    );
    expect(codeOf(() => evaluate(`1${'+1'.repeat(limits.maxLength)}`, context))).toBe('tooLong');
    // Past the string limit a padStart is refused before it runs (budget.test.tsx has the rest).
    expect(codeOf(() => evaluate("'x'.padStart(1e9).length", context))).toBe('stringTooLong');
  });

  it('renders templates, keeping the value type of a single placeholder', () => {
    expect(renderTemplate('Order {{ row.id }} for {{ row.customer.name }}', context)).toBe(
      'Order 7 for Aiko',
    );
    expect(renderTemplate('{{ row.total }}', context)).toBe(12.5);
    expect(renderTemplate('{{ row.tags }}', context)).toEqual(['a', 'b']);
    expect(renderTemplate('no placeholders', context)).toBe('no placeholders');
    expect(codeOf(() => renderTemplate('{{ nope.x }}', context))).toBe('unknownName');
  });

  it('splits templates as the server checks them: each hole ends at its first }}', () => {
    // Two holes and nothing else are two values joined as text, not one expression `a }} {{ b`.
    expect(renderTemplate('{{ row.id }}{{ row.total }}', context)).toBe('712.5');
    expect(renderTemplate(' {{ row.id }} and {{ row.total }} ', context)).toBe(' 7 and 12.5 ');
    // Blanks around a single hole still keep its type.
    expect(renderTemplate('  {{ row.id }}\n', context)).toBe(7);
    // An unclosed {{ (refused at save) is left as text by views saved before the check.
    expect(renderTemplate('Order {{ row.id }} {{ row.total', context)).toBe('Order 7 {{ row.total');
    // The syntax error carries the shared parser's position.
    const error = (() => {
      try {
        evaluate('row.id +', context);
      } catch (e) {
        return e as ExpressionError;
      }
    })();
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error!.vars.detail).toBe('Expected expression after + at character 8');
  });
});
