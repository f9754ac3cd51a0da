/**
 * Renders an SQL statement's `{{ references }}` for a driver. Every value is a
 * placeholder bound by the driver (`$n` for PostgreSQL, `?` for MySQL), shaped
 * per spec 2.2; only the `sql` kind is inserted as text, and an `identifier`
 * text is inserted quoted by the dialect's rules after strict validation.
 */
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { SqlSyntax } from './sql-dialect.ts';
import type { CompiledStatement } from './sql-ports.ts';
import { type Reference, scanSql } from './sql-scan.ts';

export interface RenderInput {
  dialect: SqlSyntax;
  title: string;
  sql: string;
  parameters: ReadonlyMap<string, ParameterDefinition>;
  /** Parameter values from bindArguments, plus `vars.x`, `secrets.x`, `currentUser.*`. */
  values: Record<string, unknown>;
}

export function renderSql(input: RenderInput): CompiledStatement {
  const values: unknown[] = [];
  const placeholderNames: string[] = [];
  const positions = new Map<string, number>();
  const placeholder = (key: string, value: unknown): string => {
    if (input.dialect !== 'postgresql') {
      values.push(value);
      placeholderNames.push(key);
      return '?';
    }
    let position = positions.get(key);
    if (position === undefined) {
      values.push(value);
      placeholderNames.push(key);
      position = values.length;
      positions.set(key, position);
    }
    return `$${position}`;
  };

  let text = '';
  let last = 0;
  for (const reference of scanSql(input.sql, input.dialect)) {
    text += input.sql.slice(last, reference.start) + renderReference(reference, input, placeholder);
    last = reference.end;
  }
  text += input.sql.slice(last);
  return { title: input.title, text, values, placeholderNames };
}

function renderReference(
  reference: Reference,
  input: RenderInput,
  placeholder: (key: string, value: unknown) => string,
): string {
  const { name } = reference;
  if (!(name in input.values)) {
    throw new DoguError('internal_error', `No value was prepared for {{ ${name} }}.`);
  }
  const value = input.values[name];
  const parameter = input.parameters.get(name);
  if (!parameter) return placeholder(name, value);

  switch (parameter.kind) {
    case 'sql':
      return String(value);
    case 'text':
      return parameter.identifier && value !== ''
        ? quoteIdentifier(String(value), input.dialect)
        : placeholder(name, value);
    case 'boolean':
      return placeholder(name, parameter.format === 'string' ? String(value) : value);
    case 'array':
      if (parameter.format === 'sql') {
        const items = value as unknown[];
        // An empty list still has to be valid SQL: IN (NULL) matches nothing.
        if (items.length === 0) return '(NULL)';
        return `(${items.map((item, i) => placeholder(`${name}[${i}]`, item)).join(', ')})`;
      }
      return placeholder(name, listText(value as unknown[], parameter.format, parameter.delimiter));
    case 'tuple':
      return placeholder(name, listText(value as unknown[], parameter.format, parameter.delimiter));
    default:
      return placeholder(name, value);
  }
}

/** JSON format: a JSON array text. Delimiter format: each item in double quotes (doubled inside), joined. */
function listText(items: unknown[], format: 'json' | 'delimiter', delimiter = ','): string {
  if (format === 'json') return JSON.stringify(items);
  return items.map((item) => `"${String(item).replaceAll('"', '""')}"`).join(delimiter);
}

/** Quoting per dialect; the value was already checked against the identifier pattern. */
export function quoteIdentifier(name: string, dialect: SqlSyntax): string {
  const quote = dialect === 'mysql' || dialect === 'bigquery' ? '`' : '"';
  return name
    .split('.')
    .map((part) => quote + part.replaceAll(quote, quote + quote) + quote)
    .join('.');
}
