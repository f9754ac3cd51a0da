import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { batchTemplateCsv, csvRowNumber, parseBatchCsv } from '../../shared/domain/batch/batch-csv.ts';
import { batchResultsCsv, validateBatchRows } from '../../shared/domain/batch/batch-rows.ts';
import type { ParameterDefinition } from '../../shared/domain/definitions/parameter.ts';
import { DoguError, type FieldError } from '../../shared/domain/errors.ts';
import { bindArguments, type MasterData } from '../../shared/domain/parameters.ts';
import type { BatchRow } from '../../shared/domain/scheduling/model.ts';

const bom = '\uFEFF';
const noMasterData: MasterData = {};

/** A CSV cell as a spreadsheet writes it: quoted when it holds a quote, comma or line break. */
const cellText = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
const csvOf = (rows: string[][]) => `${bom}${rows.map((r) => r.map(cellText).join(',')).join('\r\n')}\r\n`;

function refusal(run: () => unknown): DoguError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DoguError);
    return error as DoguError;
  }
  throw new Error('expected a refusal');
}
const errorsOf = (run: () => unknown): FieldError[] => {
  const error = refusal(run);
  expect(error.code).toBe('argument_invalid');
  return error.errors ?? [];
};

/** One data row holding `cell` for `parameter`, beside a marker column so an empty cell is not a blank line. */
const marker: ParameterDefinition = { name: 'marker', kind: 'text' };
function parseCell(parameter: ParameterDefinition, cell: string, masterData = noMasterData) {
  const csv = csvOf([
    [parameter.name, marker.name],
    [cell, 'x'],
  ]);
  const { marker: _marker, ...row } = parseBatchCsv(csv, [parameter, marker], masterData).rows[0]!;
  return row;
}

