/**
 * Renaming a component of a visual view: the id changes and every expression that names it as
 * `components.<old>` (or `components?.<old>`, `components['<old>']`) follows — in queries'
 * arguments and transformers, texts, labels, events and `{{ }}` templates; open and close events
 * name a renamed modal by its new id. The expressions are
 * parsed (the same parser the server checks them with): only real references are rewritten, so a
 * string literal that contains `components.old` and a `components` that is an arrow function's
 * parameter stay as written. Each rewritten text is parsed again and must equal the original tree
 * with just those references renamed; a field where that does not hold is left unchanged and named.
 */
import { expressionFields } from '../../../../../shared/domain/views/check-expressions.ts';
import {
  type ExpressionFieldKind,
  type ExpressionNode,
  hasTemplate,
  parseExpressionSyntax,
  splitTemplate,
} from '../../../../../shared/domain/views/expression-syntax.ts';
import type { ViewComponent, VisualViewDefinition } from '../view-api.ts';
import { flatten, mapComponent } from './draft.ts';

/** The pattern of component ids (as the definition schema's names). */
export const componentIdPattern = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export type RenameProblem = 'pattern' | 'taken';

/** Why `next` cannot be the new id of `current` (undefined: it can; the same id is no change). */
export function renameProblem(root: ViewComponent, current: string, next: string): RenameProblem | undefined {
  if (!componentIdPattern.test(next)) return 'pattern';
  if (next !== current && flatten(root).some((e) => e.component.id === next)) return 'taken';
  return undefined;
}

export interface Renamed {
  definition: VisualViewDefinition;
  /** JSON Pointers of fields that name the component but could not be rewritten safely. */
  skipped: string[];
}

export function renameComponent(definition: VisualViewDefinition, from: string, to: string): Renamed {
  if (from === to) return { definition, skipped: [] };
  const document = { definition: structuredClone(definition) };
  const skipped: string[] = [];
  for (const field of expressionFields(definition)) {
    const text = rewriteField(field.text, field.kind, from, to);
    if (text === undefined) skipped.push(field.pointer);
    else if (text !== field.text) setAt(document, field.pointer, text);
  }
  renameModalEvents(document.definition, from, to);
  const layout = mapComponent(document.definition.layout, from, (c) => ({ ...c, id: to }) as ViewComponent);
  return { definition: { ...document.definition, layout }, skipped };
}

/**
 * Open and close events name their modal by id, not by an expression: those ids follow too, wherever
 * the events sit (row clicks, submits, their follow-ups, timers…).
 */
