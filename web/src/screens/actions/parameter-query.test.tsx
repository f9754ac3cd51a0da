import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../api/types.ts';
import { draftsFromQuery } from './parameter-values.ts';

describe('draftsFromQuery', () => {
  it('fills the drafts a link names and keeps the defaults of the rest', () => {
    const parameters = [
      { name: 'order_id', kind: 'number', default: 1 },
      { name: 'note', kind: 'text', default: 'none' },
      { name: 'urgent', kind: 'boolean' },
      { name: 'tags', kind: 'array', itemKind: 'text' },
    ] as Parameter[];
    const drafts = draftsFromQuery(
      parameters,
      new URLSearchParams('order_id=42&urgent=true&tags=["a","b"]&other=x'),
    );
    expect(drafts).toEqual({
      order_id: { kind: 'text', value: '42' },
      note: { kind: 'text', value: 'none' },
      urgent: { kind: 'boolean', value: true },
      tags: { kind: 'list', items: ['a', 'b'] },
    });
  });
});
