/** Column-aligned plain text tables: readable in a terminal and in CI logs, no dependencies. */

export interface Column {
  header: string;
  /** Numbers read best right-aligned, so digits line up. */
  align?: 'left' | 'right';
}

export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, i) => {
        const cell = cells[i] ?? '';
        return column.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(columns.map((c) => c.header)), rule, ...rows.map(line)].join('\n');
}

/** Fixed decimals, and an empty-looking dash for values that were not measured. */
export const fixed = (value: number | undefined, decimals: number) =>
  value === undefined || Number.isNaN(value) ? '-' : value.toFixed(decimals);
