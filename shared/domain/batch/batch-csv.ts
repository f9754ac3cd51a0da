/**
 * Batch input as CSV (spec 2.7): the template to download and the parser of a filled-in file. Rows are
 * numbered as a spreadsheet shows them (header = row 1, so the first argument set is row 2); a quoted
 * cell spanning lines stays one row. Every bad cell is reported at once, conversion and
 * bindArguments refusals together, so one upload shows everything to fix. csv-parse reads the file;
 * this module applies the cell rules and says what is wrong in the user's terms.
 */
import { CsvError, type CsvErrorCode, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ParameterDefinition } from '../definitions/parameter.ts';
import { DoguError } from '../errors.ts';
import type { MasterData } from '../parameters.ts';
import { BatchErrors, batchRefused, rowPointer } from './batch-errors.ts';
import { addRowErrors, defaultMaxRows } from './batch-rows.ts';
import { BadCell, type CellConverter, type CsvParameter, cellConverter, notEntered } from './csv-cells.ts';

/** The file row of the i-th (0-based) argument set returned by parseBatchCsv. */
export const csvRowNumber = (index: number) => index + 2;

function refuseFileParameters(parameters: readonly ParameterDefinition[]): void {
  const file = parameters.find((p) => p.kind === 'file');
  if (file) {
    throw new DoguError(
      'invalid_definition',
      `CSV input is not supported for action with file parameter '${file.name}'.`,
    );
  }
}

/** The header row: the names of the parameters a caller can give (system values are filled in by Dogu). */
export function batchTemplateCsv(parameters: readonly ParameterDefinition[]): string {
  refuseFileParameters(parameters);
  const names = parameters.filter((p) => p.kind !== 'system').map((p) => p.name);
  return stringify([names], { bom: true, record_delimiter: 'windows' });
}

interface Column {
  index: number;
  parameter: CsvParameter;
  convert: CellConverter;
}

const isBlank = (record: readonly string[]) => record.every((cell) => cell === '');

export function parseBatchCsv(
  csv: string,
  parameters: readonly ParameterDefinition[],
  masterData: MasterData,
  options: { maxRows?: number; maxErrors?: number } = {},
): { rows: Record<string, unknown>[] } {
  refuseFileParameters(parameters);
  if (csv.includes('\uFFFD')) {
    throw batchRefused(
      'The file is not UTF-8 text (it contains replacement characters): save it as "CSV UTF-8" and upload it again.',
    );
  }
  const records = readRecords(csv);
  // Editors and spreadsheets leave blank lines at the end: they are not rows.
  while (records.length > 0 && isBlank(records[records.length - 1]!)) records.pop();
  const [header, ...body] = records;
  if (!header) throw batchRefused('The CSV is empty: its first row must be the parameter names.');
  if (body.length === 0) {
    throw batchRefused('The CSV has only the header row: add one row per execution below it.');
  }
  const maxRows = options.maxRows ?? defaultMaxRows;
  if (body.length > maxRows) {
    throw batchRefused(`The CSV has ${body.length} rows; a batch may have at most ${maxRows}.`);
  }

  const errors = new BatchErrors(options.maxErrors);
  const { columns, reportedAtHeader } = readHeader(header, body, parameters, masterData, errors);
  const rows: Record<string, unknown>[] = [];
  const failedCells = new Set<string>(reportedAtHeader);
  for (const [i, record] of body.entries()) {
    const rowNumber = csvRowNumber(i);
    if (errors.full) {
      errors.stopAt(rowNumber);
      break;
    }
    const row: Record<string, unknown> = {};
    rows.push(row);
    // A blank row is a leftover far more often than a wish to run with every default.
    if (isBlank(record)) {
      errors.add(rowPointer(rowNumber), `Row ${rowNumber} is blank: delete it or fill in its cells.`);
      continue;
    }
    if (record.length !== header.length) {
      errors.add(
        rowPointer(rowNumber),
        `Row ${rowNumber} has ${record.length} cells; the header row has ${header.length}.`,
      );
      continue;
    }
    let failed: Set<string> | undefined;
    for (const column of columns) {
      const value = column.convert(record[column.index]!);
      if (value === notEntered) continue;
      if (value instanceof BadCell) {
        errors.add(rowPointer(rowNumber, column.parameter.name), value.detail);
        failed ??= new Set(reportedAtHeader);
        failed.add(column.parameter.name);
      } else row[column.parameter.name] = value;
    }
    addRowErrors(parameters, row, masterData, rowNumber, errors, failed ?? failedCells);
  }
  errors.throwIfAny('The CSV');
  return { rows };
}

