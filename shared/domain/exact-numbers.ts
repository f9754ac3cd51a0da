/**
 * The number rule (decision 0025). Numbers arrive as JSON and live as IEEE doubles in JavaScript and
 * in the store: a number is accepted only when it is kept exactly as written. So amounts and ids
 * beyond ±(2^53−1), or with more digits than a double holds, are refused (send them as text), and so
 * are magnitudes the store cannot hold. Nothing is rounded silently.
 */

/** The largest magnitude every integer up to which a double holds exactly: 9007199254740991. */
export const largestExactNumber = Number.MAX_SAFE_INTEGER;
/** DynamoDB keeps no non-zero magnitude below this (and nothing the store cannot keep is accepted). */
export const smallestKeptMagnitude = 1e-130;

/** Why a number (already read) cannot be kept, or undefined when it can. */
export function numberProblem(value: number): string | undefined {
  if (!Number.isFinite(value)) return 'is not a finite number.';
  const magnitude = Math.abs(value);
  if (magnitude > largestExactNumber) {
    return `is beyond ±${largestExactNumber} (2^53−1), so it would not be kept exactly; send such amounts or ids as text.`;
  }
  if (magnitude !== 0 && magnitude < smallestKeptMagnitude) {
    return `is closer to zero than ${smallestKeptMagnitude}, which cannot be kept.`;
  }
  return undefined;
}

/** Why a JSON number literal (as written) cannot be kept, or undefined when it can. */
export function literalProblem(literal: string): string | undefined {
  const value = Number(literal);
  const problem = numberProblem(value);
  if (problem) return problem;
  if (!sameDecimal(literal, String(value))) {
    return 'has more digits than are kept exactly (about 15 significant digits); send it as text.';
  }
  return undefined;
}

const decimalLiteral = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
export const isDecimalLiteral = (text: string) => decimalLiteral.test(text);

/** Whether two decimal texts (such as `1.50` and `1.5`, `1e+21` and `1000000000000000000000`) are one number. */
function sameDecimal(a: string, b: string): boolean {
  const [x, y] = [canonical(a), canonical(b)];
  return x.digits === y.digits && x.exponent === y.exponent && x.negative === y.negative;
}

/** digits × 10^exponent without leading or trailing zeros; zero has no sign. */
function canonical(text: string): { negative: boolean; digits: string; exponent: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return { negative: false, digits: text, exponent: 0 };
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let exponent = Number(exponentText) - fraction.length;
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  if (digits === '') return { negative: false, digits: '0', exponent: 0 };
  return { negative: sign === '-', digits, exponent };
}

/** A number within a parsed value that cannot be kept, with the JSON Pointer to it. */
export interface InexactNumber {
  pointer: string;
  literal: string;
  problem: string;
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Every JSON number literal that may not be kept has a fraction or an exponent (a digit followed by
 * `.`, `e` or `E`) or at least 16 digits; an integer of up to 15 digits is always kept exactly. A text
 * without either needs no scan (most request bodies): decision 0060.
 */
const mayHoldInexactNumber = /\d[.eE]|\d{16}/;

/**
 * Every number literal in a JSON text (already known to be valid JSON) that cannot be kept, with its
 * pointer. Reads the text itself: once parsed, `12345678901234567` is already `12345678901234568`.
 * Iterative, so nesting depth cannot exhaust the stack.
 */
export function inexactNumbersIn(json: string): InexactNumber[] {
  if (!mayHoldInexactNumber.test(json)) return [];
  const found: InexactNumber[] = [];
  const path: string[] = [];
  const frames: { object: boolean; index: number; expectKey: boolean }[] = [];
  const numberAt = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  let i = 0;
  while (i < json.length) {
    const c = json[i]!;
    const top = frames[frames.length - 1];
    if (c === '{' || c === '[') {
      frames.push({ object: c === '{', index: 0, expectKey: c === '{' });
      path.push('0');
      i++;
    } else if (c === '}' || c === ']') {
      frames.pop();
      path.pop();
      i++;
    } else if (c === ',') {
      if (top?.object) top.expectKey = true;
      else if (top) path[path.length - 1] = String(++top.index);
      i++;
    } else if (c === '"') {
      const end = endOfString(json, i);
      if (top?.object && top.expectKey) {
        path[path.length - 1] = JSON.parse(json.slice(i, end)) as string;
        top.expectKey = false;
      }
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      numberAt.lastIndex = i;
      const literal = numberAt.exec(json)?.[0] ?? c;
      const problem = literalProblem(literal);
      if (problem) found.push({ pointer: `/${path.map(escapePointer).join('/')}`, literal, problem });
      i += literal.length;
    } else {
      i++;
    }
  }
  return found;
}

/** The index just after the string starting at `start` (a double quote). */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return i;
}

/**
 * The first number within a value (already read) that cannot be kept, with its pointer; the last line
 * of defence where values are stored. Binary data and other class instances are not looked into.
 */
export function firstUnkeptNumber(value: unknown): InexactNumber | undefined {
  // Pointers are built only for the number found: building one per value visited was most of this
  // check's cost on every store write (decision 0060).
  type Entry = { value: unknown; parent: Entry | undefined; key: string };
  const pending: Entry[] = [{ value, parent: undefined, key: '' }];
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const current = entry.value;
    if (typeof current === 'number') {
      const problem = numberProblem(current);
      if (problem) return { pointer: pointerOf(entry) || '/', literal: String(current), problem };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        pending.push({ value: current[i], parent: entry, key: String(i) });
    } else if (
      current &&
      typeof current === 'object' &&
      Object.getPrototypeOf(current) === Object.prototype
    ) {
      for (const key in current) {
        const item = (current as Record<string, unknown>)[key];
        // Strings, booleans and null hold no number: not worth a stack entry.
        if (typeof item === 'number' || (item !== null && typeof item === 'object')) {
          pending.push({ value: item, parent: entry, key });
        }
      }
    }
  }
  return undefined;

  function pointerOf(entry: Entry): string {
    const keys: string[] = [];
    for (let at: Entry | undefined = entry; at?.parent; at = at.parent) keys.push(escapePointer(at.key));
    return keys.length ? `/${keys.reverse().join('/')}` : '';
  }
}

export type ExactJson =
  | { ok: true; value: unknown }
  | { ok: false; message: string; inexact?: InexactNumber };

/**
 * JSON.parse for JSON a person wrote (request templates, bodies, files, typed arguments): a number
 * that would not be kept exactly is refused with its pointer instead of being rounded (decision 0025).
 */
export function parseExactJson(text: string): ExactJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const inexact = inexactNumbersIn(text)[0];
  if (inexact) return { ok: false, message: inexactMessage(inexact), inexact };
  return { ok: true, value };
}

/** "/delta: 9007199254740993 is beyond …" (no pointer for a bare number). */
export const inexactMessage = (inexact: InexactNumber) =>
  `${inexact.pointer === '/' ? '' : `${inexact.pointer}: `}${inexact.literal} ${inexact.problem}`;
