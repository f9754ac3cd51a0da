/**
 * PostgreSQL type OIDs mapped to Dogu's result column types (spec 2.2). Types
 * with no faithful JSON form are returned as strings and flagged.
 */
import type { ColumnType } from '../../domain/model.ts';

interface TypeInfo {
  name: string;
  type: ColumnType;
  /** Returned as a string although the database type is richer: say so in the result. */
  unsupported?: boolean;
  /** json or jsonb: parsed into a value when the action asks for it (parseJsonValues). */
  json?: boolean;
}

const known: Record<number, TypeInfo> = {
  16: { name: 'boolean', type: 'boolean' },
  17: { name: 'bytea', type: 'string', unsupported: true },
  18: { name: 'char', type: 'string' },
  19: { name: 'name', type: 'string' },
  20: { name: 'bigint', type: 'bigint' },
  21: { name: 'smallint', type: 'number' },
  23: { name: 'integer', type: 'number' },
  25: { name: 'text', type: 'string' },
  26: { name: 'oid', type: 'number' },
  114: { name: 'json', type: 'string', json: true },
  700: { name: 'real', type: 'number' },
  701: { name: 'double precision', type: 'number' },
  869: { name: 'inet', type: 'string' },
  1042: { name: 'character', type: 'string' },
  1043: { name: 'character varying', type: 'string' },
  1082: { name: 'date', type: 'string' },
  1083: { name: 'time', type: 'string' },
  1114: { name: 'timestamp', type: 'string' },
  1184: { name: 'timestamp with time zone', type: 'string' },
  1186: { name: 'interval', type: 'string', unsupported: true },
  1266: { name: 'time with time zone', type: 'string' },
  1700: { name: 'numeric', type: 'string', unsupported: true },
  2950: { name: 'uuid', type: 'string' },
  3802: { name: 'jsonb', type: 'string', json: true },
};

/** Array types are returned in PostgreSQL's text form, like the spec's ARRAY → string rule. */
const arrayTypes = new Set([
  1000, 1005, 1007, 1009, 1015, 1016, 1021, 1022, 1115, 1182, 1185, 1231, 2951, 199, 3807,
]);

export function describeType(oid: number): TypeInfo {
  return (
    known[oid] ??
    (arrayTypes.has(oid)
      ? { name: 'array', type: 'string' }
      : { name: `type ${oid}`, type: 'string', unsupported: true })
  );
}

const identity = (value: string) => value;
const parsers: Partial<Record<ColumnType, (value: string) => unknown>> = {
  number: Number,
  boolean: (value) => value === 't',
};

/**
 * pg's type parser hook: numbers and booleans become JS values, everything
 * else stays the exact text PostgreSQL sent (no Date objects shifting time
 * zones, no lossy bigint or numeric conversion). JSON stays text here because
 * parsing it is a per-action choice; the connector parses it per run.
 */
export function textFormatParser(oid: number): (value: string) => unknown {
  return parsers[describeType(oid).type] ?? identity;
}
