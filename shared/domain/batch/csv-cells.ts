/**
 * One CSV cell → one argument value, per parameter kind (spec 2.7). A converter is prepared once per
 * column (choice lookups, master data) so that 10,000 rows cost a map lookup and a conversion per cell.
 * The value produced is the form bindArguments accepts; its own rules (required, min, pattern…) are
 * checked afterwards by the row validation.
 */
import type { ParameterDefinition } from '../definitions/parameter.ts';
import { inexactNumbersIn, isDecimalLiteral, literalProblem, numberProblem } from '../exact-numbers.ts';
import { isoDateText, type MasterData } from '../parameters.ts';

/** A cell that cannot be converted: the detail names the rule, the caller adds the row and column. */
export class BadCell {
  constructor(readonly detail: string) {}
}

/** Returned for an empty cell of a kind where empty means "not entered": the key is left out of the row. */
export const notEntered = Symbol('not entered');

export type CellConverter = (cell: string) => unknown;

/** Kinds that have no cell rule: a column of these is refused before any row is read. */
export type CsvParameter = Exclude<ParameterDefinition, { kind: 'file' | 'system' }>;

const shown = (cell: string) => JSON.stringify(cell.length > 40 ? `${cell.slice(0, 40)}…` : cell);

export function cellConverter(parameter: CsvParameter, masterData: MasterData): CellConverter {
  const name = `'${parameter.name}'`;
  const choice = choiceLookup(parameter, masterData);
  switch (parameter.kind) {
    case 'text':
      return choice ? (cell) => (choice.has(cell) ? choice.get(cell) : cell) : (cell) => cell;
    case 'sql':
      return (cell) => cell;
    case 'number':
      return (cell) => {
        if (choice?.has(cell)) return choice.get(cell);
        return toNumber(name, cell);
      };
    case 'boolean':
      return (cell) => {
        const lower = cell.trim().toLowerCase();
        if (lower === 'true') return true;
        if (lower === 'false' || lower === '') return false;
        return new BadCell(
          `${name} must be true or false (any case), or empty for false, not ${shown(cell)}.`,
        );
      };
    case 'date':
      return (cell) => toDate(name, cell);
    case 'json':
      return (cell) => {
        const trimmed = cell.trim();
        if (trimmed === '') return null;
        try {
          const value: unknown = JSON.parse(trimmed);
          const inexact = inexactNumbersIn(trimmed)[0];
          if (inexact) return new BadCell(`${name} holds ${inexact.literal}, which ${inexact.problem}`);
          return value;
        } catch {
          return new BadCell(
            `${name} must be JSON such as 42, "text", {"a":1} or [1,2] (text in double quotes), not ${shown(cell)}.`,
          );
        }
      };
    case 'array':
    case 'tuple':
      return (cell) => {
        const items = toArray(name, cell);
        if (!choice || !Array.isArray(items)) return items;
        return items.map((item) => (typeof item === 'string' && choice.has(item) ? choice.get(item) : item));
      };
  }
}

/**
 * Cell text → choice value. A cell equal to a value (as text) keeps that value, as bindArguments checks
 * values before labels; otherwise a cell equal to a label becomes the label's value.
 */
function choiceLookup(parameter: CsvParameter, masterData: MasterData): Map<string, unknown> | undefined {
  if (!('choices' in parameter || 'masterData' in parameter)) return undefined;
  const choices = parameter.choices ?? (parameter.masterData ? masterData[parameter.masterData] : undefined);
  if (!choices) return undefined;
  const lookup = new Map<string, unknown>();
  for (const c of choices) lookup.set(c.label, c.value);
  for (const c of choices) lookup.set(String(c.value), c.value);
  return lookup;
}

function toNumber(name: string, cell: string): unknown {
  if (cell.trim() === '') return notEntered;
  const n = Number(cell);
  if (Number.isNaN(n)) return new BadCell(`${name} must be a number such as 12 or -3.5, not ${shown(cell)}.`);
  const trimmed = cell.trim();
  const inexact = isDecimalLiteral(trimmed) ? literalProblem(trimmed) : numberProblem(n);
  if (inexact) return new BadCell(`${name} is ${shown(cell)}, which ${inexact}`);
  return n;
}

function toArray(name: string, cell: string): unknown {
  const trimmed = cell.trim();
  if (trimmed === '') return notEntered;
  if (trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (Array.isArray(value)) return value;
    } catch {
      // falls through to the explanation below
    }
  }
  return new BadCell(
    `${name} must be a JSON array such as ["a","b"] or [1,2] (in the file: "[""a"",""b""]"), not ${shown(cell)}.`,
  );
}

const allDigits = /^\d+$/;
/** JavaScript's Date parser reads "a 1" as 2001: ask for a four-digit year and a month and day as well. */
const fourDigitYear = /\d{4}/;
const numericDate = /\d{1,4}\s*[/.-]\s*\d{1,2}\s*[/.-]\s*\d{1,4}/;
const namedMonth =
  /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s*\d{1,2}\b|\b\d{1,2}\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
const japaneseDate = /^(\d{4})年(\d{1,2})月(\d{1,2})日/;
/** An explicit zone at the end: Z / GMT / UTC (optionally with an offset), or an offset after a time. */
const explicitZone =
  /(?:[\d\s](?:Z|GMT|UTC)(?:[+-]\d{2}:?\d{2})?|:\d{2}(?:\.\d+)?\s*[+-]\d{2}:?\d{2})(?:\s*\([^)]*\))?$/i;

/** The form Japanese spreadsheets write (2026/11/22, 2026/1/5 9:30): read directly, the common case. */
const slashDate = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const daysIn = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : month === 4 || month === 6 || month === 9 || month === 11
      ? 30
      : 31;

function slashDateText(match: RegExpExecArray): string | undefined {
  const [, y, mo, d, h, mi, sec] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  const date = `${y}-${pad(month)}-${pad(day)}`;
  if (h === undefined) return date;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec ?? 0) > 59) return undefined;
  return `${date}T${pad(Number(h))}:${mi}:${sec ?? '00'}`;
}

function toDate(name: string, cell: string): unknown {
  const trimmed = cell.trim();
  if (trimmed === '') return notEntered;
  if (allDigits.test(trimmed)) return Number(trimmed);
  if (isoDateText.test(trimmed)) return trimmed;
  const text = trimmed.includes('年') ? trimmed.replace(japaneseDate, '$1/$2/$3') : trimmed;
  const slashed = slashDate.exec(text);
  if (slashed) return slashDateText(slashed) ?? badDate(name, cell);
  const time = Date.parse(text);
  if (Number.isNaN(time) || !fourDigitYear.test(text) || !(numericDate.test(text) || namedMonth.test(text))) {
    return badDate(name, cell);
  }
  const date = new Date(time);
  if (explicitZone.test(text)) return date.toISOString();
  // No zone written: JavaScript read it as the process's local time, so its local fields are exactly
  // what was written. Keep them zone-less, as bindArguments reads zone-less text the same way everywhere.
  const day = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  if (!text.includes(':') && date.getHours() + date.getMinutes() + date.getSeconds() === 0) return day;
  const ms = date.getMilliseconds();
  return `${day}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`;
}

const badDate = (name: string, cell: string) =>
  new BadCell(
    `${name} must be a date such as 2026-11-22, 2026/11/22 09:00 or 2026-11-22T09:00:00+09:00, or Unix seconds, not ${shown(cell)}.`,
  );

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
