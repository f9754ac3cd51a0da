/** A1 notation helpers: column letters, quoted sheet titles, where a range Google answered starts. */
import { describe, expect, it } from 'vitest';
import { columnLetters, quotedSheet, rangeStart } from '../../../shared/connectors/google-sheets/a1.ts';

describe('A1 notation', () => {
  it('turns column indexes into letters past Z and ZZ', () => {
    expect([0, 25, 26, 51, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'ZZ', 'AAA']);
  });

  it('quotes sheet titles, doubling quotes inside', () => {
    expect(quotedSheet("Staff's list")).toBe("'Staff''s list'");
    expect(quotedSheet('A1')).toBe("'A1'");
  });

  it('reads the first row and column of a range', () => {
    expect(rangeStart("'Orders'!B3:F10")).toEqual({ row: 3, column: 1 });
    expect(rangeStart("'It''s!'!$AA$12:AB")).toEqual({ row: 12, column: 26 });
    expect(rangeStart("'Orders'")).toEqual({ row: 1, column: 0 });
    expect(rangeStart("'Orders'!2:2")).toEqual({ row: 2, column: 0 });
  });
});
