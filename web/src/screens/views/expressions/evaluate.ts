/**
 * Expressions of view definitions (`panel.args.id`, `row.total * 1.1`, `rows.map(r => ({...r}))`),
 * evaluated on the host page without `eval`/`new Function`: the shared syntax module (jsep, the
 * same parser the server checks definitions with when they are saved) parses the text into an AST
 * and this walker interprets the small subset it allows (docs/views.md "Expressions").
 *
 * Guards: names resolve only to the context's own members; member access reads only own data
 * properties of plain objects/arrays (never `__proto__`, `constructor`, `prototype`, getters or
 * inherited members), so a definition can never reach `Function` or `Object.prototype`; calls go
 * only to the helper functions below, to arrow functions written in the expression, or to a short
 * list of array/string methods run with checked callbacks; each evaluation has a step budget and a
 * nesting limit, so `(f => f(f))(f => f(f))` or a huge `map` ends with an error instead of a hang,
 * and each built-in is charged by what it makes or goes through against a budget (budget.ts), so
 * `'x'.padStart(10000).split('').map(a => 'x'.padStart(10000)).join('')` ends with an error too.
 */

import type jsep from 'jsep';
import {
  ExpressionSyntaxError,
  parseExpressionSyntax,
  soleHole,
  splitTemplate,
} from '../../../../../shared/domain/views/expression-syntax.ts';
import { Budget } from './budget.ts';
import { ExpressionError } from './expression-error.ts';

export { budgetLimits } from './budget.ts';
export { ExpressionError, type ExpressionErrorCode } from './expression-error.ts';

export const limits = { maxLength: 4000, maxSteps: 200_000, maxDepth: 200 } as const;

const forbiddenNames = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

type Node = jsep.Expression;
type Scope = Record<string, unknown>;

/** A function written in the expression (`r => r.total`): called only by this evaluator. */
class Closure {
  constructor(
    readonly params: string[],
    readonly body: Node,
    readonly scope: Scope,
  ) {}
}

/** Functions an expression may call by name (no access to anything but their arguments). */
export const helpers: Record<string, (...args: unknown[]) => unknown> = {
  len: (v) => (typeof v === 'string' || Array.isArray(v) ? v.length : 0),
  upper: (v) => String(v ?? '').toUpperCase(),
  lower: (v) => String(v ?? '').toLowerCase(),
  round: (v, digits) => {
    const d = Math.max(0, Math.min(10, Number(digits ?? 0)));
    const f = 10 ** d;
    return Math.round(Number(v) * f) / f;
  },
  number: (v) => Number(v),
  string: (v) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)),
  json: (v) => JSON.stringify(v, null, 2),
  sum: (v) => (Array.isArray(v) ? v.reduce((a: number, b) => a + Number(b ?? 0), 0) : 0),
  keys: (v) => (isPlainData(v) && !Array.isArray(v) ? Object.keys(v) : []),
  date: (v) => {
    const d = new Date(v as string);
    return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
  },
  datetime: (v) => {
    const d = new Date(v as string);
    return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace('T', ' ').slice(0, 19);
  },
  encode: (v) => encodeURIComponent(String(v ?? '')),
  min: (...v) => Math.min(...v.map(Number)),
  max: (...v) => Math.max(...v.map(Number)),
  abs: (v) => Math.abs(Number(v)),
};

/** Array and string methods an expression may call; callbacks are checked closures. */
const arrayMethods = new Set([
  'map',
  'filter',
  'find',
  'findIndex',
  'some',
  'every',
  'slice',
  'join',
  'includes',
  'indexOf',
  'concat',
  'reduce',
  'flat',
  'at',
]);
const stringMethods = new Set([
  'toUpperCase',
  'toLowerCase',
  'trim',
  'startsWith',
  'endsWith',
  'includes',
  'split',
  'slice',
  'replaceAll',
  'padStart',
  'padEnd',
  'indexOf',
  'at',
]);
const numberMethods = new Set(['toFixed', 'toString']);

