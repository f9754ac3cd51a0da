/**
 * One Sheets action: list sheets, read rows (header row → columns, filter, offset/limit), append,
 * update (by row number or one row matching a key), delete rows, clear a range. Everything a
 * write needs is checked before the first write, so a refused write changes nothing.
 */
import { DoguError } from '../../domain/errors.ts';
import { parseExactJson } from '../../domain/exact-numbers.ts';
import { renderJsonTemplate, valueAsText } from '../../domain/json-template.ts';
import type { Column, ColumnType, StatementResult } from '../../domain/model.ts';
import { referencePattern } from '../../domain/template.ts';
import { columnLetters, quotedSheet, rangeStart } from './a1.ts';
import type { SheetsActionInput } from './definition.ts';
import type { SheetsApi } from './sheets-api.ts';

type Cell = string | number | boolean;
type Row = Record<string, unknown>;

interface Table {
  headers: string[];
  /** Data rows below the header, with their sheet row numbers. */
  rows: { row: number; cells: unknown[] }[];
}

const bad = (pointer: string, detail: string) =>
  new DoguError('argument_invalid', `${pointer}: ${detail}`, { errors: [{ pointer, detail }] });

export async function runSheetsAction(
  api: SheetsApi,
  action: SheetsActionInput,
  values: Record<string, unknown>,
): Promise<StatementResult> {
  const resolve = (reference: string) => {
    if (!(reference in values))
      throw new DoguError('internal_error', `No value was prepared for {{ ${reference} }}.`);
    return values[reference];
  };
  const text = (template: string) =>
    template.replace(referencePattern, (_m, reference: string) => valueAsText(resolve(reference))).trim();
  const spreadsheetId = text(action.spreadsheetId);
  if (!spreadsheetId) throw bad('#/spreadsheetId', 'is empty');
  // Google's ids are URL-safe base64 characters; anything else (a '..', a whole URL) is a mistake.
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(spreadsheetId)) {
    throw bad('#/spreadsheetId', 'is not a spreadsheet id (copy it from …/spreadsheets/d/<id>/edit)');
  }
  const base = `/${encodeURIComponent(spreadsheetId)}`;
  const sheets = new SheetCalls(api, base, action);

  switch (action.operation) {
    case 'list_sheets': {
      const list = await sheets.list();
      return table(action.name, list, []);
    }
    case 'read_rows': {
      const sheet = await sheets.title(text(action.sheet));
      const range = text(action.range);
      const read = await sheets.read(sheet, range);
      const filters = action.filter.map((f) => ({ column: f.key, value: text(f.value) }));
      for (const f of filters) column(read, f.column, '#/filter');
      const matching = read.rows.filter((r) =>
        filters.every((f) => valueAsText(r.cells[read.headers.indexOf(f.column)] ?? '') === f.value),
      );
      const page = matching.slice(
        action.offset,
        action.limit === undefined ? undefined : action.offset + action.limit,
      );
      return table(
        action.name,
        page.map((r) => ({
          _row: r.row,
          ...Object.fromEntries(read.headers.map((h, i) => [h, r.cells[i] ?? null])),
        })),
        [`${matching.length} of ${read.rows.length} rows matched.`],
      );
    }
    case 'append_rows': {
      const sheet = await sheets.title(text(action.sheet));
      const header = await sheets.read(sheet, `${action.headerRow}:${action.headerRow}`, 1);
      const rows = rowsOf(action.rows, resolve);
      const cells = rows.map((row, i) => cellsOf(row, header.headers, `#/rows/${i}`));
      const answer = await api.call(
        'POST',
        `${base}/values/${encodeURIComponent(`${quotedSheet(sheet)}!A${action.headerRow}`)}:append`,
        {
          query: { valueInputOption: action.valueInput, insertDataOption: 'INSERT_ROWS' },
          body: { majorDimension: 'ROWS', values: cells },
        },
      );
      const updates = (answer.updates ?? {}) as { updatedRange?: string; updatedRows?: number };
      const first = rangeStart(updates.updatedRange ?? '').row;
      return table(
        action.name,
        rows.map((row, i) => ({ _row: first + i, ...row })),
        [`${updates.updatedRows ?? rows.length} rows appended (${updates.updatedRange ?? sheet}).`],
      );
    }
    case 'update_rows': {
      const sheet = await sheets.title(text(action.sheet));
      const read = await sheets.read(sheet, '');
      const [row, ...more] = rowsOf(action.rows, resolve);
      if (!row || more.length > 0) throw bad('#/rows', 'update_rows takes one object: the columns to change');
      const target = targetRows(read, action, text);
      if (target.length !== 1) {
        throw new DoguError(
          'data_source_error',
          `${target.length} rows match ${action.keyColumn} = '${text(action.keyValue)}'; update_rows changes exactly one (nothing was written).`,
        );
      }
      const rowNumber = target[0]!;
      const changes = Object.entries(row).map(([name, value]) => ({
        range: `${quotedSheet(sheet)}!${columnLetters(column(read, name, '#/rows'))}${rowNumber}`,
        values: [[cellOf(value)]],
      }));
      await api.call('POST', `${base}/values:batchUpdate`, {
        body: { valueInputOption: action.valueInput, data: changes },
      });
      return table(
        action.name,
        [{ _row: rowNumber, ...row }],
        [`Row ${rowNumber} updated (${changes.length} cells).`],
      );
    }
    case 'delete_rows': {
      const { title: sheet, sheetId } = await sheets.properties(text(action.sheet));
      const read = await sheets.read(sheet, '');
      const target = targetRows(read, action, text);
      if (target.length === 0) {
        throw new DoguError(
          'data_source_error',
          `No row matches ${action.keyColumn} = '${text(action.keyValue)}' (nothing was deleted).`,
        );
      }
      // From the bottom up: deleting a row moves the ones below it.
      const requests = [...target]
        .sort((a, b) => b - a)
        .map((row) => ({
          deleteDimension: { range: { sheetId, dimension: 'ROWS', startIndex: row - 1, endIndex: row } },
        }));
      await api.call('POST', `${base}:batchUpdate`, { body: { requests } });
      return table(
        action.name,
        target.map((row) => ({ _row: row })),
        [`${target.length} rows deleted.`],
      );
    }
    case 'clear_range': {
      const sheet = await sheets.title(text(action.sheet));
      const range = text(action.range);
      if (!range) throw bad('#/range', 'is empty');
      const answer = await api.call(
        'POST',
        `${base}/values/${encodeURIComponent(`${quotedSheet(sheet)}!${range}`)}:clear`,
        {
          body: {},
        },
      );
      return table(action.name, [{ clearedRange: answer.clearedRange ?? null }], ['Range cleared.']);
    }
  }
}

