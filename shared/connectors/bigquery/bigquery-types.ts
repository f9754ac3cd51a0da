/**
 * BigQuery result types mapped per spec 2.2's table for the data warehouse. The REST API sends
 * every value as text (TIMESTAMP as microseconds: formatOptions.useInt64Timestamp), so INT64 keeps
 * all its digits; nested values (STRUCT, ARRAY) arrive as {f: [{v}]} and [{v}].
 */
import { type DescribedColumn, parseJsonText } from '../sql/result-shape.ts';

export interface SchemaField {
  name: string;
  type: string;
  mode?: 'NULLABLE' | 'REQUIRED' | 'REPEATED';
  fields?: SchemaField[];
}

/** The REST schema still uses the legacy names for some types. */
const standardName: Record<string, string> = {
  INTEGER: 'INT64',
  FLOAT: 'FLOAT64',
  BOOLEAN: 'BOOL',
  RECORD: 'STRUCT',
};
const typeName = (field: SchemaField): string => {
  const base = standardName[field.type] ?? field.type;
  return field.mode === 'REPEATED' ? `ARRAY<${base}>` : base;
};

export function describeBigQueryColumn(field: SchemaField, parseJsonValues: boolean): DescribedColumn {
  const name = field.name;
  const type = typeName(field);
  switch (type) {
    case 'STRING':
    case 'DATE':
    case 'DATETIME':
    case 'TIME':
      return { name, typeName: type, type: 'string' };
    case 'TIMESTAMP':
      return { name, typeName: type, type: 'string', convert: (v) => timestampText(String(v)) };
    case 'FLOAT64':
      return { name, typeName: type, type: 'number', convert: (v) => Number(v) };
    case 'INT64':
      // Exact: the digits BigQuery sent, as a JSON string (the PostgreSQL int8 convention).
      return { name, typeName: type, type: 'bigint' };
    case 'BOOL':
      return { name, typeName: type, type: 'boolean', convert: (v) => v === 'true' };
    case 'JSON':
      return parseJsonValues
        ? { name, typeName: type, type: 'json', convert: parseJsonText }
        : { name, typeName: type, type: 'string' };
    case 'BYTES':
      return { name, typeName: type, type: 'string', unsupported: true, encoding: 'base64' };
    default:
      // GEOGRAPHY (WKT), NUMERIC, BIGNUMERIC, RANGE, INTERVAL as BigQuery's text; STRUCT and ARRAY as JSON text.
      return {
        name,
        typeName: type,
        type: 'string',
        unsupported: true,
        ...(field.mode === 'REPEATED' || field.type === 'RECORD' || field.type === 'STRUCT'
          ? { convert: (v: unknown) => JSON.stringify(nestedValue(v, field)) }
          : {}),
      };
  }
}

/** A nested value as plain JSON: STRUCTs as objects by field name, ARRAYs as arrays. */
function nestedValue(value: unknown, field: SchemaField): unknown {
  if (value === null || value === undefined) return null;
  if (field.mode === 'REPEATED') {
    const item = { ...field, mode: 'NULLABLE' as const };
    return (value as { v: unknown }[]).map((entry) => nestedValue(entry.v, item));
  }
  if (field.type === 'RECORD' || field.type === 'STRUCT') {
    const cells = (value as { f: { v: unknown }[] }).f;
    return Object.fromEntries(
      (field.fields ?? []).map((sub, i) => [sub.name, nestedValue(cells[i]?.v, sub)]),
    );
  }
  return field.type === 'TIMESTAMP' ? timestampText(String(value)) : value;
}

/** Microseconds since the epoch → ISO 8601 in UTC with all six fraction digits. */
export function timestampText(micros: string): string {
  if (!/^-?\d+$/.test(micros)) return micros;
  const all = BigInt(micros);
  let seconds = all / 1_000_000n;
  let fraction = all % 1_000_000n;
  if (fraction < 0n) {
    fraction += 1_000_000n;
    seconds -= 1n;
  }
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}.${fraction.toString().padStart(6, '0')}Z`;
}
