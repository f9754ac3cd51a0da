/**
 * `{{ references }}` in JSON texts (HTTP JSON bodies, GraphQL variables).
 *
 * Values are encoded for the place they stand in, never spliced as text:
 * - a reference standing as a whole JSON value (`{"limit": {{ limit }}}`)
 *   becomes the value as JSON: 10, "abc", null, true, [1,2], {"a":1};
 * - a reference inside a JSON string (`"id-{{ id }}"`, also `"{{ limit }}"`)
 *   is inserted as escaped string content: the result is always a string.
 * So a value can never end its string or add members (no injection), and the
 * output is valid JSON whenever the template is. The template is checked with
 * the references blanked out, so a parse error never quotes a value (values
 * may be secrets).
 */
import { DoguError } from './errors.ts';

/** The same reference syntax as in SQL templates (template.ts). */
const referenceAt = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/y;

type Piece = { text: string } | { ref: string; source: string; inString: boolean };

export interface JsonTemplateOptions {
  /** Names the text in error messages, e.g. 'The JSON body'. */
  describe?: string;
}

export function renderJsonTemplate(
  template: string,
  resolve: (ref: string) => unknown,
  options: JsonTemplateOptions = {},
): string {
  const what = options.describe ?? 'The JSON template';
  const pieces = splitTemplate(template);
  assertValidSkeleton(pieces, what);
  const rendered = pieces
    .map((piece) => {
      if ('text' in piece) return piece.text;
      const value = resolve(piece.ref);
      return piece.inString ? escapeForJsonString(valueAsText(value)) : valueAsJson(value);
    })
    .join('');
  // Holds by construction; checked because a wrong body must never be sent.
  try {
    JSON.parse(rendered);
  } catch {
    throw new DoguError('internal_error', `${what} could not be rendered as valid JSON.`);
  }
  return rendered;
}

/** The references a JSON template uses, in order of appearance (for save-time checks). */
export function jsonTemplateReferences(template: string): string[] {
  return splitTemplate(template).flatMap((piece) => ('ref' in piece ? [piece.ref] : []));
}

/**
 * Walks the template once, knowing at each point whether it is inside a JSON
 * string literal (between unescaped double quotes).
 */
function splitTemplate(template: string): Piece[] {
  const pieces: Piece[] = [];
  let text = '';
  let inString = false;
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('{{', i)) {
      referenceAt.lastIndex = i;
      const match = referenceAt.exec(template);
      if (match) {
        if (text) pieces.push({ text });
        text = '';
        pieces.push({ ref: match[1]!, source: match[0], inString });
        i += match[0].length;
        continue;
      }
    }
    const char = template[i]!;
    if (inString && char === '\\') {
      text += template.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char === '"') inString = !inString;
    text += char;
    i++;
  }
  if (text) pieces.push({ text });
  return pieces;
}

/**
 * Parses the template with every reference replaced by a stand-in of the same
 * length (`null` padded with spaces, or letters inside strings), so error
 * positions are positions in the template.
 */
function assertValidSkeleton(pieces: readonly Piece[], what: string): void {
  const skeleton = pieces
    .map((piece) => {
      if ('text' in piece) return piece.text;
      return piece.inString ? 'x'.repeat(piece.source.length) : 'null'.padEnd(piece.source.length, ' ');
    })
    .join('');
  try {
    JSON.parse(skeleton);
  } catch (error) {
    const reason = error instanceof Error ? describeParseError(error.message, skeleton) : 'unreadable';
    throw new DoguError('bad_request', `${what} is not valid JSON: ${reason}.`);
  }
}

/** V8's reason without the text it sometimes quotes, and where in the template it went wrong. */
function describeParseError(message: string, text: string): string {
  const reason = message
    .replace(/, (?:\.\.\.)?".*$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ in JSON$/, '');
  if (/end of JSON input/.test(reason)) return 'it ends too early';
  const offset = syntaxErrorOffset(text);
  const before = text.slice(0, offset);
  const where =
    offset >= text.length
      ? 'at the end'
      : `at line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
  return `${reason.charAt(0).toLowerCase()}${reason.slice(1)} ${where}`;
}

const jsonLiteral = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const jsonEscape = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * The offset of the first character that cannot continue valid JSON (V8 names
 * it only for some errors). Called only after JSON.parse failed.
 */
function syntaxErrorOffset(text: string): number {
  let i = 0;
  const stop = (): never => {
    throw new JsonSyntaxStop(i);
  };
  const skipSpace = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const expect = (char: string) => {
    if (text[i] !== char) stop();
    i++;
  };
  const string = () => {
    expect('"');
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        jsonEscape.lastIndex = i;
        if (!jsonEscape.test(text)) stop();
        i = jsonEscape.lastIndex;
      } else if (text[i]! < ' ') stop();
      else i++;
    }
    expect('"');
  };
  const sequence = (close: string, item: () => void) => {
    i++;
    skipSpace();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      skipSpace();
      if (text[i] !== ',') break;
      i++;
    }
    expect(close);
  };
  const member = () => {
    skipSpace();
    string();
    skipSpace();
    expect(':');
    value();
  };
  const value = (): void => {
    skipSpace();
    if (text[i] === '{') sequence('}', member);
    else if (text[i] === '[') sequence(']', value);
    else if (text[i] === '"') string();
    else {
      jsonLiteral.lastIndex = i;
      if (!jsonLiteral.test(text)) stop();
      i = jsonLiteral.lastIndex;
    }
  };
  try {
    value();
    skipSpace();
    if (i < text.length) stop();
    return text.length;
  } catch (error) {
    if (error instanceof JsonSyntaxStop) return error.offset;
    throw error;
  }
}

class JsonSyntaxStop extends Error {
  constructor(readonly offset: number) {
    super('JSON syntax error');
  }
}

/**
 * A value as text, where text is all there is (a JSON string, a URL, a
 * header): not entered (null) is empty, objects and arrays are their JSON.
 */
export function valueAsText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return valueAsJson(value);
}

/** A value as a JSON value; a bigint keeps all its digits (JSON numbers have no size limit). */
export function valueAsJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  const json = JSON.stringify(value, (_key, nested: unknown) =>
    typeof nested === 'bigint' ? nested.toString() : nested,
  );
  // undefined, functions and symbols have no JSON form: they stand for "no value".
  return json ?? 'null';
}

function escapeForJsonString(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
