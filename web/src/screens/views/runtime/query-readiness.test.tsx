import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../../api/types.ts';
import { evaluate } from '../expressions/evaluate.ts';
import { isEmptyArgument, isNotThereYet, missingArguments } from './query-readiness.ts';

const parameters = [
  { name: 'order_id', kind: 'number', required: true },
  { name: 'limit', kind: 'number', required: true, default: 20 },
  { name: 'note', kind: 'text' },
  { name: 'flag', kind: 'boolean', required: true },
] as Parameter[];

describe('query readiness', () => {
  it('names the required arguments without a default that are empty; 0 and false are values', () => {
    expect(missingArguments(parameters, {})).toEqual(['order_id', 'flag']);
    expect(missingArguments(parameters, { order_id: '  ', flag: null })).toEqual(['order_id', 'flag']);
    expect(missingArguments(parameters, { order_id: 0, flag: false })).toEqual([]);
    expect(isEmptyArgument([])).toBe(false);
  });

  it('tells a read through an empty value from an unknown name', () => {
    const read = (expression: string) => {
      try {
        evaluate(expression, { components: { t1: { value: undefined } } });
      } catch (error) {
        return error;
      }
    };
    expect(isNotThereYet(read('components.t1.value.id'))).toBe(true);
    expect(isNotThereYet(read('nothing.here'))).toBe(false);
    expect(read('components.t1.value?.id')).toBeUndefined();
  });
});