const csvOptions = {
  bom: true,
  // Ragged rows are reported by parseBatchCsv with their row number, among the other errors.
  relax_column_count: true,
  // Blank lines stay records: in the middle of the file they are reported, at the end dropped.
  skip_empty_lines: false,
  // Spreadsheets write CRLF, old Mac Excel CR, editors LF, and concatenated files a mix: accept each
  // line end on its own rather than the one csv-parse would guess from the first line.
  record_delimiter: ['\r\n', '\n', '\r'],
};

/** What each csv-parse refusal means for someone fixing the file in a spreadsheet. */
const unreadable: Partial<Record<CsvErrorCode, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell in this row is not closed: the file ends inside double quotes.',
  CSV_INVALID_CLOSING_QUOTE:
    'a quoted cell has text after its closing quote: a double quote inside a cell must be doubled ("").',
  INVALID_OPENING_QUOTE:
    'a cell has a double quote inside unquoted text: quote the whole cell and double the inner quote ("").',
};

function readRecords(csv: string): string[][] {
  try {
    return parse(csv, csvOptions);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // `records` counts the rows read before the broken one, whatever line breaks their quoted cells
    // hold; csv-parse's `lines` counts both characters of a CRLF inside quotes, so it is not used.
    const row = Number(error.records ?? 0) + 1;
    const detail = unreadable[error.code] ?? `it is not valid CSV (${error.code}).`;
    throw new DoguError('argument_invalid', `Row ${row} cannot be read: ${detail}`, {
      errors: [{ pointer: rowPointer(row), detail }],
    });
  }
}

/** Matches header names to parameters; problems are reported on row 1. */
function readHeader(
  header: readonly string[],
  body: readonly string[][],
  parameters: readonly ParameterDefinition[],
  masterData: MasterData,
  errors: BatchErrors,
): { columns: Column[]; reportedAtHeader: string[] } {
  const byName = new Map(parameters.map((p) => [p.name, p]));
  const seen = new Map<string, number>();
  const columns: Column[] = [];
  header.forEach((cell, index) => {
    const name = cell.trim();
    const position = index + 1;
    if (name === '') {
      // Spreadsheets export formatted but empty columns with no name: harmless while they stay empty.
      const used = body.findIndex((record) => (record[index] ?? '') !== '');
      if (used >= 0) {
        errors.add(
          rowPointer(1),
          `Column ${position} has no name in the header row but has a value in row ${csvRowNumber(used)}.`,
        );
      }
      return;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      errors.add(rowPointer(1, name), `Column '${name}' appears twice (columns ${first} and ${position}).`);
      return;
    }
    seen.set(name, position);
    const parameter = byName.get(name);
    if (!parameter) {
      const names = parameters.filter((p) => p.kind !== 'system').map((p) => p.name);
      const listed = `${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`;
      errors.add(rowPointer(1, name), `Column '${name}' is not a parameter of this action (${listed}).`);
    } else if (parameter.kind === 'system') {
      errors.add(rowPointer(1, name), `Column '${name}' is a system value and cannot be given.`);
    } else if (parameter.kind !== 'file') {
      columns.push({ index, parameter, convert: cellConverter(parameter, masterData) });
    }
  });
  // A missing required column is said once here, not once per row.
  const reportedAtHeader: string[] = [];
  for (const parameter of parameters) {
    if (parameter.kind === 'system' || seen.has(parameter.name)) continue;
    if (parameter.required && !('default' in parameter && parameter.default !== undefined)) {
      errors.add(
        rowPointer(1, parameter.name),
        `Column '${parameter.name}' is missing: the parameter is required.`,
      );
      reportedAtHeader.push(parameter.name);
    }
  }
  return { columns, reportedAtHeader };
}
