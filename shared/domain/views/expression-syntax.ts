/**
 * The syntax of view expressions, in one place for the server (which refuses a view whose
 * expressions cannot parse, shared/domain/views/validate-view.ts) and the console (which
 * interprets the parsed tree without `eval`, web/src/screens/views/expressions/evaluate.ts):
 * jsep with arrow functions, object literals, spread and template literals, and the splitting of
 * `{{ expr }}` templates. Nothing here evaluates anything.
 */
import arrow from '@jsep-plugin/arrow';
import object from '@jsep-plugin/object';
import spread from '@jsep-plugin/spread';
import template from '@jsep-plugin/template';
import jsep from 'jsep';
import { viewLimits } from '../definitions/view.ts';

jsep.plugins.register(arrow, object, spread, template);

export type ExpressionNode = jsep.Expression;

/** A text that is not one expression; `index` is the 0-based offset of the problem in the text. */
export class ExpressionSyntaxError extends Error {
  constructor(
    /** What is wrong, without the position (English; jsep's own words). */
    readonly description: string,
    readonly index: number,
    /** Japanese text, where this module wrote the description itself. */
    readonly ja?: string,
  ) {
    super(`${description} at character ${index}`);
    this.name = 'ExpressionSyntaxError';
  }
}

/** jsep's parser class: used to find where the first of several expressions ends. */
type JsepParser = { index: number; gobbleExpression(): unknown; gobbleSpaces(): void };
const Parser = (jsep as unknown as { Jsep: new (text: string) => JsepParser }).Jsep;

/** As deep as the console's evaluator goes (evaluate.ts `maxDepth`): deeper could never run anyway. */
export const maxNesting = 200;

/**
 * An upper bound of how deep jsep will recurse parsing `text`, outside string literals: open
 * brackets, the run of prefix operators (`!`, `-`, `+`, `~`) at each point, and the conditionals
 * (`?`) and arrow functions (`=>`) chained at each bracket level (a `,` ends a chain). Cheap and
 * iterative; the tree jsep builds without recursing (`a.b.c…`, `1 + 1 + …`) is measured after
 * parsing (`treeDepth`).
 */
export function nestingDepth(text: string): number {
  let unary = 0;
  let deepest = 0;
  // Conditionals and arrows chained at each open bracket level, and their sum.
  const chains: number[] = [0];
  let chained = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) {
        quote = undefined;
        unary = 0;
      }
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') chains.push(0);
    else if (c === ')' || c === ']' || c === '}') {
      if (chains.length > 1) chained -= chains.pop()!;
    } else if (c === ',') {
      chained -= chains[chains.length - 1]!;
      chains[chains.length - 1] = 0;
    } else if (isConditional(text, i) || (c === '=' && text[i + 1] === '>')) {
      chains[chains.length - 1]!++;
      chained++;
    }
    if (c === '!' || c === '-' || c === '+' || c === '~') unary++;
    else if (!/\s/.test(c)) unary = 0;
    deepest = Math.max(deepest, chains.length - 1 + chained + unary);
  }
  return deepest;
}

/** A `?` of `a ? b : c`: not `?.` (optional chaining) nor either half of `??`. */
const isConditional = (text: string, i: number) =>
  text[i] === '?' && text[i + 1] !== '.' && text[i + 1] !== '?' && text[i - 1] !== '?';

/** How deep a parsed tree goes (the root being 1), walked without recursion. */
export function treeDepth(node: ExpressionNode): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[node, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth]);
      continue;
    }
    if (!isNode(value)) continue;
    deepest = Math.max(deepest, depth);
    const below = passedThrough.has(value.type) ? depth : depth + 1;
    for (const [key, child] of Object.entries(value)) if (key !== 'type') stack.push([child, below]);
  }
  return deepest;
}

/** Nodes the evaluator steps through without a level of its own (`{a: …}`'s property, `...x`). */
const passedThrough = new Set(['Property', 'SpreadElement']);

const tooDeep = () =>
  new ExpressionSyntaxError(
    `The expression nests more than ${maxNesting} levels deep`,
    0,
    `式の入れ子が ${maxNesting} 段を超えています`,
  );

/** Parses exactly one expression (jsep would return a `Compound` for `a b`, `a; b` or nothing). */
export function parseExpressionSyntax(text: string): ExpressionNode {
  const max = viewLimits.maxExpressionLength;
  if (text.length > max) {
    // A template's hole is one expression: the console refuses it past the same length.
    throw new ExpressionSyntaxError(
      `The expression is longer than ${max} characters`,
      0,
      `式が ${max} 文字を超えています`,
    );
  }
  // Refused before jsep recurses: near the stack's end a parse may pass and a later walk overflow,
  // which answered 500 now and then (issue 25); a limit answers the same 422 every time.
  if (nestingDepth(text) > maxNesting) throw tooDeep();
  let node: ExpressionNode;
  try {
    node = jsep(text);
  } catch (error) {
    if (error instanceof RangeError) {
      // jsep recurses per nesting level; the stack is the limit (not reached within the length).
      throw new ExpressionSyntaxError('The expression nests too deeply', 0, '式の入れ子が深すぎます');
    }
    const { description, index } = error as { description?: string; index?: number };
    throw new ExpressionSyntaxError(description ?? String((error as Error).message), index ?? 0);
  }
  if (node.type !== 'Compound') {
    // Chains jsep builds in a loop (`a.b.c…`, `f()()…`, `1 + 1 + …`) nest as deep as they are long:
    // the console's evaluator would stop at the same depth, and the walks below stay shallow.
    if (treeDepth(node) > maxNesting) throw tooDeep();
    return node;
  }
  const body = (node as jsep.Compound).body;
  if (body.length === 0) {
    const index = text.length - text.trimStart().length;
    throw new ExpressionSyntaxError('Expected an expression', index, '式がありません');
  }
  const parser = new Parser(text);
  parser.gobbleSpaces();
  parser.gobbleExpression();
  parser.gobbleSpaces();
  throw new ExpressionSyntaxError(
    `Only one expression is allowed (no ';', ',' between expressions, 'new' or statements); found more at "${text.slice(parser.index, parser.index + 20)}"`,
    parser.index,
    `式は一つだけ書けます（';'、式の間の ','、'new'、文は使えません）。"${text.slice(parser.index, parser.index + 20)}" から先が余分です`,
  );
}

