/**
 * Batch rows, whether typed in the form (JSON) or converted from a CSV file, are validated with the
 * execution's own bindArguments, so a row accepted here is a row the execution accepts. The results
 * download turns the rows back into the CSV input form with their outcome.
 */
import { stringify } from 'csv-stringify/sync';
import type { ParameterDefinition } from '../definitions/parameter.ts';
import { DoguError } from '../errors.ts';
import { bindArguments, type MasterData } from '../parameters.ts';
import type { BatchRow } from '../scheduling/model.ts';
import { BatchErrors, batchRefused, rowPointer } from './batch-errors.ts';

export const defaultMaxRows = 10_000;

export interface RowOptions {
  /** The number a row is reported under: 0-based index for JSON rows (default), the file row for CSV. */
  rowNumber?: (index: number) => number;
  maxRows?: number;
  maxErrors?: number;
}

const argumentsPrefix = '#/arguments/';

/**
 * Adds bindArguments' refusals of one row to `errors`, re-addressed to `/rows/<n>/<parameter>`.
 * `skip` names parameters already reported (a cell that did not convert, a missing required column).
 */
export function addRowErrors(
  parameters: readonly ParameterDefinition[],
  row: Record<string, unknown>,
  masterData: MasterData,
  rowNumber: number,
  errors: BatchErrors,
  skip?: ReadonlySet<string>,
): void {
  try {
    bindArguments(parameters, row, { system: {}, masterData });
  } catch (error) {
    if (!(error instanceof DoguError) || error.code !== 'argument_invalid') throw error;
    for (const { pointer, detail } of error.errors ?? []) {
      // bindArguments escapes names as JSON Pointer tokens already: keep the token as it is.
      const token = pointer.startsWith(argumentsPrefix) ? pointer.slice(argumentsPrefix.length) : undefined;
      if (token !== undefined && skip?.has(token)) continue;
      errors.add(token === undefined ? rowPointer(rowNumber) : `${rowPointer(rowNumber)}/${token}`, detail);
    }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws argument_invalid listing every refused value of every row; returns when all rows are valid. */
export function validateBatchRows(
  parameters: readonly ParameterDefinition[],
  rows: readonly unknown[],
  masterData: MasterData,
  options: RowOptions = {},
): asserts rows is Record<string, unknown>[] {
  const maxRows = options.maxRows ?? defaultMaxRows;
  if (rows.length === 0) throw batchRefused('A batch needs at least one row.');
  if (rows.length > maxRows) {
    throw batchRefused(`A batch may have at most ${maxRows} rows; this one has ${rows.length}.`);
  }
  const numberOf = options.rowNumber ?? ((i: number) => i);
  const errors = new BatchErrors(options.maxErrors);
  for (const [i, row] of rows.entries()) {
    if (errors.full) {
      errors.stopAt(numberOf(i));
      break;
    }
    if (!isRecord(row))
      errors.add(rowPointer(numberOf(i)), 'A row must be an object of parameter names to values.');
    else addRowErrors(parameters, row, masterData, numberOf(i), errors);
  }
  errors.throwIfAny('The batch');
}

/** Spreadsheets run cells starting with these as formulas (OWASP CSV injection), as in shared/http/csv.ts. */
const formulaStart = /^[=+\-@\t\r]/;
const escapeFormula = (text: string) => (formulaStart.test(text) ? `'${text}` : text);

/** A stored value in the form the CSV input takes it, so a results file can be fixed and uploaded again. */
function cellOf(parameter: ParameterDefinition, value: unknown): string {
  if (value === undefined || value === null) return '';
  switch (parameter.kind) {
    case 'json':
    case 'array':
    case 'tuple':
      if (Array.isArray(value) && value.length === 0) return '';
      // JSON text starts with [ { " a digit, -digit or a word: never a formula.
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'file':
      return escapeFormula(String((value as { name?: unknown }).name ?? ''));
    default:
      return escapeFormula(typeof value === 'string' ? value : JSON.stringify(value));
  }
}

/**
 * The results download: row, status, executionId, errorCode, errorMessage, then one column per
 * parameter (an outcome column named like a parameter is written `batch.<name>`). UTF-8 with a byte order mark and CRLF, as Excel expects.
 */
export function batchResultsCsv(
  parameters: readonly ParameterDefinition[],
  rows: readonly BatchRow[],
  options: { rowNumber?: (index: number) => number } = {},
): string {
  const numberOf = options.rowNumber ?? ((i: number) => i + 1);
  const shown = parameters.filter((p) => p.kind !== 'system');
  // A parameter may be called `status` too: the outcome's column then says whose it is (parameter
  // names cannot hold a dot), so every column name stays one column and a parameter keeps its own.
  const names = new Set(shown.map((p) => p.name));
  const outcome = ['row', 'status', 'executionId', 'errorCode', 'errorMessage'].map((name) =>
    names.has(name) ? `batch.${name}` : name,
  );
  const header = [...outcome, ...shown.map((p) => p.name)];
  const records = [...rows]
    .sort((a, b) => a.index - b.index)
    .map((row) => [
      String(numberOf(row.index)),
      row.status,
      row.executionId ?? '',
      row.error?.code ?? '',
      escapeFormula(row.error?.message ?? ''),
      ...shown.map((p) => cellOf(p, row.arguments[p.name])),
    ]);
  return stringify([header, ...records], {
    bom: true,
    record_delimiter: 'windows',
    quoted_match: /^\s|\s$/,
  });
}