describe('parseBatchCsv: the cell rules of spec 2.7, per kind', () => {
  it.each<[string, ParameterDefinition, string, Record<string, unknown>]>([
    ['text as is', { name: 'p', kind: 'text' }, '  paid ', { p: '  paid ' }],
    ['text empty', { name: 'p', kind: 'text' }, '', { p: '' }],
    [
      'text with quote, comma, newline',
      { name: 'p', kind: 'text' },
      'say "hi",\r\nbye',
      { p: 'say "hi",\r\nbye' },
    ],
    [
      'text in Japanese',
      { name: 'p', kind: 'text' },
      '東京都千代田区「丸の内」',
      { p: '東京都千代田区「丸の内」' },
    ],
    ['number', { name: 'p', kind: 'number' }, '-3.5', { p: -3.5 }],
    ['number with spaces', { name: 'p', kind: 'number' }, ' 12 ', { p: 12 }],
    ['number exponent', { name: 'p', kind: 'number' }, '1e3', { p: 1000 }],
    ['number empty, optional: not entered', { name: 'p', kind: 'number' }, '', {}],
    ['date ISO kept', { name: 'p', kind: 'date' }, '2026-11-22', { p: '2026-11-22' }],
    [
      'date ISO with offset kept',
      { name: 'p', kind: 'date' },
      '2026-11-22T09:00:00+09:00',
      { p: '2026-11-22T09:00:00+09:00' },
    ],
    ['date with slashes', { name: 'p', kind: 'date' }, '2026/11/22', { p: '2026-11-22' }],
    [
      'date and time with slashes',
      { name: 'p', kind: 'date' },
      '2026/1/5 9:30',
      { p: '2026-01-05T09:30:00' },
    ],
    [
      'date and time with seconds',
      { name: 'p', kind: 'date' },
      '2024/2/29 23:05:30',
      { p: '2024-02-29T23:05:30' },
    ],
    ['date with month name', { name: 'p', kind: 'date' }, 'Nov 22, 2026', { p: '2026-11-22' }],
    ['date in Japanese', { name: 'p', kind: 'date' }, '2026年11月22日', { p: '2026-11-22' }],
    [
      'date and time in Japanese',
      { name: 'p', kind: 'date' },
      '2026年1月5日 9:30',
      { p: '2026-01-05T09:30:00' },
    ],
    [
      'date with zone → UTC',
      { name: 'p', kind: 'date' },
      'Sun, 22 Nov 2026 09:00:00 GMT',
      { p: '2026-11-22T09:00:00.000Z' },
    ],
    [
      'date with offset → UTC',
      { name: 'p', kind: 'date' },
      '2026/11/22 09:00 +0900',
      { p: '2026-11-22T00:00:00.000Z' },
    ],
    ['date as Unix seconds', { name: 'p', kind: 'date' }, '1795305600', { p: 1_795_305_600 }],
    ['date empty: not entered', { name: 'p', kind: 'date' }, '', {}],
    ['boolean true', { name: 'p', kind: 'boolean' }, 'TRUE', { p: true }],
    ['boolean false', { name: 'p', kind: 'boolean' }, 'False', { p: false }],
    ['boolean empty is false', { name: 'p', kind: 'boolean', default: true }, '', { p: false }],
    ['json number', { name: 'p', kind: 'json' }, '42', { p: 42 }],
    ['json string', { name: 'p', kind: 'json' }, '"abc"', { p: 'abc' }],
    ['json object', { name: 'p', kind: 'json' }, '{"a":[1,"x"]}', { p: { a: [1, 'x'] } }],
    ['json empty is null', { name: 'p', kind: 'json' }, '', { p: null }],
    ['sql as text', { name: 'p', kind: 'sql' }, 'ORDER BY id, name', { p: 'ORDER BY id, name' }],
    [
      'array as JSON',
      { name: 'p', kind: 'array', itemKind: 'text', format: 'json' },
      '["a","b,c"]',
      { p: ['a', 'b,c'] },
    ],
    [
      'array of numbers',
      { name: 'p', kind: 'array', itemKind: 'number', format: 'sql' },
      '[1, 2.5]',
      { p: [1, 2.5] },
    ],
    ['array empty: not entered', { name: 'p', kind: 'array', itemKind: 'text', format: 'json' }, '', {}],
    [
      'tuple as array',
      { name: 'p', kind: 'tuple', items: [{ kind: 'text' }, { kind: 'number' }], format: 'json' },
      '["a",1]',
      { p: ['a', 1] },
    ],
  ])('%s', (_name, parameter, cell, expected) => {
    const row = parseCell(parameter, cell);
    expect(row).toEqual(expected);
    // What the CSV gives, the execution accepts.
    expect(() => bindArguments([parameter], row!, { system: {} })).not.toThrow();
  });

  it.each<[string, ParameterDefinition, string, string]>([
    [
      'number not a number',
      { name: 'p', kind: 'number' },
      'abc',
      `'p' must be a number such as 12 or -3.5, not "abc".`,
    ],
    ['number with a thousands comma', { name: 'p', kind: 'number' }, '1,234', `'p' must be a number`],
    ['number beyond 2^53', { name: 'p', kind: 'number' }, '12345678901234567890', 'beyond ±9007199254740991'],
    ['number required and empty', { name: 'p', kind: 'number', required: true }, '', "'p' is required."],
    [
      'number out of range (bindArguments rule)',
      { name: 'p', kind: 'number', max: 10 },
      '11',
      "'p' must be at most 10.",
    ],
    ['date not a date', { name: 'p', kind: 'date' }, 'next tuesday', `'p' must be a date such as 2026-11-22`],
    ['date the JS parser would guess', { name: 'p', kind: 'date' }, 'hello 2026', `'p' must be a date`],
    ['date impossible with slashes', { name: 'p', kind: 'date' }, '2026/2/29', `'p' must be a date such as`],
    ['date impossible time', { name: 'p', kind: 'date' }, '2026/11/22 24:00', `'p' must be a date such as`],
    [
      'date impossible ISO',
      { name: 'p', kind: 'date' },
      '2026-13-45',
      "'p' is not a valid date: no such day or time on the calendar.",
    ],
    [
      'boolean other text',
      { name: 'p', kind: 'boolean' },
      'yes',
      `'p' must be true or false (any case), or empty for false, not "yes".`,
    ],
    ['json invalid', { name: 'p', kind: 'json' }, 'abc', `'p' must be JSON such as 42, "text"`],
    ['json required and empty', { name: 'p', kind: 'json', required: true }, '', "'p' is required."],
    [
      'array not JSON',
      { name: 'p', kind: 'array', itemKind: 'text', format: 'json' },
      'a;b',
      `'p' must be a JSON array`,
    ],
    [
      'array a JSON object',
      { name: 'p', kind: 'array', itemKind: 'text', format: 'json' },
      '{"a":1}',
      `'p' must be a JSON array`,
    ],
    [
      'array item kind',
      { name: 'p', kind: 'array', itemKind: 'number', format: 'sql' },
      '[1,"x"]',
      "'p' item 1 must be a finite number.",
    ],
    [
      'tuple length',
      { name: 'p', kind: 'tuple', items: [{ kind: 'text' }], format: 'json' },
      '["a","b"]',
      "'p' must have exactly 1 items.",
    ],
    [
      'text pattern',
      { name: 'p', kind: 'text', pattern: '[a-z]+' },
      'ab1',
      "'p' must match the pattern [a-z]+.",
    ],
  ])('refuses: %s', (_name, parameter, cell, detail) => {
    const errors = errorsOf(() => parseCell(parameter, cell));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.pointer).toBe('/rows/2/p');
    expect(errors[0]!.detail).toContain(detail);
  });
});

