/**
 * MySQL and MariaDB result columns mapped to Dogu's column types (spec 2.2).
 * Decided from the column definition the server sends (type code, character
 * set, flags and MariaDB's extended metadata), never from the values.
 *
 * The values arrive already decoded by mysql2 with the pool's options
 * (mysql-options.ts): integers as numbers, BIGINT and DECIMAL as exact
 * strings, dates and times as the server's text, JSON as text, binary data
 * as Buffers and GEOMETRY as mysql2's decoding of its coordinates.
 */
import type { DescribedColumn } from '../sql/result-shape.ts';
import { parseJsonText } from '../sql/result-shape.ts';

/** Column type codes of the client/server protocol (include/mysql_com.h, enum_field_types). */
export const mysqlType = {
  decimal: 0x00,
  tiny: 0x01,
  short: 0x02,
  long: 0x03,
  float: 0x04,
  double: 0x05,
  null: 0x06,
  timestamp: 0x07,
  longlong: 0x08,
  int24: 0x09,
  date: 0x0a,
  time: 0x0b,
  datetime: 0x0c,
  year: 0x0d,
  newdate: 0x0e,
  varchar: 0x0f,
  bit: 0x10,
  vector: 0xf2,
  json: 0xf5,
  newdecimal: 0xf6,
  enum: 0xf7,
  set: 0xf8,
  tinyBlob: 0xf9,
  mediumBlob: 0xfa,
  longBlob: 0xfb,
  blob: 0xfc,
  varString: 0xfd,
  string: 0xfe,
  geometry: 0xff,
} as const;

/** Character set 63 ('binary') marks BINARY, VARBINARY and BLOB among the string types. */
const binaryCharset = 63;

/** What this module needs of mysql2's FieldPacket. */
export interface FieldDefinition {
  name: string;
  columnType?: number | undefined;
  characterSet?: number | undefined;
  /** MariaDB 10.5+ extended metadata: 'json' for JSON columns, which MariaDB stores as LONGTEXT. */
  extendedFormat?: string | undefined;
}

const numberType = (name: string, convert?: (value: unknown) => unknown): Omit<DescribedColumn, 'name'> =>
  convert ? { typeName: name, type: 'number', convert } : { typeName: name, type: 'number' };
const text = (name: string): Omit<DescribedColumn, 'name'> => ({ typeName: name, type: 'string' });
const unsupportedText = (name: string): Omit<DescribedColumn, 'name'> => ({
  typeName: name,
  type: 'string',
  unsupported: true,
});
const bytes = (name: string): Omit<DescribedColumn, 'name'> => ({
  typeName: name,
  type: 'string',
  unsupported: true,
  encoding: 'base64',
  convert: base64,
});

/** Types decided by the type code alone. */
const byTypeCode: Partial<Record<number, Omit<DescribedColumn, 'name'>>> = {
  [mysqlType.tiny]: numberType('tinyint'),
  [mysqlType.short]: numberType('smallint'),
  [mysqlType.int24]: numberType('mediumint'),
  [mysqlType.long]: numberType('int'),
  [mysqlType.year]: numberType('year'),
  [mysqlType.float]: numberType('float', shortestFloat32),
  [mysqlType.double]: numberType('double'),
  // Beyond 2^53 a JS number would be wrong: mysql2 returns the exact digits (bigNumberStrings).
  [mysqlType.longlong]: { typeName: 'bigint', type: 'bigint' },
  [mysqlType.decimal]: unsupportedText('decimal'),
  [mysqlType.newdecimal]: unsupportedText('decimal'),
  [mysqlType.date]: text('date'),
  [mysqlType.newdate]: text('date'),
  [mysqlType.datetime]: text('datetime'),
  [mysqlType.timestamp]: text('timestamp'),
  [mysqlType.time]: text('time'),
  [mysqlType.enum]: text('enum'),
  [mysqlType.set]: text('set'),
  [mysqlType.null]: text('null'),
  [mysqlType.bit]: bytes('bit'),
  // mysql2 decodes the server's bytes into {x, y} points (arrays of them for lines, polygons, collections),
  // dropping the SRID; the JSON of that is readable. For a faithful form: ST_AsText, ST_AsGeoJSON in the SQL.
  [mysqlType.geometry]: {
    ...unsupportedText('geometry'),
    encoding: 'JSON of the coordinates',
    convert: anyAsText,
  },
  [mysqlType.vector]: { ...unsupportedText('vector'), convert: anyAsText },
};

/** String types: text in a character set, or bytes when the character set is 'binary'. */
const stringTypes: Partial<Record<number, { text: string; binary: string }>> = {
  [mysqlType.varchar]: { text: 'varchar', binary: 'varbinary' },
  [mysqlType.varString]: { text: 'varchar', binary: 'varbinary' },
  [mysqlType.string]: { text: 'char', binary: 'binary' },
  [mysqlType.tinyBlob]: { text: 'text', binary: 'blob' },
  [mysqlType.mediumBlob]: { text: 'text', binary: 'blob' },
  [mysqlType.longBlob]: { text: 'text', binary: 'blob' },
  [mysqlType.blob]: { text: 'text', binary: 'blob' },
};

export function describeField(field: FieldDefinition, parseJsonValues: boolean): DescribedColumn {
  const code = field.columnType ?? -1;
  const isJson = code === mysqlType.json || field.extendedFormat === 'json';
  if (isJson) {
    return parseJsonValues
      ? { name: field.name, typeName: 'json', type: 'json', convert: parseJsonText }
      : { name: field.name, typeName: 'json', type: 'string' };
  }
  const known = byTypeCode[code];
  if (known) return { name: field.name, ...known };
  const stringType = stringTypes[code];
  if (stringType) {
    return field.characterSet === binaryCharset
      ? { name: field.name, ...bytes(stringType.binary) }
      : { name: field.name, ...text(stringType.text) };
  }
  return { name: field.name, ...unsupportedText(`type ${code}`), convert: anyAsText };
}

function base64(value: unknown): unknown {
  return Buffer.isBuffer(value) ? value.toString('base64') : anyAsText(value);
}

function anyAsText(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return JSON.stringify(value);
}

/**
 * FLOAT is a 32-bit float: the binary protocol hands over its exact value
 * (0.1 arrives as 0.10000000149011612). Return the shortest decimal that is
 * the same 32-bit float, as a person typed it; no precision is lost.
 */
export function shortestFloat32(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  const single = Math.fround(value);
  for (let digits = 1; digits < 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return Number(value.toPrecision(9));
}
