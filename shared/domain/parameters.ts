/**
 * Validates call arguments against an action's parameter definitions and
 * returns each parameter's value, normalised per kind. How a value is then
 * bound (placeholder, JSON text, quoted list…) is the template's business.
 */

import {
  dateProblemText,
  earliestTimeMs,
  latestTimeMs,
  parseIsoDateTime,
  unixSecondsToTime,
} from './dates.ts';
import { type FileValue, identifierRegExp, type ParameterDefinition } from './definitions/parameter.ts';
import { argumentInvalid, DoguError, type FieldError } from './errors.ts';
import { numberProblem } from './exact-numbers.ts';
import { matchesTextPattern, maxPatternInputLength, PatternSyntaxError } from './text-pattern.ts';

export type MasterData = Record<string, { value: string | number | boolean; label: string }[]>;

export interface BindContext {
  /** Values for `system` parameters (currentUser.*, executionId, now). */
  system: Record<string, string>;
  masterData?: MasterData;
}

const pointerTo = (name: string) => `#/arguments/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;

class Refusal extends Error {}
const refuse = (detail: string): never => {
  throw new Refusal(detail);
};

/**
 * A batch binds the same parameters 10,000 times: the name lookup is built once per parameters array.
 * The array's items are kept and compared on each call (a few identity checks), so an array changed in
 * place after a call is never answered from a stale lookup.
 */
const lookups = new WeakMap<
  readonly ParameterDefinition[],
  { items: ParameterDefinition[]; byName: Map<string, ParameterDefinition> }
>();

function parametersByName(parameters: readonly ParameterDefinition[]): Map<string, ParameterDefinition> {
  const cached = lookups.get(parameters);
  if (
    cached &&
    cached.items.length === parameters.length &&
    cached.items.every((item, i) => item === parameters[i])
  ) {
    return cached.byName;
  }
  const byName = new Map(parameters.map((p) => [p.name, p]));
  lookups.set(parameters, { items: [...parameters], byName });
  return byName;
}

export function bindArguments(
  parameters: readonly ParameterDefinition[],
  args: Record<string, unknown>,
  context: BindContext,
): Record<string, unknown> {
  const errors: FieldError[] = [];
  const bound: Record<string, unknown> = {};
  const byName = parametersByName(parameters);

  for (const name of Object.keys(args)) {
    const parameter = byName.get(name);
    if (!parameter)
      errors.push({ pointer: pointerTo(name), detail: `'${name}' is not a parameter of this action.` });
    else if (parameter.kind === 'system' && args[name] !== undefined) {
      errors.push({ pointer: pointerTo(name), detail: `'${name}' is a system value and cannot be given.` });
    }
  }

  for (const parameter of parameters) {
    try {
      bound[parameter.name] = bindOne(parameter, args[parameter.name], context);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      errors.push({ pointer: pointerTo(parameter.name), detail: `'${parameter.name}' ${error.message}` });
    }
  }

  if (errors.length > 0) throw argumentInvalid(errors);
  return bound;
}

const isEntered = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

function bindOne(parameter: ParameterDefinition, raw: unknown, context: BindContext): unknown {
  if (parameter.kind === 'system') return context.system[parameter.value] ?? '';
  const value = isEntered(raw) ? raw : 'default' in parameter ? parameter.default : undefined;
  if (!isEntered(value)) {
    if (parameter.required) refuse('is required.');
    return notEntered(parameter);
  }
  switch (parameter.kind) {
    case 'text':
      return text(parameter, value, context);
    case 'number':
      return number(parameter, value, context);
    case 'boolean':
      if (typeof value !== 'boolean') refuse('must be true or false.');
      return value;
    case 'date':
      return date(parameter, value);
    case 'array': {
      if (!Array.isArray(value)) refuse('must be an array.');
      const items = value as unknown[];
      if (parameter.maxItems !== undefined && items.length > parameter.maxItems) {
        refuse(`may have at most ${parameter.maxItems} items.`);
      }
      return items.map((item, i) => item_(parameter.itemKind, item, i, parameter, context));
    }
    case 'tuple': {
      if (!Array.isArray(value)) refuse('must be an array.');
      const items = value as unknown[];
      if (items.length !== parameter.items.length)
        refuse(`must have exactly ${parameter.items.length} items.`);
      return items.map((item, i) => item_(parameter.items[i]!.kind, item, i, undefined, context));
    }
    case 'sql':
      if (typeof value !== 'string') refuse('must be a string of SQL.');
      return noNul(value as string);
    case 'json':
      return value;
    case 'file':
      return file(parameter, value);
  }
}

/** Spec 2.2: text '' and number null when not entered; the other kinds follow the same idea. */
function notEntered(parameter: ParameterDefinition): unknown {
  switch (parameter.kind) {
    case 'text':
    case 'sql':
      return '';
    case 'boolean':
      return false;
    case 'date':
      return parameter.useAsUnixtime ? null : '';
    case 'array':
    case 'tuple':
      return [];
    default:
      return null;
  }
}

type WithChoices = { choices?: { value: unknown; label: string }[]; masterData?: string };

/** A choice's label converts to its value (spec 2.7); anything else must be one of the values. */
function chosen(parameter: WithChoices, value: unknown, context: BindContext): unknown {
  const choices =
    parameter.choices ?? (parameter.masterData ? context.masterData?.[parameter.masterData] : undefined);
  if (!choices) return value;
  if (choices.some((c) => c.value === value)) return value;
  const byLabel = choices.find((c) => c.label === value);
  if (byLabel) return byLabel.value;
  const shown = choices.slice(0, 10).map((c) => JSON.stringify(c.value));
  return refuse(`must be one of ${shown.join(', ')}${choices.length > 10 ? ', …' : ''}.`);
}

/** PostgreSQL text cannot hold U+0000, and no legitimate value needs it: refuse it up front. */
function noNul(value: string, what = ''): string {
  if (value.includes('\u0000')) refuse(`${what}must not contain the NUL character (U+0000).`);
  return value;
}

function text(
  parameter: Extract<ParameterDefinition, { kind: 'text' }>,
  value: unknown,
  context: BindContext,
) {
  const result = chosen(parameter, value, context);
  if (typeof result !== 'string') refuse('must be a string.');
  const textValue = noNul(result as string);
  if (parameter.identifier && !identifierRegExp.test(textValue)) {
    refuse(
      'must be a name of letters, digits, _ or $ (optionally schema.name), starting with a letter or _.',
    );
  }
  if (parameter.pattern) checkPattern(parameter.pattern, textValue);
  return textValue;
}

function checkPattern(pattern: string, value: string) {
  if (value.length > maxPatternInputLength) {
    refuse(`is longer than ${maxPatternInputLength} characters, the most a pattern is checked against.`);
  }
  let matches: boolean;
  try {
    matches = matchesTextPattern(pattern, value);
  } catch (error) {
    // Saved before patterns were checked with RE2: the definition is wrong, not the value.
    if (!(error instanceof PatternSyntaxError)) throw error;
    throw new DoguError(
      'invalid_definition',
      `The pattern of this parameter ${error.message}. Ask the action's editor to change it.`,
    );
  }
  if (!matches) refuse(`must match the pattern ${pattern}.`);
}