export type TemplatePart =
  | { kind: 'text'; text: string }
  /** `offset`: where `expression` (without the braces) starts in the template. */
  | { kind: 'hole'; expression: string; offset: number };

/**
 * `Order {{ row.id }}` → literal text and holes, in order. A hole ends at the first `}}`.
 * `unclosedAt` is the offset of a `{{` with no `}}` after it (the rest is then literal text).
 */
export function splitTemplate(text: string): { parts: TemplatePart[]; unclosedAt?: number } {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{{', at);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    if (close < 0) {
      parts.push({ kind: 'text', text: text.slice(at) });
      return { parts, unclosedAt: open };
    }
    if (open > at) parts.push({ kind: 'text', text: text.slice(at, open) });
    parts.push({ kind: 'hole', expression: text.slice(open + 2, close), offset: open + 2 });
    at = close + 2;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return { parts };
}

/** True when the text is a template (it has `{{`), as the console decides for bindings. */
export const hasTemplate = (text: string) => text.includes('{{');

/** The one hole of a template that is nothing else (blanks aside): its value keeps its type. */
export function soleHole(parts: TemplatePart[]): Extract<TemplatePart, { kind: 'hole' }> | undefined {
  const holes = parts.filter((p) => p.kind === 'hole');
  if (holes.length !== 1) return undefined;
  const blankOtherwise = parts.every((p) => p.kind === 'hole' || p.text.trim() === '');
  return blankOtherwise ? holes[0] : undefined;
}

/**
 * How a field of a view definition is read:
 * - `expression`: always an expression (transformers);
 * - `binding`: a template when it has `{{`, otherwise an expression (arguments, `hidden`, `value`,
 *   URLs, form field defaults);
 * - `template`: literal text unless it has `{{ }}` holes (titles, text, Markdown, button labels).
 */
export type ExpressionFieldKind = 'expression' | 'binding' | 'template';

/** Every expression a field holds, with its offset in the field's text; throws at the first syntax error. */
export function parseField(
  text: string,
  kind: ExpressionFieldKind,
): { node: ExpressionNode; offset: number }[] {
  if (kind === 'expression' || (kind === 'binding' && !hasTemplate(text))) {
    return [{ node: parseExpressionSyntax(text), offset: 0 }];
  }
  const { parts, unclosedAt } = splitTemplate(text);
  if (unclosedAt !== undefined) {
    throw new ExpressionSyntaxError(
      "'{{' is not closed by '}}'",
      unclosedAt,
      "'{{' が '}}' で閉じられていません",
    );
  }
  const out: { node: ExpressionNode; offset: number }[] = [];
  for (const part of parts) {
    if (part.kind !== 'hole') continue;
    try {
      out.push({ node: parseExpressionSyntax(part.expression), offset: part.offset });
    } catch (error) {
      if (!(error instanceof ExpressionSyntaxError)) throw error;
      throw new ExpressionSyntaxError(error.description, part.offset + error.index, error.ja);
    }
  }
  return out;
}

/** A `queries.<id>` or `components.<id>` an expression names literally (not through a variable). */
export interface LocalReference {
  scope: 'queries' | 'components';
  id: string;
}

/**
 * The query and component ids an expression names as `queries.x`, `queries['x']`,
 * `components.x` or `components?.x`; a name shadowed by an arrow function's parameter is not one.
 */
export function localReferences(node: ExpressionNode): LocalReference[] {
  const found: LocalReference[] = [];
  const walk = (n: unknown, shadowed: ReadonlySet<string>) => {
    if (Array.isArray(n)) {
      for (const item of n) walk(item, shadowed);
      return;
    }
    if (!isNode(n)) return;
    if (n.type === 'ArrowFunctionExpression') {
      const params = ((n as { params?: unknown[] | null }).params ?? []).flatMap((p) =>
        isNode(p) && p.type === 'Identifier' ? [(p as jsep.Identifier).name] : [],
      );
      walk((n as { body?: unknown }).body, new Set([...shadowed, ...params]));
      return;
    }
    if (n.type === 'MemberExpression') {
      const member = n as jsep.MemberExpression;
      const root = member.object;
      if (root.type === 'Identifier') {
        const name = (root as jsep.Identifier).name;
        if ((name === 'queries' || name === 'components') && !shadowed.has(name)) {
          const id = member.computed
            ? member.property.type === 'Literal' &&
              typeof (member.property as jsep.Literal).value === 'string'
              ? ((member.property as jsep.Literal).value as string)
              : undefined
            : (member.property as jsep.Identifier).name;
          if (id !== undefined) found.push({ scope: name, id });
        }
      }
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'type') walk(value, shadowed);
  };
  walk(node, new Set());
  return found;
}

const isNode = (value: unknown): value is ExpressionNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