/** The sheets of the spreadsheet, and reads of one sheet as a table under its header row. */
class SheetCalls {
  private listed: Promise<Row[]> | undefined;

  constructor(
    private readonly api: SheetsApi,
    private readonly base: string,
    private readonly action: SheetsActionInput,
  ) {}

  list(): Promise<Row[]> {
    this.listed ??= this.api
      .call('GET', this.base, { query: { fields: 'sheets.properties(sheetId,title,index,gridProperties)' } })
      .then((answer) =>
        ((answer.sheets ?? []) as { properties: Record<string, unknown> }[]).map(({ properties: p }) => {
          const grid = (p.gridProperties ?? {}) as { rowCount?: number; columnCount?: number };
          return {
            sheetId: p.sheetId,
            title: p.title,
            index: p.index,
            rowCount: grid.rowCount ?? null,
            columnCount: grid.columnCount ?? null,
          };
        }),
      );
    return this.listed;
  }

  async properties(title: string): Promise<{ title: string; sheetId: number }> {
    const list = await this.list();
    const found = title ? list.find((s) => s.title === title) : list[0];
    if (!found) {
      throw bad(
        '#/sheet',
        `no sheet '${title}' in the spreadsheet (sheets: ${list.map((s) => s.title).join(', ') || 'none'})`,
      );
    }
    return { title: String(found.title), sheetId: Number(found.sheetId) };
  }

  /** The sheet's title: as written (Google names an unknown one), or the first sheet's. */
  async title(title: string): Promise<string> {
    return title || (await this.properties('')).title;
  }

