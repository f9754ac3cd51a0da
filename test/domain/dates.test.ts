import { describe, expect, it } from 'vitest';
import { parseIsoDateTime, unixSecondsToTime } from '../../shared/domain/dates.ts';

const iso = (text: string) => {
  const parsed = parseIsoDateTime(text);
  return typeof parsed === 'string' ? parsed : new Date(parsed.time).toISOString();
};

describe('parseIsoDateTime', () => {
  it.each([
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['2026-11-22T09:30', '2026-11-22T09:30:00.000Z'],
    ['2026-11-22 09:30:15.5', '2026-11-22T09:30:15.500Z'],
    ['2026-11-22T09:00:00+09:00', '2026-11-22T00:00:00.000Z'],
    ['2026-11-22T09:00:00-0130', '2026-11-22T10:30:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as %s', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it.each([
    ['2026-02-30', 'no-such-date'],
    ['1900-02-29', 'no-such-date'],
    ['2026-04-31', 'no-such-date'],
    ['2026-13-01', 'no-such-date'],
    ['0000-01-01', 'no-such-date'],
    ['2026-11-22T24:00', 'no-such-date'],
    ['2026-11-22T23:60', 'no-such-date'],
    ['2026-11-22T23:59:60Z', 'no-such-date'],
    ['2026-11-22T09:00+24:00', 'no-such-date'],
    ['0001-01-01T00:00:00+01:00', 'out-of-range'],
    ['next tuesday', 'format'],
    ['2026-1-5', 'format'],
    ['+275760-09-13', 'format'],
    ['2026-11-22T9', 'format'],
  ])('refuses %s (%s)', (text, problem) => {
    expect(parseIsoDateTime(text)).toBe(problem);
  });

  it('tells whether a time and a zone were written', () => {
    expect(parseIsoDateTime('2026-11-22')).toMatchObject({ hasTime: false, hasZone: false });
    expect(parseIsoDateTime('2026-11-22T09:00')).toMatchObject({ hasTime: true, hasZone: false });
    expect(parseIsoDateTime('2026-11-22T09:00Z')).toMatchObject({ hasTime: true, hasZone: true });
  });
});

describe('unixSecondsToTime', () => {
  it('keeps the years 0001–9999 and refuses the rest', () => {
    expect(unixSecondsToTime(0)).toBe(0);
    expect(unixSecondsToTime(253_402_300_799)).toBe(253_402_300_799_000);
    expect(unixSecondsToTime(-62_135_596_800)).toBe(-62_135_596_800_000);
    for (const seconds of [253_402_300_800, -62_135_596_801, 1e20, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(unixSecondsToTime(seconds)).toBe('out-of-range');
    }
  });
});
