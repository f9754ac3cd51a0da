/**
 * A JSON value as a result table: an array of objects is a table (one column per member), an object
 * one row, a scalar, a text or an array of scalars a `value` column. HTTP bodies, JavaScript results
 * and transformed results are shown alike.
 */
import type { Column, ColumnType, StatementResult } from './model.ts';

type Table = Pick<StatementResult, 'columns' | 'rows'>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/** An array mixing objects and other values has no table shape and stays a value. */
export function tableOf(value: unknown, messages: string[]): Table {
  if (Array.isArray(value)) {
    if (value.every(isRecord)) return recordsTable(value);
    if (value.every(isScalar)) return recordsTable(value.map((item) => ({ value: item })));
    messages.push(
      'The value is an array mixing objects and other values; it is shown as a value, not a table.',
    );
    return { columns: [], rows: [] };
  }
  if (isRecord(value)) return recordsTable([value]);
  return recordsTable([{ value }]);
}

function recordsTable(records: readonly Record<string, unknown>[]): Table {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    for (const name of Object.keys(record)) {
      if (!seen.has(name)) {
        seen.add(name);
        names.push(name);
      }
    }
  }
  const rows = records.map((record) => Object.fromEntries(names.map((name) => [name, record[name] ?? null])));
  const columns: Column[] = names.map((name) => ({ name, type: columnTypeOf(rows.map((row) => row[name])) }));
  return { columns, rows };
}

/** One type when all non-null values share it; nested values or a mix are 'json'. */
function columnTypeOf(values: readonly unknown[]): ColumnType {
  const types = new Set<ColumnType>();
  for (const value of values) {
    if (value === null) continue;
    if (typeof value === 'string') types.add('string');
    else if (typeof value === 'number') types.add('number');
    else if (typeof value === 'boolean') types.add('boolean');
    else types.add('json');
  }
  if (types.size === 0) return 'string';
  return types.size === 1 ? [...types][0]! : 'json';
}