function number(
  parameter: Extract<ParameterDefinition, { kind: 'number' }>,
  value: unknown,
  context: BindContext,
) {
  const result = chosen(parameter, value, context);
  if (typeof result !== 'number' || !Number.isFinite(result)) refuse('must be a finite number.');
  const n = result as number;
  const inexact = numberProblem(n);
  if (inexact) refuse(`is ${n}, which ${inexact}`);
  if (parameter.integer && !Number.isInteger(n)) refuse('must be a whole number.');
  if (parameter.min !== undefined && n < parameter.min) refuse(`must be at least ${parameter.min}.`);
  if (parameter.max !== undefined && n > parameter.max) refuse(`must be at most ${parameter.max}.`);
  return n;
}

/** The date texts accepted as they are; csv-cells.ts passes such cells through unchanged. */
export const isoDateText = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

const dateFormat = 'must be a date such as 2026-11-22 or 2026-11-22T09:00:00+09:00, or Unix seconds.';

/**
 * Dates arrive as ISO 8601 text (a date, or a date and time) or as Unix seconds, read by dates.ts:
 * 2026-02-30 is refused rather than rolled over into March, and instants outside the years
 * 0001–9999 are refused rather than thrown on.
 */
function date(parameter: Extract<ParameterDefinition, { kind: 'date' }>, value: unknown): string | number {
  let time: number;
  if (typeof value === 'number') {
    const fromSeconds = unixSecondsToTime(value);
    if (fromSeconds === 'out-of-range') {
      return refuse(`${dateProblemText['out-of-range']} (Unix seconds ${unixSecondsRange}).`);
    }
    time = fromSeconds;
  } else if (typeof value === 'string') {
    const parsed = parseIsoDateTime(value);
    if (parsed === 'format') return refuse(dateFormat);
    if (typeof parsed === 'string') return refuse(`${dateProblemText[parsed]}.`);
    time = parsed.time;
  } else return refuse(dateFormat);
  if (parameter.useAsUnixtime) return Math.floor(time / 1000);
  if (typeof value === 'string') return value;
  return new Date(time).toISOString();
}

const unixSecondsRange = `${earliestTimeMs / 1000} to ${Math.floor(latestTimeMs / 1000)}`;

function item_(
  kind: 'text' | 'number',
  item: unknown,
  index: number,
  parameter: WithChoices | undefined,
  context: BindContext,
): string | number {
  const value = parameter ? chosen(parameter, item, context) : item;
  if (kind === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) {
    refuse(`item ${index} must be a finite number.`);
  }
  const inexact = kind === 'number' ? numberProblem(value as number) : undefined;
  if (inexact) refuse(`item ${index} is ${value}, which ${inexact}`);
  if (kind === 'text' && typeof value !== 'string') refuse(`item ${index} must be a string.`);
  if (kind === 'text') noNul(value as string, `item ${index} `);
  return value as string | number;
}

function file(parameter: Extract<ParameterDefinition, { kind: 'file' }>, value: unknown): FileValue {
  const candidate = value as Partial<FileValue>;
  if (
    typeof candidate !== 'object' ||
    typeof candidate.name !== 'string' ||
    typeof candidate.contentBase64 !== 'string' ||
    !/^[A-Za-z0-9+/]*={0,2}$/.test(candidate.contentBase64)
  ) {
    return refuse('must be {"name", "contentType", "contentBase64"} with the content in base64.');
  }
  const contentType =
    typeof candidate.contentType === 'string' ? candidate.contentType : 'application/octet-stream';
  const size = Buffer.byteLength(candidate.contentBase64, 'base64');
  const limit = parameter.maxBytes ?? 5 * 1024 * 1024;
  if (size > limit) refuse(`is ${size} bytes; at most ${limit} are allowed.`);
  if (parameter.accept && !parameter.accept.some((pattern) => typeMatches(pattern, contentType))) {
    refuse(`must be of type ${parameter.accept.join(' or ')}, not ${contentType}.`);
  }
  return { name: candidate.name, contentType, size, contentBase64: candidate.contentBase64 };
}

const typeMatches = (pattern: string, type: string) =>
  pattern.endsWith('/*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