describe('parseBatchCsv: choices and master data', () => {
  const status: ParameterDefinition = {
    name: 'status',
    kind: 'text',
    choices: [
      { value: 'paid', label: 'Paid' },
      { value: 'open', label: '未払い' },
    ],
  };
  const level: ParameterDefinition = {
    name: 'level',
    kind: 'number',
    choices: [
      { value: 1, label: 'Low' },
      { value: 2, label: 'High' },
    ],
  };
  const region: ParameterDefinition = { name: 'region', kind: 'text', masterData: 'regions' };
  const tags: ParameterDefinition = {
    name: 'tags',
    kind: 'array',
    itemKind: 'text',
    format: 'json',
    choices: [{ value: 'a', label: 'Alpha' }],
  };
  const masterData: MasterData = { regions: [{ value: 'kanto', label: '関東' }] };

  it.each<[string, ParameterDefinition, string, unknown]>([
    ['text label → value', status, 'Paid', 'paid'],
    ['Japanese label → value', status, '未払い', 'open'],
    ['text value kept', status, 'paid', 'paid'],
    ['number label → value', level, 'High', 2],
    ['number value converted', level, '1', 1],
    ['master data label → value', region, '関東', 'kanto'],
    ['master data value kept', region, 'kanto', 'kanto'],
    ['array item labels → values', tags, '["Alpha","a"]', ['a', 'a']],
  ])('%s', (_name, parameter, cell, expected) => {
    expect(parseCell(parameter, cell, masterData)).toEqual({ [parameter.name]: expected });
  });

  it('passes a cell that matches no label through, so bindArguments names the allowed values', () => {
    const errors = errorsOf(() => parseCell(status, 'Unpaid'));
    expect(errors).toEqual([
      { pointer: '/rows/2/status', detail: `'status' must be one of "paid", "open".` },
    ]);
  });

  it('passes the cell through when the master data list is not there', () => {
    expect(parseCell(region, '関東', {})).toEqual({ region: '関東' });
  });

  it('prefers a value over another choice with that text as its label, as bindArguments does', () => {
    const tricky: ParameterDefinition = {
      name: 'p',
      kind: 'text',
      choices: [
        { value: 'A', label: 'B' },
        { value: 'B', label: 'C' },
      ],
    };
    expect(parseCell(tricky, 'B')).toEqual({ p: 'B' });
    expect(parseCell(tricky, 'C')).toEqual({ p: 'B' });
  });
});

