/**
 * What every SQL connector does alike with a result: unique column names,
 * messages for types returned in a poorer form, rows keyed by column name and
 * the affected-rows message. One place, so PostgreSQL and MySQL results read
 * the same to the person looking at them.
 */
import type { Column, ColumnType } from '../../domain/model.ts';

/** A result column as the connector's type mapping saw it. */
export interface DescribedColumn {
  name: string;
  /** The database's own name for the type, as the message shows it, e.g. 'decimal'. */
  typeName: string;
  type: ColumnType;
  /** Returned as a string although the database type is richer: the result says so. */
  unsupported?: boolean;
  /** How the string was made when that is not obvious, e.g. 'base64'. */
  encoding?: string;
  /** Applied to every non-null value of the column. */
  convert?: (value: unknown) => unknown;
}

export interface ShapedColumns {
  columns: Column[];
  /** Per column, the conversion of its non-null values (undefined: as the driver returned them). */
  converters: (((value: unknown) => unknown) | undefined)[];
  messages: string[];
}

/**
 * Duplicate names (`SELECT a.id, b.id`) would overwrite each other in a row
 * object: the later ones get `_2`, `_3`... (skipping names already taken).
 */
export function shapeColumns(described: readonly DescribedColumn[]): ShapedColumns {
  const messages: string[] = [];
  const taken = new Set<string>();
  const occurrences = new Map<string, number>();
  const columns = described.map((column): Column => {
    const occurrence = (occurrences.get(column.name) ?? 0) + 1;
    occurrences.set(column.name, occurrence);
    let name = column.name;
    if (taken.has(name)) {
      let suffix = Math.max(2, occurrence);
      while (taken.has(`${column.name}_${suffix}`)) suffix++;
      name = `${column.name}_${suffix}`;
      messages.push(
        `Column '${column.name}' appears more than once; occurrence ${Math.max(2, occurrence)} is named '${name}'.`,
      );
    }
    taken.add(name);
    if (column.unsupported) {
      const form = column.encoding ? `strings (${column.encoding})` : 'strings';
      messages.push(
        `Column '${name}' has type ${column.typeName}, which is not supported; its values are returned as ${form}.`,
      );
    }
    return { name, type: column.type };
  });
  return { columns, converters: described.map((column) => column.convert), messages };
}

/** Rows as the driver returned them (arrays in column order) keyed by the unique column names. */
export function keyRows(
  shaped: ShapedColumns,
  rows: readonly (readonly unknown[])[],
): Record<string, unknown>[] {
  const { columns, converters } = shaped;
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const value = values[i] ?? null;
      const convert = converters[i];
      row[columns[i]!.name] = value !== null && convert ? convert(value) : value;
    }
    return row;
  });
}

/** For statements without a result set (INSERT, UPDATE, DELETE...). */
export const affectedRowsMessage = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'} affected.`;

/** JSON text as a value; the database validated it, so a failure here means it was not JSON after all. */
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
