/** Athena (Trino) result types mapped per spec 2.2's table for the query service. */
import type { ColumnType } from '../../domain/model.ts';
import { type DescribedColumn, parseJsonText } from '../sql/result-shape.ts';

const asNumber = (value: unknown) => Number(value);
const asBoolean = (value: unknown) => value === 'true';

const byType: Record<string, { type: ColumnType; convert?: (value: unknown) => unknown }> = {
  varchar: { type: 'string' },
  char: { type: 'string' },
  uuid: { type: 'string' },
  ipaddress: { type: 'string' },
  date: { type: 'string' },
  time: { type: 'string' },
  'time with time zone': { type: 'string' },
  timestamp: { type: 'string' },
  'timestamp with time zone': { type: 'string' },
  array: { type: 'string' },
  row: { type: 'string' },
  map: { type: 'string' },
  double: { type: 'number', convert: asNumber },
  integer: { type: 'number', convert: asNumber },
  float: { type: 'number', convert: asNumber },
  real: { type: 'number', convert: asNumber },
  tinyint: { type: 'number', convert: asNumber },
  smallint: { type: 'number', convert: asNumber },
  boolean: { type: 'boolean', convert: asBoolean },
  // Exact: the digits Athena sent, as a JSON string (the PostgreSQL int8 convention).
  bigint: { type: 'bigint' },
};

/** Athena's ColumnInfo.Type: lower case, sometimes with parameters, e.g. "varchar(10)", "decimal(10,2)". */
export function describeAthenaColumn(
  name: string,
  athenaType: string,
  parseJsonValues: boolean,
): DescribedColumn {
  const typeName = athenaType.toLowerCase().trim();
  const base = typeName.replace(/\(.*$/, '').trim();
  if (base === 'json') {
    return parseJsonValues
      ? { name, typeName, type: 'json', convert: parseJsonText }
      : { name, typeName, type: 'string' };
  }
  const known = byType[base];
  if (known)
    return { name, typeName, type: known.type, ...(known.convert ? { convert: known.convert } : {}) };
  // DECIMAL, VARBINARY, the INTERVALs and anything newer: the text Athena sent, flagged.
  return { name, typeName: typeName.toUpperCase(), type: 'string', unsupported: true };
}
