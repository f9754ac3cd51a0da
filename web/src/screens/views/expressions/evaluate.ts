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
 * nesting limit, so `(f => f(f))(f => f(f))` or a huge `map` ends with an error instead of a hang.
 */

import type jsep from 'jsep';
import {
  ExpressionSyntaxError,
  parseExpressionSyntax,
  soleHole,
  splitTemplate,
} from '../../../../../shared/domain/views/expression-syntax.ts';

export type ExpressionErrorCode =
  | 'syntax'
  | 'unknownName'
  | 'forbiddenProperty'
  | 'notAFunction'
  | 'unsupported'
  | 'tooComplex'
  | 'tooLong';

/** A problem with an expression; `key`/`vars` are the i18n message (views.expr.<code>). */
export class ExpressionError extends Error {
  readonly code: ExpressionErrorCode;
  readonly vars: Record<string, string | number>;
  constructor(code: ExpressionErrorCode, message: string, vars: Record<string, string | number> = {}) {
    super(message);
    this.name = 'ExpressionError';
    this.code = code;
    this.vars = vars;
  }
  get key(): string {
    return `views.expr.${this.code}`;
  }
}

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
export function evaluate(text: string, context: Record<string, unknown>): unknown {
  const node = parseExpression(text);
  return new Evaluator().run(node, Object.assign(Object.create(null), context) as Scope);
}

class Evaluator {
  private steps = 0;
  private depth = 0;

  run(node: Node, scope: Scope): unknown {
    if (++this.steps > limits.maxSteps) {
      throw new ExpressionError('tooComplex', 'The expression takes too many steps.', {
        max: limits.maxSteps,
      });
    }
    if (++this.depth > limits.maxDepth) {
      this.depth--;
      throw new ExpressionError('tooComplex', 'The expression nests too deeply.', { max: limits.maxDepth });
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
            if (Array.isArray(spreadValue)) out.push(...spreadValue);
          } else out.push(this.run(element, scope));
        }
        return out;
      }
      case 'ObjectExpression':
        return this.objectLiteral(node, scope);
      case 'UnaryExpression': {
        const unary = node as jsep.UnaryExpression;
        const value = this.run(unary.argument, scope);
        switch (unary.operator) {
          case '!':
            return !value;
          case '-':
            return -(value as number);
          case '+':
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
          if (i < literal.expressions.length) out += toText(this.run(literal.expressions[i]!, scope));
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
    if (typeof key === 'string') return key;
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
          for (const [k, v] of Object.entries(value)) {
            if (!forbiddenNames.has(k)) out[k] = v;
          }
        }
        continue;
      }
      const p = property as unknown as { key: Node; value?: Node; computed: boolean; shorthand?: boolean };
      const key = p.computed
        ? String(this.run(p.key, scope))
        : p.key.type === 'Identifier'
          ? (p.key as jsep.Identifier).name
          : String((p.key as jsep.Literal).value);
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
    // biome-ignore lint/suspicious/noExplicitAny: the operators behave as JavaScript's own on any operands
    const l = left as any;
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const r = right as any;
    switch (op) {
      case '+':
        return l + r;
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
    if (typeof fn === 'function' && Object.values(helpers).includes(fn as (...a: unknown[]) => unknown)) {
      return (fn as (...a: unknown[]) => unknown)(...args);
    }
    const name = callee?.type === 'Identifier' ? (callee as jsep.Identifier).name : 'value';
    throw new ExpressionError('notAFunction', `"${name}" is not a function.`, { name });
  }

  /** A closure as a plain callback for an array method; it still counts steps. */
  private callback(fn: unknown): (...args: unknown[]) => unknown {
    if (!(fn instanceof Closure) && !Object.values(helpers).includes(fn as never)) {
      throw new ExpressionError('notAFunction', 'The callback is not a function.', { name: 'callback' });
    }
    return (...args) => this.invoke(fn, args);
  }

  private method(target: unknown, name: string, args: unknown[]): unknown {
    if (Array.isArray(target) && arrayMethods.has(name)) {
      const withCallback = ['map', 'filter', 'find', 'findIndex', 'some', 'every', 'reduce'];
      if (withCallback.includes(name)) {
        const cb = this.callback(args[0]);
        // Only the element and index reach the callback, never the array's own method context.
        const wrapped =
          name === 'reduce'
            ? (acc: unknown, v: unknown, i: number) => cb(acc, v, i)
            : (v: unknown, i: number) => cb(v, i);
        return name === 'reduce'
          ? args.length > 1
            ? target.reduce(wrapped as never, args[1])
            : target.reduce(wrapped as never)
          : (target as unknown as Record<string, (f: unknown) => unknown>)[name]!(wrapped);
      }
      if (name === 'flat') return target.flat(Math.min(Number(args[0] ?? 1), 5));
      return (Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!.apply(
        target,
        args,
      );
    }
    if (typeof target === 'string' && stringMethods.has(name)) {
      if (args.some((a) => typeof a === 'function' || a instanceof Closure))
        throw unsupported('callbacks here');
      if (name === 'padStart' || name === 'padEnd') args[0] = Math.min(Number(args[0]), 10_000);
      return (String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!.apply(
        target,
        args,
      );
    }
    if (typeof target === 'number' && numberMethods.has(name)) {
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
}

/** Reads an own data property of plain data (arrays: indexes and length; strings: length, index). */
export function readMember(target: unknown, name: string | number): unknown {
  if (typeof name === 'string' && forbiddenNames.has(name)) throw forbidden(name);
  if (target === undefined || target === null) {
    throw new ExpressionError('unknownName', `Cannot read "${name}" of ${String(target)}.`, {
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

function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
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
  return parts
    .map((part) => (part.kind === 'text' ? part.text : toText(evaluate(part.expression.trim(), context))))
    .join('');
}

/**
 * A binding: a text with `{{ }}` is a template, any other text is a literal value. Definitions
 * use this for argument values (`{{ row.id }}` or `shipped`).
 */
export function bind(value: unknown, context: Record<string, unknown>): unknown {
  if (typeof value !== 'string') return value;
  return isTemplate(value) ? renderTemplate(value, context) : value;
}