function isPlainData(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const parsed = new Map<string, Node>();

/** Parses once per text (definitions re-render often); syntax errors name the position. */
export function parseExpression(text: string): Node {
  if (text.length > limits.maxLength) {
    throw new ExpressionError('tooLong', `The expression is longer than ${limits.maxLength} characters.`, {
      max: limits.maxLength,
    });
  }
  const cached = parsed.get(text);
  if (cached) return cached;
  let node: Node;
  try {
    node = parseExpressionSyntax(text);
  } catch (error) {
    if (!(error instanceof ExpressionSyntaxError)) throw error;
    throw new ExpressionError('syntax', error.message, { detail: error.message });
  }
  if (parsed.size > 2000) parsed.clear();
  parsed.set(text, node);
  return node;
}

/** Evaluates `text` against `context` (its own members are the names an expression can use). */
export function evaluate(
  text: string,
  context: Record<string, unknown>,
  budget: Budget = new Budget(),
): unknown {
  return new Evaluator(budget).evaluate(text, context);
}

const helperNames = new Map(Object.entries(helpers).map(([name, fn]) => [fn, name]));

/** Array methods that take a callback: charged by the array's length, their callbacks by steps. */
const withCallback = new Set(['map', 'filter', 'find', 'findIndex', 'some', 'every', 'reduce']);

/** One evaluation (or one template's holes): its steps, depth and budget are counted together. */
class Evaluator {
  private steps = 0;
  private depth = 0;

  /** Arrays and objects this evaluation made: measured before they leave it (see `result`). */
  private readonly made = new WeakSet<object>();

  constructor(private readonly budget: Budget = new Budget()) {}

  evaluate(text: string, context: Record<string, unknown>): unknown {
    const node = parseExpression(text);
    const value = this.run(node, Object.assign(Object.create(null), context) as Scope);
    return this.result(value);
  }

  /** Refuses a template's text past the string limit (its parts were charged as they were made). */
  fits(length: number): void {
    this.budget.fits(length, 'template');
  }

  /** A value's text for a template: the JSON of data, measured and charged before it is made. */
  text(value: unknown, what = 'template'): string {
    if (value === undefined || value === null) return '';
    if (typeof value === 'object') {
      this.budget.string(this.budget.textSize(value, what), what);
      const out = JSON.stringify(value) ?? '';
      this.budget.string(out.length, what);
      return out;
    }
    return String(value);
  }

  /**
   * What the evaluation hands to the page. An array or object it made may share parts many times
   * over (`[a, a]` again and again) and would print or render far bigger than it was to build:
   * its printed size is charged, so such a value ends as a budget error here, not in the page.
   */
  private result(value: unknown): unknown {
    if (typeof value === 'object' && value !== null && this.made.has(value)) {
      this.budget.charge(this.budget.textSize(value, 'result'), 'result');
    }
    return value;
  }

  private mark<T extends object>(value: T): T {
    this.made.add(value);
    return value;
  }

  /** An operand or argument JavaScript would turn into text or a number: its text is measured first. */
  private coerced(value: unknown, what: string): void {
    if (typeof value === 'object' && value !== null) {
      this.budget.string(this.budget.textSize(value, what), what);
    }
  }

  run(node: Node, scope: Scope): unknown {
    if (++this.steps > limits.maxSteps) {
      throw new ExpressionError('tooComplex', 'The expression takes too many steps.', {
        max: limits.maxSteps,
      });
    }
    if (++this.depth > limits.maxDepth) {
      this.depth--;
      throw new ExpressionError('tooDeep', 'The expression nests too deeply.', {
        max: limits.maxDepth,
        what: 'expression',
      });
    }
    try {
      return this.node(node, scope);
    } finally {
      this.depth--;
    }
  }

  private node(node: Node, scope: Scope): unknown {
    switch (node.type) {
      case 'Literal':
        return (node as jsep.Literal).value;
      case 'Identifier':
        return this.identifier((node as jsep.Identifier).name, scope);
      case 'MemberExpression': {
        const member = node as jsep.MemberExpression & { optional?: boolean };
        const target = this.run(member.object, scope);
        if ((target === undefined || target === null) && member.optional) return undefined;
        return readMember(target, this.propertyName(member, scope));
      }
      case 'ArrayExpression': {
        const out: unknown[] = [];
        for (const element of (node as jsep.ArrayExpression).elements) {
          if (!element) continue;
          if (element.type === 'SpreadElement') {
            const spreadValue = this.run((element as unknown as { argument: Node }).argument, scope);
            if (Array.isArray(spreadValue)) {
              this.budget.array(out.length + spreadValue.length, '[...]');
              out.push(...spreadValue);
            }
          } else out.push(this.run(element, scope));
        }
        this.budget.fitsArray(out.length, '[...]');
        return this.mark(out);
      }
      case 'ObjectExpression':
        return this.mark(this.objectLiteral(node, scope));
      case 'UnaryExpression': {
        const unary = node as jsep.UnaryExpression;
        const value = this.run(unary.argument, scope);
        switch (unary.operator) {
          case '!':
            return !value;
          case '-':
            this.coerced(value, '-');
            return -(value as number);
          case '+':
            this.coerced(value, '+');
            return +(value as number);
          case 'typeof':
            return value instanceof Closure ? 'function' : typeof value;
          default:
            throw unsupported(`operator ${unary.operator}`);
        }
      }
      case 'BinaryExpression':
        return this.binary(node as jsep.BinaryExpression, scope);
      case 'ConditionalExpression': {
        const conditional = node as jsep.ConditionalExpression;
        return this.run(conditional.test, scope)
          ? this.run(conditional.consequent, scope)
          : this.run(conditional.alternate, scope);
      }
      case 'TemplateLiteral': {
        const literal = node as unknown as { quasis: { value: { cooked: string } }[]; expressions: Node[] };
        let out = '';
        literal.quasis.forEach((quasi, i) => {
          out += quasi.value.cooked;
          if (i < literal.expressions.length) {
            out += this.text(this.run(literal.expressions[i]!, scope), 'template literal');
          }
          // Joined as ropes (no copy): only the length is held to the limit.
          this.budget.fits(out.length, 'template literal');
        });
        return out;
      }
      case 'ArrowFunctionExpression': {
        const fn = node as unknown as { params?: Node[] | null; body: Node };
        const params = (fn.params ?? []).map((p) => {
          if (p.type !== 'Identifier') throw unsupported('destructured parameters');
          const name = (p as jsep.Identifier).name;
          if (forbiddenNames.has(name)) throw forbidden(name);
          return name;
        });
        return new Closure(params, fn.body, scope);
      }
      case 'CallExpression':
        return this.call(node as jsep.CallExpression, scope);
      case 'ThisExpression':
        throw unsupported('this');
      case 'Compound':
        throw new ExpressionError('syntax', 'Only one expression is allowed (no `;`, `new` or statements).', {
          detail: 'Only one expression is allowed.',
        });
      default:
        throw unsupported(node.type);
    }
  }

  private identifier(name: string, scope: Scope): unknown {
    if (forbiddenNames.has(name)) throw forbidden(name);
    if (name === 'undefined') return undefined;
    if (Object.hasOwn(scope, name)) return scope[name];
    if (Object.hasOwn(helpers, name)) return helpers[name];
    throw new ExpressionError('unknownName', `Unknown name "${name}".`, { name });
  }

  private propertyName(member: jsep.MemberExpression, scope: Scope): string | number {
    if (!member.computed) return (member.property as jsep.Identifier).name;
    const key = this.run(member.property, scope);
    if (typeof key === 'number') return key;
    if (typeof key === 'string') {
      // A key is read to look it up (is it an index?): a megabyte of digits is no free step.
      this.budget.charge(key.length, '[]');
      return key;
    }
    throw new ExpressionError('forbiddenProperty', 'A property name must be a string or a number.', {
      name: String(key),
    });
  }

  private objectLiteral(node: Node, scope: Scope): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const properties = (node as unknown as { properties: Node[] }).properties;
    for (const property of properties) {
      if (property.type === 'SpreadElement') {
        const value = this.run((property as unknown as { argument: Node }).argument, scope);
        if (isPlainData(value)) {
          const entries = Object.entries(value);
          this.budget.charge(entries.length, '{...}');
          for (const [k, v] of entries) {
            if (!forbiddenNames.has(k)) out[k] = v;
          }
        }
        continue;
      }
      const p = property as unknown as { key: Node; value?: Node; computed: boolean; shorthand?: boolean };
      let key: string;
      if (p.computed) {
        const computed = this.run(p.key, scope);
        this.coerced(computed, '{[key]}');
        key = String(computed);
      } else {
        key =
          p.key.type === 'Identifier'
            ? (p.key as jsep.Identifier).name
            : String((p.key as jsep.Literal).value);
      }
      if (forbiddenNames.has(key)) throw forbidden(key);
      out[key] = p.value ? this.run(p.value, scope) : this.identifier(key, scope);
    }
    return out;
  }

  private binary(node: jsep.BinaryExpression, scope: Scope): unknown {
    const op = node.operator;
    const left = this.run(node.left, scope);
    if (op === '&&') return left ? this.run(node.right, scope) : left;
    if (op === '||') return left ? left : this.run(node.right, scope);
    if (op === '??') return left ?? this.run(node.right, scope);
    const right = this.run(node.right, scope);
    if (op !== '===' && op !== '!==') {
      // An array or object operand becomes its text first (`[1, 2] + ''`, `list < 3`).
      this.coerced(left, op);
      this.coerced(right, op);
    }
    // biome-ignore lint/suspicious/noExplicitAny: the operators behave as JavaScript's own on any operands
    const l = left as any;
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const r = right as any;
    if (typeof l === 'string' && typeof r === 'string' && op !== '+') {
      // Comparing two strings reads them both.
      this.budget.charge(l.length + r.length, op);
    }
    switch (op) {
      case '+': {
        const sum = l + r;
        if (typeof sum === 'string') {
          // V8 joins long strings as a rope without copying: the length is held to the limit and
          // the shorter side charged, so `s + s` doubling is charged as it grows.
          this.budget.fits(sum.length, '+');
          const leftLength = typeof l === 'string' ? l.length : sum.length - String(r).length;
          this.budget.charge(Math.min(leftLength, sum.length - leftLength), '+');
        }
        return sum;
      }
      case '-':
        return l - r;
      case '*':
        return l * r;
      case '/':
        return l / r;
      case '%':
        return l % r;
      case '**':
        return l ** r;
      case '==':
        // biome-ignore lint/suspicious/noDoubleEquals: expressions keep JavaScript's loose equality
        return l == r;
      case '!=':
        // biome-ignore lint/suspicious/noDoubleEquals: as above
        return l != r;
      case '===':
        return l === r;
      case '!==':
        return l !== r;
      case '<':
        return l < r;
      case '>':
        return l > r;
      case '<=':
        return l <= r;
      case '>=':
        return l >= r;
      default:
        throw unsupported(`operator ${op}`);
    }
  }

  private call(node: jsep.CallExpression, scope: Scope): unknown {
    const args = node.arguments.map((a) => this.run(a, scope));
    const callee = node.callee;
    if (callee.type === 'MemberExpression') {
      const member = callee as jsep.MemberExpression & { optional?: boolean };
      const target = this.run(member.object, scope);
      const name = this.propertyName(member, scope);
      if ((target === undefined || target === null) && member.optional) return undefined;
      if (typeof name !== 'string' || forbiddenNames.has(name)) throw forbidden(String(name));
      return this.method(target, name, args);
    }
    const fn = this.run(callee, scope);
    return this.invoke(fn, args, callee);
  }

  private invoke(fn: unknown, args: unknown[], callee?: Node): unknown {
    if (fn instanceof Closure) {
      const inner: Scope = Object.assign(Object.create(null), fn.scope);
      fn.params.forEach((name, i) => {
        inner[name] = args[i];
      });
      return this.run(fn.body, inner);
    }
    const helper = typeof fn === 'function' ? helperNames.get(fn as (...a: unknown[]) => unknown) : undefined;
    if (helper) return this.helper(helper, args);
    const name = callee?.type === 'Identifier' ? (callee as jsep.Identifier).name : 'value';
    throw new ExpressionError('notAFunction', `"${name}" is not a function.`, { name });
  }

  /** A helper, charged by what it reads and makes. */
  private helper(name: string, args: unknown[]): unknown {
    const fn = helpers[name]!;
    const [value] = args;
    switch (name) {
      case 'len':
        return fn(...args);
      case 'keys': {
        const out = fn(...args) as string[];
        this.budget.array(out.length, name);
        return this.mark(out);
      }
      case 'json':
      case 'string': {
        if (typeof value === 'object' && value !== null) {
          const size =
            name === 'json' ? this.budget.prettyTextSize(value, name) : this.budget.textSize(value, name);
          this.budget.string(size, name);
        }
        const out = fn(...args) as string | undefined;
        // Escapes (`\u0001`) may print longer than measured: the text made is held to the limit too.
        if (typeof out === 'string') this.budget.string(out.length, name);
        return out;
      }
      case 'sum':
        if (Array.isArray(value)) {
          this.budget.charge(value.length, name);
          for (const item of value) this.coerced(item, name);
        }
        return fn(...args);
      default: {
        for (const arg of args) this.coerced(arg, name);
        const out = fn(...args);
        if (typeof out === 'string') this.budget.string(out.length, name);
        return out;
      }
    }
  }

  /** A closure as a plain callback for an array method; it still counts steps. */
  private callback(fn: unknown): (...args: unknown[]) => unknown {
    if (!(fn instanceof Closure) && !helperNames.has(fn as never)) {
      throw new ExpressionError('notAFunction', 'The callback is not a function.', { name: 'callback' });
    }
    return (...args) => this.invoke(fn, args);
  }

  private method(target: unknown, name: string, args: unknown[]): unknown {
    if (Array.isArray(target) && arrayMethods.has(name)) return this.arrayMethod(target, name, args);
    if (typeof target === 'string' && stringMethods.has(name)) {
      if (args.some((a) => typeof a === 'function' || a instanceof Closure))
        throw unsupported('callbacks here');
      for (const arg of args) this.coerced(arg, name);
      return this.stringMethod(target, name, args);
    }
    if (typeof target === 'number' && numberMethods.has(name)) {
      for (const arg of args) this.coerced(arg, name);
      return (Number.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!.apply(
        target,
        args,
      );
    }
    // A helper stored in the context (e.g. `fmt.date(x)` is not offered; only own closures).
    const value = readMember(target, name);
    if (value instanceof Closure) return this.invoke(value, args);
    throw new ExpressionError('notAFunction', `"${name}" is not a function.`, { name });
  }

  /** Each array method is charged by the items it goes through and makes, before it runs. */
  private arrayMethod(target: unknown[], name: string, args: unknown[]): unknown {
    const native = (Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
    if (withCallback.has(name)) {
      const cb = this.callback(args[0]);
      this.budget.charge(target.length, name);
      if (name === 'map' || name === 'filter') this.budget.array(target.length, name);
      // Only the element and index reach the callback, never the array's own method context.
      if (name === 'reduce') {
        const wrapped = (acc: unknown, v: unknown, i: number) => cb(acc, v, i);
        return args.length > 1 ? target.reduce(wrapped, args[1]) : target.reduce(wrapped as never);
      }
      const out = native.call(target, (v: unknown, i: number) => cb(v, i));
      return Array.isArray(out) ? this.mark(out) : out;
    }
    switch (name) {
      case 'join': {
        const separator = args[0] === undefined ? ',' : String(this.checked(args[0], name));
        let size = separator.length * Math.max(0, target.length - 1);
        this.budget.charge(target.length, name);
        for (const item of target) size += joinedSize(item, this.budget);
        this.budget.string(size, name);
        return target.join(separator);
      }
      case 'concat': {
        let length = target.length;
        for (const arg of args) length += Array.isArray(arg) ? arg.length : 1;
        this.budget.array(length, name);
        return this.mark(target.concat(...args));
      }
      case 'flat': {
        const depth = Math.min(Number(this.checked(args[0] ?? 1, name)), 5);
        this.budget.array(flatLength(target, depth, this.budget), name);
        return this.mark(target.flat(depth));
      }
      case 'includes':
      case 'indexOf':
        // The searched value is compared, never converted; a start index is.
        if (args.length > 1) this.coerced(args[1], name);
        this.budget.charge(target.length, name);
        return native.apply(target, args);
      case 'slice': {
        for (const arg of args) this.coerced(arg, name);
        const out = native.apply(target, args) as unknown[];
        this.budget.array(out.length, name);
        return this.mark(out);
      }
      default:
        // `at`: one item.
        for (const arg of args) this.coerced(arg, name);
        return native.apply(target, args);
    }
  }

  /** Each string method is charged by the characters it reads and makes, before it makes them. */
  private stringMethod(target: string, name: string, args: unknown[]): unknown {
    const native = (String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
    switch (name) {
      case 'padStart':
      case 'padEnd': {
        // ToLength: NaN and negatives are 0; the result is never shorter than the string.
        const wanted = Number(args[0]);
        const length = Math.max(target.length, Number.isNaN(wanted) ? 0 : wanted);
        this.budget.string(length, name);
        return native.apply(target, args);
      }
      case 'split': {
        this.budget.charge(target.length, name);
        this.budget.array(splitCount(target, args, this.budget.limits.maxArrayLength), name);
        return this.mark(native.apply(target, args) as unknown[]);
      }
      case 'replaceAll': {
        this.budget.charge(target.length, name);
        this.budget.string(replacedLength(target, String(args[0]), String(args[1])), name);
        return native.apply(target, args);
      }
      case 'toUpperCase':
      case 'toLowerCase': {
        // A character may become up to three (ß → SS, ΐ → Ϊ́).
        this.budget.string(target.length, name);
        const out = native.apply(target, args) as string;
        this.budget.string(out.length, name);
        return out;
      }
      case 'at':
        return native.apply(target, args);
      default:
        // trim, slice, startsWith, endsWith, includes, indexOf: they read the string and the argument.
        this.budget.charge(target.length + (typeof args[0] === 'string' ? args[0].length : 0), name);
        return native.apply(target, args);
    }
  }

  private checked(value: unknown, what: string): unknown {
    this.coerced(value, what);
    return value;
  }
}

/** What `item` adds to a `join`: nothing for null/undefined, its text otherwise (measured for data). */
function joinedSize(item: unknown, budget: Budget): number {
  if (item === undefined || item === null) return 0;
  if (typeof item === 'string') return item.length;
  if (typeof item === 'object') return budget.textSize(item, 'join');
  return String(item).length;
}

/** The length of `array.flat(depth)`, counted item by item (each charged), before it is made. */
function flatLength(array: unknown[], depth: number, budget: Budget): number {
  let count = 0;
  const stack: [unknown[], number][] = [[array, depth]];
  while (stack.length > 0) {
    const [items, left] = stack.pop()!;
    budget.charge(items.length, 'flat');
    for (const item of items) {
      if (Array.isArray(item) && left >= 1) stack.push([item, left - 1]);
      else count++;
    }
    if (count > budget.limits.maxArrayLength) break;
  }
  return count;
}

/** How many parts `s.split(separator, limit)` makes, counted up to `cap` + 1. */
function splitCount(s: string, args: unknown[], cap: number): number {
  const limit = args[1] === undefined ? Number.POSITIVE_INFINITY : Number(args[1]) >>> 0;
  if (args[0] === undefined) return Math.min(1, limit);
  const separator = String(args[0]);
  if (separator === '') return Math.min(s.length, limit);
  let count = 1;
  for (
    let at = s.indexOf(separator);
    at >= 0 && count <= cap;
    at = s.indexOf(separator, at + separator.length)
  ) {
    count++;
  }
  return Math.min(count, limit);
}

/**
 * An upper bound of `s.replaceAll(search, replacement)`'s length. `$&` inserts the match, and
 * `` $` `` / `$'` what comes before or after it (up to the whole string): each counts as much.
 */
function replacedLength(s: string, search: string, replacement: string): number {
  let matches = 0;
  if (search === '') matches = s.length + 1;
  else for (let at = s.indexOf(search); at >= 0; at = s.indexOf(search, at + search.length)) matches++;
  if (matches === 0) return s.length;
  const count = (token: string) => replacement.split(token).length - 1;
  const each = replacement.length + count('$&') * search.length + (count('$`') + count("$'")) * s.length;
  return s.length - matches * search.length + matches * each;
}

/** Reads an own data property of plain data (arrays: indexes and length; strings: length, index). */
export function readMember(target: unknown, name: string | number): unknown {
  if (typeof name === 'string' && forbiddenNames.has(name)) throw forbidden(name);
  if (target === undefined || target === null) {
    throw new ExpressionError('emptyRead', `Cannot read "${name}" of ${String(target)}.`, {
      name: String(name),
    });
  }
  if (typeof target === 'string') {
    if (name === 'length') return target.length;
    if (typeof name === 'number' || /^\d+$/.test(name)) return target[Number(name)];
    return undefined;
  }
  if (Array.isArray(target)) {
    if (name === 'length') return target.length;
    if (typeof name === 'number' || /^\d+$/.test(name)) return target[Number(name)];
    return undefined;
  }
  if (target instanceof Closure || typeof target !== 'object' || !isPlainData(target)) return undefined;
  if (!Object.hasOwn(target, name)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  // Getters would run host code: only plain values are read.
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

function forbidden(name: string): ExpressionError {
  return new ExpressionError('forbiddenProperty', `"${name}" cannot be used in an expression.`, { name });
}

function unsupported(what: string): ExpressionError {
  return new ExpressionError('unsupported', `${what} is not supported in expressions.`, { what });
}

/** True when the text contains `{{ … }}`. */
export const isTemplate = (text: string) => splitTemplate(text).parts.some((p) => p.kind === 'hole');

/**
 * `Order {{ row.id }}` → text; a text that is exactly one `{{ expr }}` keeps the value's type
 * (a number stays a number when it becomes an action argument). A `{{` never closed stays text
 * (saving such a definition is refused; older ones still render).
 */
export function renderTemplate(text: string, context: Record<string, unknown>): unknown {
  const { parts } = splitTemplate(text);
  const whole = soleHole(parts);
  if (whole) return evaluate(whole.expression.trim(), context);
  // The holes of one template share one evaluation's steps and budget, their text included.
  const evaluator = new Evaluator();
  let out = '';
  for (const part of parts) {
    out +=
      part.kind === 'text' ? part.text : evaluator.text(evaluator.evaluate(part.expression.trim(), context));
    evaluator.fits(out.length);
  }
  return out;
}

/**
 * A binding: a text with `{{ }}` is a template, any other text is a literal value. Definitions
 * use this for argument values (`{{ row.id }}` or `shipped`).
 */
export function bind(value: unknown, context: Record<string, unknown>): unknown {
  if (typeof value !== 'string') return value;
  return isTemplate(value) ? renderTemplate(value, context) : value;
}
