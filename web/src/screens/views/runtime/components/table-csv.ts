/**
 * A table's CSV export, made in the browser from the rows it shows (filtered and sorted, every
 * client-side page; the current page when the query pages on the server). csv-stringify's
 * self-contained browser build is loaded only when someone exports (its own chunk).
 */
import { fieldOf, plainText } from './row-fields.ts';

interface Column {
  field: string;
  label?: string;
}

/**
 * A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading
 * `'`: an exported customer name must not run as a formula when the file is opened. Numbers stay.
 */
export function csvCell(value: unknown): string | number | boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const text = plainText(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The CSV text: a header of the columns' labels, then one line per row. */
export async function tableCsv(columns: Column[], rows: Record<string, unknown>[]): Promise<string> {
  const { stringify } = await import('csv-stringify/browser/esm/sync');
  return stringify([
    columns.map((c) => c.label ?? c.field),
    ...rows.map((row) => columns.map((c) => csvCell(fieldOf(row, c.field)))),
  ]);
}

/** Offers the text as a file; a BOM first so spreadsheet programs read UTF-8 (Japanese names). */
export function downloadCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
