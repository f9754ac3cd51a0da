/**
 * What the form holds per parameter kind, and how it becomes the `arguments` the API expects
 * (docs/actions.md). Empty inputs are left out, so the server applies defaults exactly as it does
 * for API callers. Client checks catch what cannot be sent at all (text in a number box, broken
 * JSON) and a number's own rules (whole number, at least / at most), so the form says what is wrong
 * before sending; the server still judges every rule, its 422 pointers shown the same way.
 */
import { isDecimalLiteral, literalProblem, parseExactJson } from '../../../../shared/domain/exact-numbers.ts';
import { pointerSegments } from '../../api/field-errors.ts';
import type { Choice, Parameter } from '../../api/types.ts';

export interface FileDraft {
  name: string;
  contentType: string;
  size: number;
  contentBase64: string;
}

export type Draft =
  | { kind: 'text'; value: string }
  | { kind: 'boolean'; value: boolean }
  /** `unix` when the user types Unix seconds instead of picking a date. */
  | { kind: 'date'; value: string; unix: boolean }
  | { kind: 'list'; items: string[] }
  | { kind: 'file'; file: FileDraft | undefined }
  | { kind: 'none' };

export type Drafts = Record<string, Draft>;

/** Choices of a parameter: inline, or the project's master data list it names. */
export function choicesOf(parameter: Parameter, masterData: Record<string, Choice[]>): Choice[] | undefined {
  if (!('choices' in parameter) && !('masterData' in parameter)) return undefined;
  const withChoices = parameter as { choices?: Choice[]; masterData?: string };
  if (withChoices.choices) return withChoices.choices;
  return withChoices.masterData ? (masterData[withChoices.masterData] ?? []) : undefined;
}

export function initialDraft(parameter: Parameter): Draft {
  switch (parameter.kind) {
    case 'text':
    case 'sql':
      return { kind: 'text', value: parameter.default ?? '' };
    case 'number':
      return { kind: 'text', value: parameter.default === undefined ? '' : String(parameter.default) };
    case 'json':
      return {
        kind: 'text',
        value: parameter.default === undefined ? '' : JSON.stringify(parameter.default, null, 2),
      };
    case 'boolean':
      return { kind: 'boolean', value: parameter.default ?? false };
    case 'date':
      return {
        kind: 'date',
        value: dateInputValue(parameter.default ?? '', parameter.withTime),
        unix: false,
      };
    case 'array':
      return { kind: 'list', items: (parameter.default ?? []).map(String) };
    case 'tuple':
      return {
        kind: 'list',
        items: parameter.items.map((_, i) =>
          parameter.default?.[i] === undefined ? '' : String(parameter.default[i]),
        ),
      };
    case 'file':
      return { kind: 'file', file: undefined };
    case 'system':
      return { kind: 'none' };
  }
}

export function initialDrafts(parameters: Parameter[]): Drafts {
  return Object.fromEntries(parameters.map((p) => [p.name, initialDraft(p)]));
}

/**
 * The initial drafts with values from a link's query (`?order_id=42`, as a view's navigate event
 * opens an action): text-like kinds take the text, booleans `true`, lists JSON arrays.
 */
export function draftsFromQuery(parameters: Parameter[], query: URLSearchParams): Drafts {
  const drafts = initialDrafts(parameters);
  for (const parameter of parameters) {
    const raw = query.get(parameter.name);
    const draft = drafts[parameter.name];
    if (raw === null || !draft) continue;
    if (draft.kind === 'text') drafts[parameter.name] = { kind: 'text', value: raw };
    else if (draft.kind === 'boolean') drafts[parameter.name] = { kind: 'boolean', value: raw === 'true' };
    else if (draft.kind === 'date') drafts[parameter.name] = { kind: 'date', value: raw, unix: false };
    else if (draft.kind === 'list') {
      try {
        const items: unknown = JSON.parse(raw);
        if (Array.isArray(items)) drafts[parameter.name] = { kind: 'list', items: items.map(String) };
      } catch {
        drafts[parameter.name] = { kind: 'list', items: [raw] };
      }
    }
  }
  return drafts;
}

/** A stored default (`2026-03-01`, `2026-03-01T09:00:00+09:00`) as the date input's value. */
function dateInputValue(value: string, withTime: boolean | undefined): string {
  if (!value) return '';
  if (!withTime) return value.slice(0, 10);
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? '' : localDateTime(parsed);
}

const pad = (n: number) => String(n).padStart(2, '0');

function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `2026-11-22T09:00` typed in the browser's zone → `2026-11-22T09:00:00+09:00` (the API reads no zone as UTC). */
export function withLocalOffset(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${value.length === 16 ? `${value}:00` : value}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Unix seconds of a date input's value, for the read-out under a use-as-Unix-time date. */
export function unixSecondsOf(value: string, withTime: boolean | undefined): number | undefined {
  if (!value) return undefined;
  const time = withTime ? new Date(withLocalOffset(value)).getTime() : Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
}

/** Messages are i18n keys with variables, so the form shows them in the user's language. */
export interface ClientError {
  key: string;
  vars?: Record<string, string | number>;
}

function toNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : Number.NaN;
}

