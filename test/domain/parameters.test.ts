import { describe, expect, it } from 'vitest';
import { DoguError } from '../../shared/domain/errors.ts';
import type { ParameterDefinition } from '../../shared/domain/model.ts';
import { bindArguments } from '../../shared/domain/parameters.ts';

const parameters: ParameterDefinition[] = [
  { name: 'status', kind: 'text' },
  { name: 'limit', kind: 'number' },
];

function errorsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DoguError);
    expect((error as DoguError).code).toBe('argument_invalid');
    return (error as DoguError).errors;
  }
  throw new Error('expected bindArguments to refuse the arguments');
}

describe('bindArguments (spec 2.2 binding table)', () => {
  it.each([
    ['text entered', { status: 'paid' }, { status: 'paid', limit: null }],
    ['text not entered → empty string', {}, { status: '', limit: null }],
    ['text given as null → empty string', { status: null }, { status: '', limit: null }],
    ['number entered', { limit: 5 }, { status: '', limit: 5 }],
    ['number zero is a value', { limit: 0 }, { status: '', limit: 0 }],
    ['number not entered → null', { status: 'x' }, { status: 'x', limit: null }],
  ])('%s', (_name, args, expected) => {
    expect(bindArguments(parameters, args)).toEqual(expected);
  });

  it('uses defaults when an argument is not entered', () => {
    const withDefaults: ParameterDefinition[] = [
      { name: 'status', kind: 'text', default: 'shipped' },
      { name: 'limit', kind: 'number', default: 20 },
    ];
    expect(bindArguments(withDefaults, {})).toEqual({ status: 'shipped', limit: 20 });
    expect(bindArguments(withDefaults, { limit: 3 })).toEqual({ status: 'shipped', limit: 3 });
  });

  it('names a missing required argument', () => {
    const errors = errorsOf(() => bindArguments([{ name: 'status', kind: 'text', required: true }], {}));
    expect(errors).toEqual([{ pointer: '#/arguments/status', detail: "'status' is required." }]);
  });

  it('refuses an empty string for a required text', () => {
    const errors = errorsOf(() =>
      bindArguments([{ name: 'status', kind: 'text', required: true }], { status: '' }),
    );
    expect(errors?.[0]?.pointer).toBe('#/arguments/status');
  });

  it.each([
    ['a string', '5'],
    ['a boolean', true],
    ['infinity', Number.POSITIVE_INFINITY],
    ['an object', { n: 1 }],
  ])('refuses %s for a number', (_name, value) => {
    const errors = errorsOf(() => bindArguments(parameters, { limit: value }));
    expect(errors).toEqual([{ pointer: '#/arguments/limit', detail: "'limit' must be a finite number." }]);
  });

  it('refuses a non-string for a text', () => {
    const errors = errorsOf(() => bindArguments(parameters, { status: 42 }));
    expect(errors).toEqual([{ pointer: '#/arguments/status', detail: "'status' must be a string." }]);
  });

  it('refuses arguments that are not parameters, escaping the pointer', () => {
    const errors = errorsOf(() => bindArguments(parameters, { 'a/b~c': 1 }));
    expect(errors).toEqual([
      { pointer: '#/arguments/a~1b~0c', detail: "'a/b~c' is not a parameter of this action." },
    ]);
  });

  it('reports every invalid argument at once', () => {
    const errors = errorsOf(() => bindArguments(parameters, { status: 1, limit: 'x', extra: true }));
    expect(errors?.map((e) => e.pointer).sort()).toEqual([
      '#/arguments/extra',
      '#/arguments/limit',
      '#/arguments/status',
    ]);
  });
});
