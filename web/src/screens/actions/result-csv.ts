/**
 * The CSV of a statement result already on screen, made in the browser: downloading must never run
 * the action again (it may write). Same file as the API's `Accept: text/csv` (shared/http/csv.ts):
 * RFC 4180 with CRLF, a byte order mark so Excel reads Japanese, a header of column names, and text
 * cells a spreadsheet would run as a formula prefixed with an apostrophe.
 */
import type { StatementResult } from '../../api/types.ts';

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]|^\s|\s$/;

function cellText(value: unknown, type: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return type === 'string' && formulaStart.test(text) ? `'${text}` : text;
}

function quoted(text: string): string {
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function resultCsv(result: Pick<StatementResult, 'columns' | 'rows'>): string {
  const columns = result.columns ?? [];
  const lines = [columns.map((column) => quoted(column.name)).join(',')];
  for (const row of result.rows ?? []) {
    lines.push(columns.map((column) => quoted(cellText(row[column.name], column.type))).join(','));
  }
  return `\uFEFF${lines.map((line) => `${line}\r\n`).join('')}`;
}
