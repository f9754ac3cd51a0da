/**
 * The whole binding table of spec 2.2, row by row, for both dialects: what
 * text the driver receives and which values it binds.
 */
import { describe, expect, it } from 'vitest';
import type { SqlDialect } from '../../shared/connectors/sql/sql-dialect.ts';
import { quoteIdentifier, renderSql } from '../../shared/connectors/sql/sql-template.ts';
import type { ParameterDefinition } from '../../shared/domain/definitions/parameter.ts';
import { bindArguments } from '../../shared/domain/parameters.ts';

function render(
  dialect: SqlDialect,
  parameter: ParameterDefinition,
  argument: unknown,
  sql = 'SELECT {{ p }}',
) {
  const values = bindArguments([parameter], argument === undefined ? {} : { p: argument }, { system: {} });
  return renderSql({ dialect, title: 't', sql, parameters: new Map([['p', parameter]]), values });
}

type Row = [string, ParameterDefinition, unknown, { pg: string; my: string; values: unknown[] }];

const table: Row[] = [
  [
    'text → string',
    { name: 'p', kind: 'text' },
    'paid',
    { pg: 'SELECT $1', my: 'SELECT ?', values: ['paid'] },
  ],
  [
    'text not entered → ""',
    { name: 'p', kind: 'text' },
    undefined,
    { pg: 'SELECT $1', my: 'SELECT ?', values: [''] },
  ],
  ['number → number', { name: 'p', kind: 'number' }, 5, { pg: 'SELECT $1', my: 'SELECT ?', values: [5] }],
  [
    'number not entered → null',
    { name: 'p', kind: 'number' },
    undefined,
    { pg: 'SELECT $1', my: 'SELECT ?', values: [null] },
  ],
  [
    'boolean, no format → boolean',
    { name: 'p', kind: 'boolean' },
    true,
    { pg: 'SELECT $1', my: 'SELECT ?', values: [true] },
  ],
  [
    'boolean, string format → string',
    { name: 'p', kind: 'boolean', format: 'string' },
    false,
    { pg: 'SELECT $1', my: 'SELECT ?', values: ['false'] },
  ],
  [
    'date, unixtime on → number',
    { name: 'p', kind: 'date', useAsUnixtime: true },
    '2026-11-22T00:00:00Z',
    { pg: 'SELECT $1', my: 'SELECT ?', values: [1_795_305_600] },
  ],
  [
    'date, unixtime on, not entered → null',
    { name: 'p', kind: 'date', useAsUnixtime: true },
    undefined,
    { pg: 'SELECT $1', my: 'SELECT ?', values: [null] },
  ],
  [
    'date, unixtime off → string',
    { name: 'p', kind: 'date' },
    '2026-11-22',
    { pg: 'SELECT $1', my: 'SELECT ?', values: ['2026-11-22'] },
  ],
  [
    'date, unixtime off, not entered → ""',
    { name: 'p', kind: 'date' },
    undefined,
    { pg: 'SELECT $1', my: 'SELECT ?', values: [''] },
  ],
  [
    'array, SQL format → parenthesised placeholders',
    { name: 'p', kind: 'array', itemKind: 'text', format: 'sql' },
    ['a', 'b', 'c'],
    { pg: 'SELECT ($1, $2, $3)', my: 'SELECT (?, ?, ?)', values: ['a', 'b', 'c'] },
  ],
  [
    'array, SQL format, empty → (NULL)',
    { name: 'p', kind: 'array', itemKind: 'number', format: 'sql' },
    [],
    { pg: 'SELECT (NULL)', my: 'SELECT (NULL)', values: [] },
  ],
  [
    'array, JSON format → JSON array text',
    { name: 'p', kind: 'array', itemKind: 'number', format: 'json' },
    [1, 2],
    { pg: 'SELECT $1', my: 'SELECT ?', values: ['[1,2]'] },
  ],
  [
    'array, delimiter format → quoted items joined',
    { name: 'p', kind: 'array', itemKind: 'text', format: 'delimiter', delimiter: ';' },
    ['a', 'say "hi"'],
    { pg: 'SELECT $1', my: 'SELECT ?', values: ['"a";"say ""hi"""'] },
  ],
  [
    'tuple, JSON format → JSON array text',
    { name: 'p', kind: 'tuple', items: [{ kind: 'text' }, { kind: 'number' }], format: 'json' },
    ['a', 1],
    { pg: 'SELECT $1', my: 'SELECT ?', values: ['["a",1]'] },
  ],
  [
    'tuple, delimiter format → quoted items joined',
    { name: 'p', kind: 'tuple', items: [{ kind: 'text' }, { kind: 'number' }], format: 'delimiter' },
    ['a', 1],
    { pg: 'SELECT $1', my: 'SELECT ?', values: ['"a","1"'] },
  ],
  [
    'SQL → inserted as text',
    { name: 'p', kind: 'sql' },
    'now()',
    { pg: 'SELECT now()', my: 'SELECT now()', values: [] },
  ],
  [
    'text identifier → quoted name',
    { name: 'p', kind: 'text', identifier: true },
    'public.orders',
    { pg: 'SELECT "public"."orders"', my: 'SELECT `public`.`orders`', values: [] },
  ],
];

describe('renderSql: the binding table', () => {
  it.each(table)('%s', (_name, parameter, argument, expected) => {
    const pg = render('postgresql', parameter, argument);
    const my = render('mysql', parameter, argument);
    expect(pg).toMatchObject({ title: 't', text: expected.pg, values: expected.values });
    expect(my).toMatchObject({ title: 't', text: expected.my, values: expected.values });
  });
});

describe('renderSql: references', () => {
  const parameters = new Map<string, ParameterDefinition>([['s', { name: 's', kind: 'text' }]]);
  const values = { s: 'x', 'vars.region': 'jp', 'secrets.token': 'sk-1', 'currentUser.email': 'a@b' };
  const sql = 'SELECT {{ s }}, {{ vars.region }}, {{ secrets.token }}, {{ currentUser.email }}, {{ s }}';

  it('PostgreSQL numbers each reference once and reuses it', () => {
    expect(renderSql({ dialect: 'postgresql', title: 't', sql, parameters, values })).toEqual({
      title: 't',
      text: 'SELECT $1, $2, $3, $4, $1',
      values: ['x', 'jp', 'sk-1', 'a@b'],
      placeholderNames: ['s', 'vars.region', 'secrets.token', 'currentUser.email'],
    });
  });

  it('MySQL binds one value per occurrence', () => {
    expect(renderSql({ dialect: 'mysql', title: 't', sql, parameters, values })).toEqual({
      title: 't',
      text: 'SELECT ?, ?, ?, ?, ?',
      values: ['x', 'jp', 'sk-1', 'a@b', 'x'],
      placeholderNames: ['s', 'vars.region', 'secrets.token', 'currentUser.email', 's'],
    });
  });

  it('an empty identifier falls back to a placeholder rather than inserting nothing', () => {
    const parameter: ParameterDefinition = { name: 'p', kind: 'text', identifier: true };
    expect(render('postgresql', parameter, undefined).text).toBe('SELECT $1');
  });

  it('quotes identifiers by each dialect, doubling embedded quotes', () => {
    expect(quoteIdentifier('a"b', 'postgresql')).toBe('"a""b"');
    expect(quoteIdentifier('a`b', 'mysql')).toBe('`a``b`');
  });
});
