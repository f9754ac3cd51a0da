/**
 * Bound claims of a trust policy (docs/authentication.md, "Bound claims"): which claim a rule reads
 * (`key`) and which values it accepts (`pattern`). Pure functions, no I/O: the token exchange calls
 * `matchesBoundClaims` with the verified token's payload, the management API calls
 * `boundClaimProblems` before saving.
 *
 * Patterns are matched by a small glob matcher rather than a regular expression: the claim values
 * come from whoever holds a token of the issuer, and a backtracking regex built from `*a*a*a…`
 * can be driven into polynomial blow-up. This matcher is O(pattern × value) at worst.
 */
import type { BoundClaim } from './model.ts';

export const maxKeyLength = 256;
export const maxPatternLength = 1024;

/** One element of a compiled pattern: a literal code point, `?` (one code point) or `*` (any run). */
type Token = { literal: string } | 'any-one' | 'any-run';

export class BoundClaimSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BoundClaimSyntaxError';
  }
}

/** Splits a pattern into tokens; throws BoundClaimSyntaxError for a bad escape. */
export function compilePattern(pattern: string): Token[] {
  const tokens: Token[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char === '*') {
      // `**` means the same as `*`; keeping one makes the matcher's work smaller.
      if (tokens.at(-1) !== 'any-run') tokens.push('any-run');
    } else if (char === '?') {
      tokens.push('any-one');
    } else if (char === '\\') {
      const next = chars[++i];
      if (next === undefined) throw new BoundClaimSyntaxError('ends with a lone backslash; write \\\\');
      if (next !== '*' && next !== '?' && next !== '\\') {
        throw new BoundClaimSyntaxError(`'\\${next}' is not an escape; only \\*, \\? and \\\\ are`);
      }
      tokens.push({ literal: next });
    } else {
      tokens.push({ literal: char });
    }
  }
  return tokens;
}

/** Patterns compiled once per text: every exchange matches the same few policies' rules. */
const compiledPatterns = new Map<string, Token[]>();
const maxCompiledPatterns = 1_000;

function compiled(pattern: string): Token[] {
  let tokens = compiledPatterns.get(pattern);
  if (tokens === undefined) {
    tokens = compilePattern(pattern);
    if (compiledPatterns.size >= maxCompiledPatterns) {
      compiledPatterns.delete(compiledPatterns.keys().next().value!);
    }
    compiledPatterns.set(pattern, tokens);
  }
  return tokens;
}

const surrogate = /[\uD800-\uDFFF]/;

/** Whole-value, case-sensitive glob match, by code point. */
function globMatches(tokens: readonly Token[], value: string): boolean {
  // Without surrogate pairs a code unit is a code point: the string is indexed as it is.
  const chars: ArrayLike<string> = surrogate.test(value) ? Array.from(value) : value;
  let t = 0;
  let v = 0;
  // Where the last `*` was and which value position it is currently taken to end at.
  let starToken = -1;
  let starValue = 0;
  while (v < chars.length) {
    const token = tokens[t];
    if (token !== undefined && token !== 'any-run' && (token === 'any-one' || token.literal === chars[v])) {
      t++;
      v++;
    } else if (token === 'any-run') {
      starToken = t++;
      starValue = v;
    } else if (starToken >= 0) {
      // Let the last `*` swallow one more character and try the rest again.
      t = starToken + 1;
      v = ++starValue;
    } else {
      return false;
    }
  }
  while (tokens[t] === 'any-run') t++;
  return t === tokens.length;
}

/** The pattern that matches exactly `text`: `*`, `?` and `\` escaped. */
export function escapePattern(text: string): string {
  return text.replace(/[*?\\]/g, (char) => `\\${char}`);
}

/**
 * The path a key addresses. A key starting with `/` is a JSON Pointer (RFC 6901) into nested
 * claims; any other key is one top-level claim name taken literally, colons and slashes included.
 */