function renameModalEvents(node: unknown, from: string, to: string): void {
  if (Array.isArray(node)) {
    for (const item of node) renameModalEvents(item, from, to);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if ((record.type === 'openModal' || record.type === 'closeModal') && record.modal === from)
    record.modal = to;
  for (const value of Object.values(record)) renameModalEvents(value, from, to);
}

/** The field's text with the references renamed; undefined when a reference could not be rewritten. */
export function rewriteField(
  text: string,
  kind: ExpressionFieldKind,
  from: string,
  to: string,
): string | undefined {
  if (kind === 'expression' || (kind === 'binding' && !hasTemplate(text))) {
    return rewriteExpression(text, from, to);
  }
  const { parts, unclosedAt } = splitTemplate(text);
  if (unclosedAt !== undefined) return text;
  let out = '';
  for (const part of parts) {
    if (part.kind === 'text') {
      out += part.text;
      continue;
    }
    const rewritten = rewriteExpression(part.expression, from, to);
    if (rewritten === undefined) return undefined;
    out += `{{${rewritten}}}`;
  }
  return out;
}

/** One expression with `components.<from>` renamed; unchanged when it does not parse or name it. */
export function rewriteExpression(text: string, from: string, to: string): string | undefined {
  let tree: ExpressionNode;
  try {
    tree = parseExpressionSyntax(text);
  } catch {
    // Not an expression (saving refuses it anyway): nothing in it is a reference to follow.
    return text;
  }
  const expected = structuredClone(tree);
  if (!renameInTree(expected, from, to)) return text;
  const candidate = replaceOutsideStrings(text, from, to);
  try {
    if (JSON.stringify(parseExpressionSyntax(candidate)) === JSON.stringify(expected)) return candidate;
  } catch {
    // Falls through: the text rewrite broke the expression.
  }
  return undefined;
}

/** Renames `components.<from>` member reads in the tree (not under an arrow parameter named `components`). */
function renameInTree(node: ExpressionNode, from: string, to: string): boolean {
  let renamed = false;
  const walk = (n: unknown, shadowed: boolean) => {
    if (Array.isArray(n)) {
      for (const item of n) walk(item, shadowed);
      return;
    }
    if (typeof n !== 'object' || n === null || typeof (n as { type?: unknown }).type !== 'string') return;
    const value = n as Record<string, unknown> & { type: string };
    if (value.type === 'ArrowFunctionExpression') {
      const params = (value.params as { type: string; name?: string }[] | null) ?? [];
      const hides = params.some((p) => p.type === 'Identifier' && p.name === 'components');
      walk(value.body, shadowed || hides);
      return;
    }
    if (value.type === 'MemberExpression' && !shadowed) {
      const object = value.object as { type: string; name?: string };
      const property = value.property as { type: string; name?: string; value?: unknown; raw?: string };
      if (object.type === 'Identifier' && object.name === 'components') {
        if (!value.computed && property.type === 'Identifier' && property.name === from) {
          property.name = to;
          renamed = true;
        } else if (value.computed && property.type === 'Literal' && property.value === from) {
          property.value = to;
          property.raw = `${property.raw?.[0] ?? "'"}${to}${property.raw?.[0] ?? "'"}`;
          renamed = true;
        }
      }
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'type') walk(child, shadowed);
  };
  walk(node, false);
  return renamed;
}

/** Rewrites the spelled-out references in code (never inside a string or template literal's text). */
function replaceOutsideStrings(text: string, from: string, to: string): string {
  // Ids match componentIdPattern: nothing in them is special to a regular expression.
  const escaped = from;
  const dotted = new RegExp(`(?<![\\w$.])components(\\s*\\??\\.\\s*)${escaped}(?![\\w$])`, 'g');
  const bracketed = new RegExp(
    `(?<![\\w$.])components(\\s*(?:\\?\\.)?\\s*\\[\\s*)(['"])${escaped}\\2(\\s*\\])`,
    'g',
  );
  let out = text;
  let mask = literalMask(out);
  out = out.replace(dotted, (match, gap: string, at: number) => (mask[at] ? match : `components${gap}${to}`));
  mask = literalMask(out);
  out = out.replace(bracketed, (match, gap: string, quote: string, end: string, at: number) =>
    mask[at] ? match : `components${gap}${quote}${to}${quote}${end}`,
  );
  return out;
}

/** For each character: true when it is inside a string literal or a template literal's text. */
function literalMask(text: string): boolean[] {
  const mask = new Array<boolean>(text.length).fill(false);
  // Each entry: a template literal's `${` code with its open brace count.
  const stack: number[] = [];
  let i = 0;
  const template = () => {
    // At the opening backtick: mark until the closing one or a `${`.
    mask[i++] = true;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') {
        mask[i++] = true;
        mask[i++] = true;
      } else if (c === '`') {
        mask[i++] = true;
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        stack.push(0);
        return;
      } else mask[i++] = true;
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      mask[i++] = true;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\') mask[i++] = true;
        mask[i++] = true;
      }
      mask[i++] = true;
    } else if (c === '`') template();
    else if (c === '{' && stack.length > 0) {
      stack[stack.length - 1]!++;
      i++;
    } else if (c === '}' && stack.length > 0) {
      if (stack[stack.length - 1] === 0) {
        stack.pop();
        // Back in the template literal's text: `}` ends the hole as a backtick would start it.
        template();
      } else {
        stack[stack.length - 1]!--;
        i++;
      }
    } else i++;
  }
  return mask.slice(0, text.length);
}

/** Sets the string at a `#/a/b/0` JSON Pointer (as expressionFields writes them) in `document`. */
function setAt(document: Record<string, unknown>, pointer: string, value: string): void {
  const keys = pointer
    .replace(/^#\//, '')
    .split('/')
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  let target = document as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1)!] = value;
}