describe('parseBatchCsv: the file', () => {
  const parameters: ParameterDefinition[] = [
    { name: 'name', kind: 'text' },
    { name: 'amount', kind: 'number' },
    { name: 'ids', kind: 'array', itemKind: 'text', format: 'json' },
    { name: 'by', kind: 'system', value: 'currentUser.email' },
  ];

  it('reads quoted cells, doubled quotes, commas, line breaks, BOM and CRLF', () => {
    const csv = `${bom}name,amount,ids\r\n"Smith, ""Bob""",5,"[""a"",""b""]"\r\n"line 1\r\nline 2",6,[]\r\n`;
    expect(parseBatchCsv(csv, parameters, noMasterData).rows).toEqual([
      { name: 'Smith, "Bob"', amount: 5, ids: ['a', 'b'] },
      { name: 'line 1\r\nline 2', amount: 6, ids: [] },
    ]);
  });

  it('reads LF line ends, no BOM, no final line break, and ignores blank lines at the end', () => {
    expect(parseBatchCsv('amount,name\n1,東京\n2,大阪', parameters, noMasterData).rows).toEqual([
      { amount: 1, name: '東京' },
      { amount: 2, name: '大阪' },
    ]);
    expect(parseBatchCsv('amount\r\n1\r\n\r\n\r\n', parameters, noMasterData).rows).toEqual([{ amount: 1 }]);
  });

  it('accepts missing optional columns and ignores an unnamed column that stays empty', () => {
    expect(parseBatchCsv('name,,\r\nx,,\r\n', parameters, noMasterData).rows).toEqual([{ name: 'x' }]);
  });

  it('reports every bad cell of every row, numbered as in the file (a multi-line cell is one row)', () => {
    const csv = [
      'name,amount,ids',
      'ok,1,[]',
      '"two\nlines",x,[1]',
      'fine,y,nope',
      'short,1',
      ',',
      ',,',
      'last,2,[]',
    ].join('\r\n');
    const error = refusal(() => parseBatchCsv(csv, parameters, noMasterData));
    expect(error.message).toBe('The CSV has 7 errors: each is listed in errors.');
    expect(error.errors).toEqual([
      { pointer: '/rows/3/amount', detail: `'amount' must be a number such as 12 or -3.5, not "x".` },
      { pointer: '/rows/3/ids', detail: "'ids' item 0 must be a string." },
      { pointer: '/rows/4/amount', detail: `'amount' must be a number such as 12 or -3.5, not "y".` },
      { pointer: '/rows/4/ids', detail: expect.stringContaining(`'ids' must be a JSON array`) },
      { pointer: '/rows/5', detail: 'Row 5 has 2 cells; the header row has 3.' },
      { pointer: '/rows/6', detail: 'Row 6 is blank: delete it or fill in its cells.' },
      { pointer: '/rows/7', detail: 'Row 7 is blank: delete it or fill in its cells.' },
    ]);
  });

  it('reports a blank line in the middle, even in a one-column file', () => {
    expect(errorsOf(() => parseBatchCsv('name,amount\n\nx,1\n', parameters, noMasterData))).toEqual([
      { pointer: '/rows/2', detail: 'Row 2 is blank: delete it or fill in its cells.' },
    ]);
    expect(errorsOf(() => parseBatchCsv('name\nx\n\ny\n', parameters, noMasterData))).toEqual([
      { pointer: '/rows/3', detail: 'Row 3 is blank: delete it or fill in its cells.' },
    ]);
  });

  it('reports header problems on row 1, a missing required column once', () => {
    const withRequired: ParameterDefinition[] = [
      ...parameters,
      { name: 'code', kind: 'text', required: true },
    ];
    const csv = 'name,nme,name,by,a/b\r\nx,1,2,3,4\r\ny,1,2,3,4\r\n';
    expect(errorsOf(() => parseBatchCsv(csv, withRequired, noMasterData))).toEqual([
      {
        pointer: '/rows/1/nme',
        detail: "Column 'nme' is not a parameter of this action (name, amount, ids, code).",
      },
      { pointer: '/rows/1/name', detail: "Column 'name' appears twice (columns 1 and 3)." },
      { pointer: '/rows/1/by', detail: "Column 'by' is a system value and cannot be given." },
      {
        pointer: '/rows/1/a~1b',
        detail: "Column 'a/b' is not a parameter of this action (name, amount, ids, code).",
      },
      { pointer: '/rows/1/code', detail: "Column 'code' is missing: the parameter is required." },
    ]);
  });

  it('reports an unnamed column that has values', () => {
    expect(errorsOf(() => parseBatchCsv('name,\r\nx,\r\ny,z\r\n', parameters, noMasterData))).toEqual([
      { pointer: '/rows/1', detail: 'Column 2 has no name in the header row but has a value in row 3.' },
    ]);
  });

  it.each<[string, string, string]>([
    ['an empty file', '', 'The CSV is empty: its first row must be the parameter names.'],
    ['a BOM only', bom, 'The CSV is empty: its first row must be the parameter names.'],
    [
      'a header only',
      `${bom}name,amount\r\n`,
      'The CSV has only the header row: add one row per execution below it.',
    ],
    [
      'a file that is not UTF-8',
      'name\r\n\uFFFD\uFFFD\r\n',
      'The file is not UTF-8 text (it contains replacement characters): save it as "CSV UTF-8" and upload it again.',
    ],
  ])('refuses %s', (_name, csv, detail) => {
    expect(errorsOf(() => parseBatchCsv(csv, parameters, noMasterData))).toEqual([
      { pointer: '/rows', detail },
    ]);
  });

  it.each<[string, string, string, string]>([
    ['an unclosed quote', 'name\r\nok\r\n"open\r\n', '/rows/3', 'the file ends inside double quotes'],
    [
      'text after a closing quote',
      'name\r\n"a"b\r\n',
      '/rows/2',
      'a double quote inside a cell must be doubled',
    ],
    ['a bare quote in a cell', 'name\r\nok\r\nok\r\n5" screen\r\n', '/rows/4', 'quote the whole cell'],
  ])('refuses %s, naming the row', (_name, csv, pointer, detail) => {
    const errors = errorsOf(() => parseBatchCsv(csv, parameters, noMasterData));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.pointer).toBe(pointer);
    expect(errors[0]!.detail).toContain(detail);
  });

  it('refuses more rows than allowed, and takes exactly the limit', () => {
    const rows = (n: number) => `amount\r\n${Array.from({ length: n }, (_, i) => i).join('\r\n')}\r\n`;
    expect(parseBatchCsv(rows(10_000), parameters, noMasterData).rows).toHaveLength(10_000);
    expect(errorsOf(() => parseBatchCsv(rows(10_001), parameters, noMasterData))).toEqual([
      { pointer: '/rows', detail: 'The CSV has 10001 rows; a batch may have at most 10000.' },
    ]);
    expect(errorsOf(() => parseBatchCsv(rows(3), parameters, noMasterData, { maxRows: 2 }))[0]!.detail).toBe(
      'The CSV has 3 rows; a batch may have at most 2.',
    );
  });

  it('lists at most maxErrors errors and stops checking there', () => {
    const error = refusal(() =>
      parseBatchCsv('amount\r\na\r\nb\r\nc\r\nd\r\n', parameters, noMasterData, { maxErrors: 2 }),
    );
    expect(error.message).toBe('The CSV has more than 2 errors: each is listed in errors.');
    expect(error.errors).toEqual([
      { pointer: '/rows/2/amount', detail: expect.stringContaining('not "a"') },
      { pointer: '/rows/3/amount', detail: expect.stringContaining('not "b"') },
      {
        pointer: '/rows',
        detail:
          'Only the first 2 errors are listed; rows from row 4 on were not checked. Fix these and send the batch again.',
      },
    ]);
  });

  it('stops checking a file where every cell is wrong at the default cap of 1000 errors', () => {
    // What the cap saves is for bench/, not a clock here (a 1 s bound failed at 1.5 s on a loaded
    // machine): the rows past the cap are left unchecked, and the answer says from which row.
    const csv = `name,amount,ids\r\n${'x,y,z\r\n'.repeat(10_000)}`;
    const errors = errorsOf(() => parseBatchCsv(csv, parameters, noMasterData));
    expect(errors).toHaveLength(1001);
    expect(errors[1000]!.detail).toContain('rows from row 502 on were not checked');
    const checkedRows = new Set(
      errors.slice(0, 1000).map((e) => Number(/^\/rows\/(\d+)\//.exec(e.pointer)?.[1])),
    );
    expect(Math.max(...checkedRows)).toBe(501);
  });

  it('refuses an action with a file parameter', () => {
    const error = refusal(() =>
      parseBatchCsv('name\r\nx\r\n', [...parameters, { name: 'upload', kind: 'file' }], noMasterData),
    );
    expect(error.code).toBe('invalid_definition');
    expect(error.message).toBe("CSV input is not supported for action with file parameter 'upload'.");
  });
});

describe('parseBatchCsv: reading the file with csv-parse', () => {
  const columns: ParameterDefinition[] = [
    { name: 'a', kind: 'text' },
    { name: 'b', kind: 'text' },
    { name: 'c', kind: 'text' },
  ];
  const rowsOf = (csv: string) => parseBatchCsv(csv, columns, noMasterData).rows;

  it.each<[string, string, Record<string, string>[]]>([
    ['CRLF', 'a,b\r\n1,2\r\n', [{ a: '1', b: '2' }]],
    ['LF without a final line break', 'a,b\n1,2', [{ a: '1', b: '2' }]],
    [
      'CR line ends (old Mac Excel)',
      'a,b\r1,2\r3,4\r',
      [
        { a: '1', b: '2' },
        { a: '3', b: '4' },
      ],
    ],
    [
      'CRLF, LF and CR mixed in one file',
      'a,b\r\n1,2\n3,4\r5,6',
      [
        { a: '1', b: '2' },
        { a: '3', b: '4' },
        { a: '5', b: '6' },
      ],
    ],
    ['BOM', '\uFEFFa,b\r\n1,2\r\n', [{ a: '1', b: '2' }]],
    [
      'empty cells and a trailing comma',
      'a,b,c\r\n,x,\r\n1,,\r\n',
      [
        { a: '', b: 'x', c: '' },
        { a: '1', b: '', c: '' },
      ],
    ],
    [
      'quoted comma, doubled quotes, line breaks of every kind inside a cell',
      'a,b\r\n"x, ""y""","1\r\n2\n3\r4"\r\n""," "\r\n',
      [
        { a: 'x, "y"', b: '1\r\n2\n3\r4' },
        { a: '', b: ' ' },
      ],
    ],
    [
      'Japanese and full-width punctuation',
      'a,b\r\n"山田，太郎","＂引用＂"\r\n',
      [{ a: '山田，太郎', b: '＂引用＂' }],
    ],
    ['a quoted cell at the end of the file', 'a\r\n"x"', [{ a: 'x' }]],
  ])('%s', (_name, csv, expected) => {
    expect(rowsOf(csv)).toEqual(expected);
  });

  it('numbers rows after cells holding CRLF as a spreadsheet does, not by lines of text', () => {
    // Rows: header 1, a two-line cell 2, a three-line cell 3, then row 4 is the broken one (line 7).
    const csv = 'a\r\n"two\r\nlines"\r\n"three\r\nline\r\ncell"\r\n5" screen\r\n';
    const error = refusal(() => rowsOf(csv));
    expect(error.message).toBe(
      'Row 4 cannot be read: a cell has a double quote inside unquoted text: quote the whole cell and double the inner quote ("").',
    );
    expect(error.errors).toEqual([
      { pointer: '/rows/4', detail: expect.stringContaining('quote the whole') },
    ]);
  });

  it('names the row where an unclosed quoted cell starts, however many lines follow it', () => {
    const error = refusal(() => rowsOf('a\r\n"ok\r\ncell"\r\nx\r\n"open\r\nmore\r\nlines\r\n'));
    expect(error.errors).toEqual([
      {
        pointer: '/rows/4',
        detail: 'a quoted cell in this row is not closed: the file ends inside double quotes.',
      },
    ]);
  });

  it('keeps a row of empty cells in the middle as a row, so it is reported and later rows keep their numbers', () => {
    expect(errorsOf(() => rowsOf('a,b\r\n1,2\r\n,\r\n\r\n3,x"\r\n'))).toEqual([
      { pointer: '/rows/5', detail: expect.stringContaining('quote the whole cell') },
    ]);
    expect(errorsOf(() => rowsOf('a,b\r\n1,2\r\n,\r\n\r\n3,4\r\n'))).toEqual([
      { pointer: '/rows/3', detail: 'Row 3 is blank: delete it or fill in its cells.' },
      { pointer: '/rows/4', detail: 'Row 4 is blank: delete it or fill in its cells.' },
    ]);
  });
});

describe('batchTemplateCsv', () => {
  it('is the header row of the parameters a caller gives, with BOM and CRLF', () => {
    const parameters: ParameterDefinition[] = [
      { name: 'customer_id', kind: 'number', required: true },
      { name: 'by', kind: 'system', value: 'currentUser.email' },
      { name: 'note', kind: 'text' },
      { name: 'tags', kind: 'array', itemKind: 'text', format: 'json' },
    ];
    expect(batchTemplateCsv(parameters)).toBe(`${bom}customer_id,note,tags\r\n`);
  });

  it('refuses an action with a file parameter', () => {
    const error = refusal(() => batchTemplateCsv([{ name: 'upload', kind: 'file' }]));
    expect(error.code).toBe('invalid_definition');
    expect(error.message).toBe("CSV input is not supported for action with file parameter 'upload'.");
  });

  it('round trip: the template filled in by a spreadsheet parses back to the values', () => {
    const parameters: ParameterDefinition[] = [
      { name: 'name', kind: 'text', required: true },
      { name: 'amount', kind: 'number', min: 0 },
      { name: 'active', kind: 'boolean' },
      { name: 'due', kind: 'date', useAsUnixtime: true },
      { name: 'ids', kind: 'array', itemKind: 'number', format: 'sql' },
      { name: 'meta', kind: 'json' },
      { name: 'by', kind: 'system', value: 'currentUser.email' },
    ];
    const template = batchTemplateCsv(parameters);
    const filled = `${template}${[
      ['山田 "Taro", Jr.', '1200', 'TRUE', '2026/11/22', '[1,2,3]', '{"note":"a,b"}'],
      ['=SUM(A1)', '0', '', '1795305600', '', ''],
    ]
      .map((row) => row.map(cellText).join(','))
      .join('\r\n')}\r\n`;
    const { rows } = parseBatchCsv(filled, parameters, noMasterData);
    expect(rows).toEqual([
      {
        name: '山田 "Taro", Jr.',
        amount: 1200,
        active: true,
        due: '2026-11-22',
        ids: [1, 2, 3],
        meta: { note: 'a,b' },
      },
      { name: '=SUM(A1)', amount: 0, active: false, due: 1_795_305_600, meta: null },
    ]);
    expect(() =>
      validateBatchRows(parameters, rows, noMasterData, { rowNumber: csvRowNumber }),
    ).not.toThrow();
    expect(bindArguments(parameters, rows[0]!, { system: {} }).due).toBe(1_795_305_600);
  });
});

describe('validateBatchRows: form rows', () => {
  const parameters: ParameterDefinition[] = [
    { name: 'name', kind: 'text', required: true },
    { name: 'amount', kind: 'number', max: 10 },
  ];

  it('accepts valid rows', () => {
    expect(() =>
      validateBatchRows(parameters, [{ name: 'a', amount: 1 }, { name: 'b' }], noMasterData),
    ).not.toThrow();
  });

  it('reports every refusal of every row with 0-based row pointers', () => {
    const error = refusal(() =>
      validateBatchRows(
        parameters,
        [{ name: 'a' }, { amount: 'x', extra: 1 }, 'row', { name: 'b', amount: 11 }],
        noMasterData,
      ),
    );
    expect(error.errors).toEqual([
      { pointer: '/rows/1/extra', detail: "'extra' is not a parameter of this action." },
      { pointer: '/rows/1/name', detail: "'name' is required." },
      { pointer: '/rows/1/amount', detail: "'amount' must be a finite number." },
      { pointer: '/rows/2', detail: 'A row must be an object of parameter names to values.' },
      { pointer: '/rows/3/amount', detail: "'amount' must be at most 10." },
    ]);
  });

  it('numbers rows as asked', () => {
    const errors = errorsOf(() =>
      validateBatchRows(parameters, [{ name: 'a' }, { name: '' }], noMasterData, { rowNumber: csvRowNumber }),
    );
    expect(errors).toEqual([{ pointer: '/rows/3/name', detail: "'name' is required." }]);
  });

  it('refuses no rows and too many rows', () => {
    expect(errorsOf(() => validateBatchRows(parameters, [], noMasterData))).toEqual([
      { pointer: '/rows', detail: 'A batch needs at least one row.' },
    ]);
    expect(
      errorsOf(() =>
        validateBatchRows(parameters, [{ name: 'a' }, { name: 'b' }], noMasterData, { maxRows: 1 }),
      ),
    ).toEqual([{ pointer: '/rows', detail: 'A batch may have at most 1 rows; this one has 2.' }]);
  });
});

describe('batchResultsCsv', () => {
  const parameters: ParameterDefinition[] = [
    { name: 'name', kind: 'text' },
    { name: 'amount', kind: 'number' },
    { name: 'ids', kind: 'array', itemKind: 'text', format: 'json' },
    { name: 'meta', kind: 'json' },
    { name: 'by', kind: 'system', value: 'now' },
  ];
  const rows: BatchRow[] = [
    {
      index: 1,
      arguments: { name: '=HYPERLINK("x")', amount: -5, ids: ['a', 'b"c'], meta: { k: 1 } },
      status: 'failure',
      executionId: 'exe_2',
      error: { code: 'data_source_error', message: '@bad, "quoted"' },
      attempt: 1,
    },
    { index: 0, arguments: { name: '東京', amount: 3 }, status: 'success', executionId: 'exe_1', attempt: 1 },
    { index: 2, arguments: { name: ' padded ' }, status: 'waiting', attempt: 0 },
  ];

  it('lists outcome and arguments per row in order, formula-escaped, with BOM and CRLF', () => {
    expect(batchResultsCsv(parameters, rows)).toBe(
      `${bom}row,status,executionId,errorCode,errorMessage,name,amount,ids,meta\r\n` +
        '1,success,exe_1,,,東京,3,,\r\n' +
        `2,failure,exe_2,data_source_error,"'@bad, ""quoted""","'=HYPERLINK(""x"")",-5,"[""a"",""b\\""c""]","{""k"":1}"\r\n` +
        '3,waiting,,,," padded ",,,\r\n',
    );
  });

  it('names each column once when a parameter is called like an outcome column', () => {
    const withStatus: ParameterDefinition[] = [
      { name: 'status', kind: 'text' },
      { name: 'row', kind: 'number' },
    ];
    const csv = batchResultsCsv(withStatus, [
      {
        index: 0,
        arguments: { status: 'paid', row: 7 },
        status: 'success',
        executionId: 'exe_1',
        attempt: 1,
      },
    ]);
    const [header, first] = parse(csv, { bom: true }) as string[][];
    expect(header).toEqual([
      'batch.row',
      'batch.status',
      'executionId',
      'errorCode',
      'errorMessage',
      'status',
      'row',
    ]);
    expect(new Set(header).size).toBe(header!.length);
    expect(first).toEqual(['1', 'success', 'exe_1', '', '', 'paid', '7']);
  });

  it('numbers rows as asked and writes values that parse back', () => {
    const csv = batchResultsCsv(parameters, rows.slice(0, 2), { rowNumber: csvRowNumber });
    expect(csv.split('\r\n').map((line) => line.split(',')[0])).toEqual([`${bom}row`, '2', '3', '']);
    // Drop the outcome columns: what is left is a batch input file again.
    const inputOnly = csvOf(parse(csv, { bom: true }).map((record: string[]) => record.slice(5)));
    expect(parseBatchCsv(inputOnly, parameters, noMasterData).rows[1]).toEqual({
      name: '\'=HYPERLINK("x")',
      amount: -5,
      ids: ['a', 'b"c'],
      meta: { k: 1 },
    });
  });
});

describe('bindArguments reused across the rows of a batch', () => {
  it('answers from the lookup of the same parameters array, yet sees the array changed in place', () => {
    const parameters: ParameterDefinition[] = [{ name: 'a', kind: 'text' }];
    expect(bindArguments(parameters, { a: 'x' }, { system: {} })).toEqual({ a: 'x' });
    expect(errorsOf(() => bindArguments(parameters, { b: 1 }, { system: {} }))).toEqual([
      { pointer: '#/arguments/b', detail: "'b' is not a parameter of this action." },
    ]);
    parameters.push({ name: 'b', kind: 'number' });
    expect(bindArguments(parameters, { b: 1 }, { system: {} })).toEqual({ a: '', b: 1 });
    parameters[1] = { name: 'c', kind: 'number' };
    expect(errorsOf(() => bindArguments(parameters, { b: 1 }, { system: {} }))).toEqual([
      { pointer: '#/arguments/b', detail: "'b' is not a parameter of this action." },
    ]);
  });

  it('applies each pattern to its own parameter when compiled patterns are reused', () => {
    const parameters: ParameterDefinition[] = [
      { name: 'lower', kind: 'text', pattern: '[a-z]+' },
      { name: 'digits', kind: 'text', pattern: '\\d+' },
      { name: 'alsoLower', kind: 'text', pattern: '[a-z]+' },
    ];
    for (let i = 0; i < 3; i++) {
      expect(
        bindArguments(parameters, { lower: 'ab', digits: '12', alsoLower: 'c' }, { system: {} }),
      ).toEqual({ lower: 'ab', digits: '12', alsoLower: 'c' });
      expect(
        errorsOf(() =>
          bindArguments(parameters, { lower: '12', digits: 'ab', alsoLower: 'C' }, { system: {} }),
        ),
      ).toEqual([
        { pointer: '#/arguments/lower', detail: "'lower' must match the pattern [a-z]+." },
        { pointer: '#/arguments/digits', detail: "'digits' must match the pattern \\d+." },
        { pointer: '#/arguments/alsoLower', detail: "'alsoLower' must match the pattern [a-z]+." },
      ]);
    }
  });
});