  async read(sheet: string, range: string, headerRow = this.action.headerRow): Promise<Table> {
    const answer = await this.api.call(
      'GET',
      `${this.base}/values/${encodeURIComponent(range ? `${quotedSheet(sheet)}!${range}` : quotedSheet(sheet))}`,
      {
        query: {
          majorDimension: 'ROWS',
          valueRenderOption:
            this.action.valueRender === 'unformatted' ? 'UNFORMATTED_VALUE' : 'FORMATTED_VALUE',
          dateTimeRenderOption: 'FORMATTED_STRING',
        },
      },
    );
    const rows = (answer.values ?? []) as unknown[][];
    const start = rangeStart(String(answer.range ?? '')).row;
    const headers = headerNames(rows[headerRow - 1] ?? []);
    return {
      headers,
      rows: rows
        .map((cells, i) => ({ row: start + i, cells }))
        .slice(headerRow)
        .filter((r) => r.cells.some((c) => c !== '' && c !== null && c !== undefined)),
    };
  }
}

/** Column names from the header row: blanks become column_<n>, repeats get _2, _3. */
function headerNames(cells: unknown[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, i) => {
    const name = valueAsText(cell ?? '').trim() || `column_${i + 1}`;
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}

function column(read: Table, name: string, pointer: string): number {
  const index = read.headers.indexOf(name);
  if (index < 0) {
    throw bad(
      pointer,
      `no column '${name}' in the header row (columns: ${read.headers.join(', ') || 'none'})`,
    );
  }
  return index;
}

function targetRows(read: Table, action: SheetsActionInput, text: (t: string) => string): number[] {
  if (action.rowNumber.trim() !== '') {
    const written = text(action.rowNumber);
    const row = Number(written);
    if (!Number.isInteger(row) || row < 1) throw bad('#/rowNumber', `'${written}' is not a row number`);
    const headerRowNumber = (read.rows[0]?.row ?? action.headerRow + 1) - 1;
    if (row <= headerRowNumber) throw bad('#/rowNumber', `row ${row} is the header or above it`);
    if (!read.rows.some((r) => r.row === row)) throw bad('#/rowNumber', `row ${row} holds no data`);
    return [row];
  }
  const index = column(read, action.keyColumn, '#/keyColumn');
  const key = text(action.keyValue);
  return read.rows.filter((r) => valueAsText(r.cells[index] ?? '') === key).map((r) => r.row);
}

function rowsOf(template: string, resolve: (reference: string) => unknown): Row[] {
  const rendered = parseExactJson(renderJsonTemplate(template, resolve, { describe: 'The rows' }));
  // Decision 0025: a cell value that would be rounded is refused, not written rounded.
  if (!rendered.ok) throw bad('#/rows', rendered.message);
  const parsed = rendered.value;
  const rows = Array.isArray(parsed) ? parsed : [parsed];
  if (rows.length === 0 || !rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    throw bad('#/rows', 'must be a JSON object or an array of objects (column name → value)');
  }
  return rows as Row[];
}

function cellsOf(row: Row, headers: string[], pointer: string): Cell[] {
  const unknown = Object.keys(row).filter((name) => !headers.includes(name));
  if (unknown.length > 0) {
    throw bad(
      pointer,
      `no column ${unknown.map((n) => `'${n}'`).join(', ')} in the header row (columns: ${headers.join(', ') || 'none'})`,
    );
  }
  const cells = headers.map((h) => (h in row ? cellOf(row[h]) : ''));
  while (cells.length > 0 && cells.at(-1) === '') cells.pop();
  return cells;
}

const cellOf = (value: unknown): Cell =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : JSON.stringify(value);

function table(title: string, rows: Row[], messages: string[]): StatementResult {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const shaped = rows.map((r) => Object.fromEntries(names.map((n) => [n, r[n] ?? null])));
  const columns: Column[] = names.map((name) => ({ name, type: typeOf(shaped.map((r) => r[name])) }));
  return { title, status: 'succeeded', columns, rows: shaped, rowCount: shaped.length, messages };
}

function typeOf(values: unknown[]): ColumnType {
  const types = new Set(values.filter((v) => v !== null).map((v) => typeof v));
  if (types.size !== 1) return types.size === 0 ? 'string' : 'json';
  const [only] = types;
  return only === 'number'
    ? 'number'
    : only === 'boolean'
      ? 'boolean'
      : only === 'string'
        ? 'string'
        : 'json';
}