/** What is wrong with a number for this parameter (its integer, min and max rules), if anything. */
function numberProblem(
  parameter: Extract<Parameter, { kind: 'number' }>,
  value: number,
): ClientError | undefined {
  if (Number.isNaN(value)) return { key: 'param.notANumber' };
  if (parameter.integer && !Number.isInteger(value)) return { key: 'param.notWholeNumber', vars: { value } };
  if (parameter.min !== undefined && value < parameter.min)
    return { key: 'param.belowMin', vars: { min: parameter.min } };
  if (parameter.max !== undefined && value > parameter.max)
    return { key: 'param.aboveMax', vars: { max: parameter.max } };
  return undefined;
}

/** The message for one parameter's draft as it stands (shown while typing, gone when fixed). */
export function draftProblem(parameter: Parameter, draft: Draft): ClientError | undefined {
  return toArguments([parameter], { [parameter.name]: draft }).errors[parameter.name];
}

/**
 * The request's `arguments`, and the inputs that cannot be sent as they are. A number list item
 * that is not a number, JSON that does not parse: named per parameter.
 */
export function toArguments(
  parameters: Parameter[],
  drafts: Drafts,
): { arguments: Record<string, unknown>; errors: Record<string, ClientError> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, ClientError> = {};
  for (const parameter of parameters) {
    const draft = drafts[parameter.name] ?? initialDraft(parameter);
    const put = (value: unknown) => {
      args[parameter.name] = value;
    };
    switch (parameter.kind) {
      case 'text':
      case 'sql':
        if (draft.kind === 'text' && draft.value !== '') put(draft.value);
        break;
      case 'number': {
        if (draft.kind !== 'text') break;
        const value = toNumber(draft.value);
        if (value === undefined) break;
        // Decision 0025: a number the browser would round is not sent rounded.
        const literal = draft.value.trim();
        if (isDecimalLiteral(literal) && literalProblem(literal)) {
          errors[parameter.name] = { key: 'param.notExact', vars: { value: literal } };
          break;
        }
        const problem = numberProblem(parameter, value);
        if (problem) errors[parameter.name] = problem;
        else put(value);
        break;
      }
      case 'boolean':
        if (draft.kind === 'boolean') put(draft.value);
        break;
      case 'date': {
        if (draft.kind !== 'date' || draft.value.trim() === '') break;
        if (draft.unix) {
          const seconds = toNumber(draft.value);
          if (seconds === undefined || Number.isNaN(seconds))
            errors[parameter.name] = { key: 'param.notUnixTime' };
          else put(seconds);
        } else {
          put(parameter.withTime ? withLocalOffset(draft.value) : draft.value);
        }
        break;
      }
      case 'array':
      case 'tuple': {
        if (draft.kind !== 'list') break;
        const kinds =
          parameter.kind === 'tuple'
            ? parameter.items.map((item) => item.kind)
            : draft.items.map(() => parameter.itemKind);
        const items =
          parameter.kind === 'array' ? draft.items.filter((item) => item.trim() !== '') : draft.items;
        if (parameter.kind === 'tuple' && items.every((item) => item.trim() === '')) break;
        const values: (string | number)[] = [];
        items.forEach((item, i) => {
          if (kinds[i] === 'number') {
            const value = toNumber(item);
            if (value === undefined || Number.isNaN(value)) {
              errors[parameter.name] ??= { key: 'param.itemNotANumber', vars: { item: i + 1 } };
            } else values.push(value);
          } else values.push(item);
        });
        put(values);
        break;
      }
      case 'json': {
        if (draft.kind !== 'text' || draft.value.trim() === '') break;
        const parsed = parseJson(draft.value);
        if (parsed.ok) put(parsed.value);
        else if (parsed.inexact)
          errors[parameter.name] = { key: 'param.jsonNotExact', vars: { value: parsed.inexact.literal } };
        else errors[parameter.name] = { key: 'param.invalidJson', vars: { message: parsed.message } };
        break;
      }
      case 'file':
        if (draft.kind === 'file' && draft.file) {
          put({
            name: draft.file.name,
            contentType: draft.file.contentType,
            contentBase64: draft.file.contentBase64,
          });
        }
        break;
      case 'system':
        break;
    }
  }
  return { arguments: args, errors };
}

/** JSON as typed, numbers kept exactly or refused (decision 0025): JSON.parse alone would round them. */
export const parseJson = parseExactJson;

/**
 * The API's 422 pointers (`#/arguments/limit`, `#/arguments/period/1`) → messages per parameter
 * name; anything not under `arguments` goes to `''` (shown above the form).
 */
export function errorsByParameter(errors: { pointer: string; detail: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { pointer, detail } of errors) {
    const [member, parameter] = pointerSegments(pointer);
    const name = member === 'arguments' && parameter ? parameter : '';
    out[name] = out[name] ? `${out[name]} ${detail}` : detail;
  }
  return out;
}

/** Reads a chosen file as the base64 the API takes; refuses files over the parameter's limit first. */
export async function readFileDraft(file: File): Promise<FileDraft> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return {
    name: file.name,
    contentType: file.type || 'application/octet-stream',
    size: file.size,
    contentBase64: btoa(binary),
  };
}