export function parseClaimKey(key: string): string[] {
  if (key.length === 0) throw new BoundClaimSyntaxError('must not be empty');
  if (!key.startsWith('/')) return [key];
  return key
    .slice(1)
    .split('/')
    .map((segment) => {
      if (/~(?![01])/.test(segment)) {
        throw new BoundClaimSyntaxError(
          "has '~' not followed by 0 or 1; in a JSON Pointer write '~0' for '~' and '~1' for '/'",
        );
      }
      return segment.replaceAll('~1', '/').replaceAll('~0', '~');
    });
}

/** The claim value at `key`, or undefined when any step of the path is missing. */
export function claimAt(claims: unknown, key: string): unknown {
  if (key.length > 0 && !key.startsWith('/') && !Array.isArray(claims)) {
    // One top-level claim of an object: no path to parse.
    return typeof claims === 'object' && claims !== null && Object.hasOwn(claims, key)
      ? (claims as Record<string, unknown>)[key]
      : undefined;
  }
  let current = claims;
  for (const segment of parseClaimKey(key)) {
    if (Array.isArray(current)) {
      // Only RFC 6901 array indices ("0", "12"; no leading zeros, no "-") step into an array.
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** The text a claim value is compared as: strings as they are, numbers and booleans as JSON. */
function comparableText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return undefined;
}

/**
 * Does the claim value match the pattern? An array matches when one of its elements does; null,
 * objects and a missing value never match.
 */
export function valueMatches(pattern: string | readonly Token[], value: unknown): boolean {
  const tokens = typeof pattern === 'string' ? compiled(pattern) : pattern;
  if (!Array.isArray(value)) {
    const text = comparableText(value);
    return text !== undefined && globMatches(tokens, text);
  }
  return value.some((candidate) => {
    const text = comparableText(candidate);
    return text !== undefined && globMatches(tokens, text);
  });
}

/** The first rule the claims do not satisfy (for the exchange's logs), or undefined when all hold. */
export function firstUnmatchedBoundClaim(
  claims: Record<string, unknown>,
  boundClaims: readonly BoundClaim[],
): BoundClaim | undefined {
  return boundClaims.find((rule) => {
    try {
      return !valueMatches(rule.pattern, claimAt(claims, rule.key));
    } catch (error) {
      // A stored rule that no longer parses (saved before a syntax change) must refuse, never allow.
      if (error instanceof BoundClaimSyntaxError) return true;
      throw error;
    }
  });
}

/** Every rule holds (an empty list holds trivially; the management API refuses empty lists). */
export function matchesBoundClaims(
  claims: Record<string, unknown>,
  boundClaims: readonly BoundClaim[],
): boolean {
  return firstUnmatchedBoundClaim(claims, boundClaims) === undefined;
}

/** What is wrong with one rule, per field; empty when it is valid. */
export function boundClaimProblems(rule: BoundClaim): { field: 'key' | 'pattern'; detail: string }[] {
  const problems: { field: 'key' | 'pattern'; detail: string }[] = [];
  const check = (field: 'key' | 'pattern', max: number, parse: (text: string) => unknown) => {
    const text = rule[field];
    if (text.length > max) problems.push({ field, detail: `is longer than ${max} characters` });
    else {
      try {
        parse(text);
      } catch (error) {
        if (!(error instanceof BoundClaimSyntaxError)) throw error;
        problems.push({ field, detail: error.message });
      }
    }
  };
  check('key', maxKeyLength, parseClaimKey);
  check('pattern', maxPatternLength, compilePattern);
  if (rule.pattern.length === 0) problems.push({ field: 'pattern', detail: 'must not be empty' });
  return problems;
}

/** `*` (or `**`…): accepts any present string, number or boolean, so it constrains nothing. */
export function matchesAnything(pattern: string): boolean {
  try {
    const tokens = compilePattern(pattern);
    return tokens.length > 0 && tokens.every((token) => token === 'any-run');
  } catch {
    return false;
  }
}
