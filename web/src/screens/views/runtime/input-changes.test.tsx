/** Which queries an input's change runs again: those whose arguments name the input literally. */
import { describe, expect, it } from 'vitest';
import { componentsReadBy, queriesReading } from './input-changes.ts';

describe('queries reading an input', () => {
  it('finds components named in arguments, templates included, not shadowed ones', () => {
    expect([
      ...componentsReadBy({
        arguments: {
          q: 'components.search1.value',
          s: "{{ components['status1'].value }}-x",
          n: 'queries.q1.rows.map((components) => components.fake)',
          broken: 'components.(',
        },
      }),
    ]).toEqual(['search1', 'status1']);
  });

  it('lists only the queries that read one of the changed ids', () => {
    const queries: { id: string; arguments: Record<string, string> }[] = [
      { id: 'a', arguments: { q: 'components.search1.value' } },
      { id: 'b', arguments: { q: 'components.other.value' } },
      { id: 'c', arguments: {} },
    ];
    expect(queriesReading(queries, new Set(['search1']))).toEqual(['a']);
    expect(queriesReading(queries, new Set(['search1', 'other']))).toEqual(['a', 'b']);
    expect(queriesReading(queries, new Set())).toEqual([]);
  });
});
