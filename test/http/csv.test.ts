import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { resultToCsv } from '../../shared/http/csv.ts';

const columns = [
  { name: 'id', type: 'number' as const },
  { name: 'name', type: 'string' as const },
  { name: 'doc', type: 'json' as const },
];

describe('resultToCsv', () => {
  it('writes RFC 4180 with a BOM, CRLF, a header row, and round-trips tricky text', () => {
    const rows = [
      { id: 1, name: 'a "quoted", comma', doc: { x: [1] } },
      { id: 2, name: '改行\nあり', doc: null },
      { id: -3, name: null, doc: 'x' },
    ];
    const csv = resultToCsv({ columns, rows }, { escapeFormulas: true });
    expect(csv.startsWith('\uFEFFid,name,doc\r\n')).toBe(true);
    expect(csv).toContain('"a ""quoted"", comma"');
    const parsed = parse(csv, { bom: true, columns: true });
    expect(parsed).toEqual([
      { id: '1', name: 'a "quoted", comma', doc: '{"x":[1]}' },
      { id: '2', name: '改行\nあり', doc: '' },
      { id: '-3', name: '', doc: 'x' },
    ]);
  });

  it('neutralises formulas in text cells, not in numbers, unless asked not to', () => {
    const rows = [
      { id: -1, name: '=HYPERLINK("http://evil")', doc: null },
      { id: 2, name: '@SUM(A1)', doc: null },
    ];
    const escaped = parse(resultToCsv({ columns, rows }, { escapeFormulas: true }), {
      bom: true,
      columns: true,
    }) as {
      id: string;
      name: string;
    }[];
    expect(escaped.map((r) => r.name)).toEqual(['\'=HYPERLINK("http://evil")', "'@SUM(A1)"]);
    expect(escaped[0]!.id).toBe('-1');
    const raw = parse(resultToCsv({ columns, rows }, { escapeFormulas: false }), {
      bom: true,
      columns: true,
    }) as {
      name: string;
    }[];
    expect(raw[0]!.name).toBe('=HYPERLINK("http://evil")');
  });
});
