/**
 * A statement result as CSV for spreadsheet users: RFC 4180 (CRLF, quotes
 * doubled), UTF-8 with a byte order mark so Excel reads Japanese correctly,
 * a header row of column names. Text cells that a spreadsheet would run as a
 * formula (=, +, -, @, tab, CR first) get a leading apostrophe (OWASP CSV
 * injection advice) unless the caller opts out.
 */
import { stringify } from 'csv-stringify/sync';
import type { StatementResult } from '../domain/model.ts';

const formulaStart = /^[=+\-@\t\r]/;

export function resultToCsv(
  result: Pick<StatementResult, 'columns' | 'rows'>,
  options: { escapeFormulas: boolean },
): string {
  const names = result.columns.map((c) => c.name);
  const cell = (value: unknown, type: string): string => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'object') return JSON.stringify(value);
    const text = String(value);
    return options.escapeFormulas && type === 'string' && formulaStart.test(text) ? `'${text}` : text;
  };
  const records = result.rows.map((row) =>
    result.columns.map((column) => cell(row[column.name], column.type)),
  );
  return stringify([names, ...records], { bom: true, record_delimiter: 'windows', quoted_match: /^\s|\s$/ });
}
