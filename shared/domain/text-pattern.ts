/**
 * The `pattern` of a text parameter, matched in linear time (docs/decisions/0027). JavaScript's
 * RegExp backtracks: `(\w+\s?)*` against 29 characters held the whole process for 1.4 s, and any
 * member could send such a value. RE2 (the pure-JS port re2js) matches in time proportional to
 * pattern × value and has no backreferences or lookaround, so no pattern can be slow; the value a
 * pattern is checked against is bounded as well.
 */
import { RE2JS } from 're2js';

/** A pattern is part of an action definition: a longer one is a mistake, not a need. */
export const maxPatternLength = 1000;
/** The longest text a pattern is checked against; keeps even a linear match well under a millisecond. */
export const maxPatternInputLength = 10_000;

export class PatternSyntaxError extends Error {
  override name = 'PatternSyntaxError';
}

/**
 * Compiled patterns by source: patterns come from action definitions, so there are few; the cap
 * only guards a long-running process against unbounded growth.
 */
const compiled = new Map<string, RE2JS>();
const maxCompiled = 1000;

/** The whole value must match (the pattern is anchored at both ends). Throws PatternSyntaxError. */
export function compileTextPattern(pattern: string): RE2JS {
  const known = compiled.get(pattern);
  if (known) return known;
  if (pattern.length > maxPatternLength) {
    throw new PatternSyntaxError(`is longer than ${maxPatternLength} characters`);
  }
  let regexp: RE2JS;
  try {
    regexp = RE2JS.compile(`^(?:${pattern})$`);
  } catch (error) {
    throw new PatternSyntaxError(describeSyntaxError(error));
  }
  if (compiled.size >= maxCompiled) compiled.clear();
  compiled.set(pattern, regexp);
  return regexp;
}

/** RE2's messages name the construct (`invalid or unsupported Perl syntax: \`(?=\``); keep that part. */
function describeSyntaxError(error: unknown): string {
  const message = error instanceof Error ? error.message.replace(/^error parsing regexp:\s*/, '') : '';
  const hint =
    'use RE2 syntax: no backreferences (\\1) or lookaround ((?=…), (?!…), (?<=…)); see docs/security.md, "Patterns"';
  return `is not a valid regular expression${message ? ` (${message})` : ''}; ${hint}`;
}

/** What is wrong with a pattern, or undefined when it compiles. */
export function textPatternProblem(pattern: string): string | undefined {
  try {
    compileTextPattern(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof PatternSyntaxError) return error.message;
    throw error;
  }
}

export function matchesTextPattern(pattern: string, value: string): boolean {
  return compileTextPattern(pattern).matches(value);
}
