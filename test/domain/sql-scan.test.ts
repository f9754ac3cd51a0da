import { describe, expect, it } from 'vitest';
import { scanSql } from '../../shared/connectors/sql/sql-scan.ts';

const contexts = (sql: string, dialect: 'postgresql' | 'mysql' = 'postgresql') =>
  scanSql(sql, dialect).map((r) => [r.name, r.insideOf ?? 'sql']);

describe('scanSql', () => {
  it.each<[string, string, [string, string][]]>([
    [
      'plain',
      'SELECT {{ a }}, {{b.c}}',
      [
        ['a', 'sql'],
        ['b.c', 'sql'],
      ],
    ],
    [
      'single quotes',
      "SELECT '{{ a }}', {{ b }}",
      [
        ['a', 'string'],
        ['b', 'sql'],
      ],
    ],
    [
      'doubled quote stays inside',
      "SELECT 'it''s {{ a }}', {{ b }}",
      [
        ['a', 'string'],
        ['b', 'sql'],
      ],
    ],
    [
      'E string with backslash',
      "SELECT E'\\' {{ a }}', {{ b }}",
      [
        ['a', 'string'],
        ['b', 'sql'],
      ],
    ],
    [
      'double-quoted name',
      'SELECT "{{ a }}" FROM t WHERE x = {{ b }}',
      [
        ['a', 'quoted identifier'],
        ['b', 'sql'],
      ],
    ],
    [
      'line comment',
      'SELECT 1 -- {{ a }}\nWHERE {{ b }}',
      [
        ['a', 'comment'],
        ['b', 'sql'],
      ],
    ],
    [
      'block comment',
      'SELECT /* {{ a }} */ {{ b }}',
      [
        ['a', 'comment'],
        ['b', 'sql'],
      ],
    ],
    [
      'dollar quotes',
      'SELECT $x$ {{ a }} $x$, $$ {{ b }} $$, {{ c }}',
      [
        ['a', 'string'],
        ['b', 'string'],
        ['c', 'sql'],
      ],
    ],
    ['positional $1 is not a dollar quote', 'SELECT $1, {{ a }}', [['a', 'sql']]],
  ])('%s (PostgreSQL)', (_name, sql, expected) => {
    expect(contexts(sql)).toEqual(expected);
  });

  it.each<[string, string, [string, string][]]>([
    [
      'double quotes are strings',
      'SELECT "{{ a }}", {{ b }}',
      [
        ['a', 'string'],
        ['b', 'sql'],
      ],
    ],
    [
      'backslash escapes',
      "SELECT 'a\\' {{ a }}', {{ b }}",
      [
        ['a', 'string'],
        ['b', 'sql'],
      ],
    ],
    ['backticks', 'SELECT `{{ a }}` FROM t', [['a', 'quoted identifier']]],
    [
      'hash comment',
      'SELECT 1 # {{ a }}\n, {{ b }}',
      [
        ['a', 'comment'],
        ['b', 'sql'],
      ],
    ],
  ])('%s (MySQL)', (_name, sql, expected) => {
    expect(contexts(sql, 'mysql')).toEqual(expected);
  });

  it('gives exact positions', () => {
    const [reference] = scanSql('WHERE id = {{  id  }};');
    expect(reference).toMatchObject({ name: 'id', start: 11, end: 21 });
  });
});
