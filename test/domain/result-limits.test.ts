/** Size rules apply to a script's value as to rows (issue 24): counted, kept whole or left out, said. */
import { describe, expect, it } from 'vitest';
import { limitResults } from '../../shared/domain/result-limits.ts';
import { resultOfValue } from '../../shared/domain/result-value.ts';

describe('limitResults with a value', () => {
  it('leaves out a value over the budget and cuts its table, saying both', () => {
    const [cut] = limitResults([resultOfValue('Script', 'x'.repeat(3_000), [])], 2_000) as [
      ReturnType<typeof resultOfValue>,
    ];
    expect(cut.value).toBeUndefined();
    expect(cut.rows).toEqual([]);
    expect(cut.truncated).toBe(true);
    expect(cut.messages[0]).toMatch(/^The value \(0 MB\) was left out: an execution returns at most 0 MB/);
    expect(cut.messages[1]).toContain('cut at 0 of 1 rows');
  });

  it('counts the value against the budget before the rows', () => {
    const rows = Array.from({ length: 10 }, (_, n) => ({ n, text: 'y'.repeat(90) }));
    const [cut] = limitResults([resultOfValue('Script', rows, [])], 1_500) as [
      ReturnType<typeof resultOfValue>,
    ];
    expect(cut.value).toEqual(rows);
    expect(cut.rows.length).toBeGreaterThan(0);
    expect(cut.rows.length).toBeLessThan(10);
    expect(cut.messages.at(-1)).toContain('the value included');
  });

  it('leaves a result within the budget as it was', () => {
    const whole = resultOfValue('Script', { ok: true }, []);
    expect(limitResults([whole])[0]).toBe(whole);
  });
});
