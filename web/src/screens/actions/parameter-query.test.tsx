import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../api/types.ts';
import { draftsFromQuery, toArguments } from './parameter-values.ts';

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

describe('exact numbers (decision 0025, issue 24 item 7)', () => {
  it('the console refuses a JSON argument or number it would round, and sends exact ones', () => {
    const parameters = [
      { name: 'doc', kind: 'json' },
      { name: 'amount', kind: 'number' },
    ] as Parameter[];
    const typed = (doc: string, amount: string) =>
      toArguments(parameters, { doc: { kind: 'text', value: doc }, amount: { kind: 'text', value: amount } });
    expect(typed('{"id":12345678901234567}', '0.12345678901234567891').errors).toEqual({
      doc: { key: 'param.jsonNotExact', vars: { value: '12345678901234567' } },
      amount: { key: 'param.notExact', vars: { value: '0.12345678901234567891' } },
    });
    expect(typed('{"id":"12345678901234567"}', '0.1')).toEqual({
      arguments: { doc: { id: '12345678901234567' }, amount: 0.1 },
      errors: {},
    });
  });
});
