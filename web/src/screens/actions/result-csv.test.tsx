import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { resultToCsv } from '../../../../shared/http/csv.ts';
import type { ResultColumn } from '../../api/types.ts';
import { resultCsv } from './result-csv.ts';

const columns: ResultColumn[] = [
  { name: 'id', type: 'number' },
  { name: 'note', type: 'string' },
  { name: 'data', type: 'json' },
];

describe('CSV of the result on screen', () => {
  it('is the file the API would send for plain rows (BOM, CRLF, header)', () => {
    const rows = [
      { id: 1, note: 'café 東京', data: { a: 1 } },
      { id: 2, note: null, data: null },
    ];
    const server = resultToCsv({ columns, rows } as never, { escapeFormulas: true });
    expect(resultCsv({ columns, rows })).toBe(server);
  });

  it('quotes what needs quoting and defuses formulas, so every cell reads back as shown', () => {
    const rows = [
      { id: 1, note: 'a,b "c"\nd', data: [1, 'x'] },
      { id: 2, note: '=HYPERLINK("http://x")', data: ' padded ' },
      { id: 3, note: '-5', data: '@x' },
    ];
    const csv = resultCsv({ columns, rows });
    expect(csv.startsWith('\uFEFFid,note,data\r\n')).toBe(true);
    expect(parse(csv.slice(1), { record_delimiter: '\r\n' })).toEqual([
      ['id', 'note', 'data'],
      ['1', 'a,b "c"\nd', '[1,"x"]'],
      ['2', `'=HYPERLINK("http://x")`, ' padded '],
      ['3', "'-5", '@x'],
    ]);
  });
});
