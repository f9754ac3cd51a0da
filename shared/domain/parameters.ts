/**
 * Validates call arguments against an action's parameter definitions and
 * produces the value bound for each parameter (spec 2.2 binding table: text →
 * string, '' when not entered; number → number, null when not entered).
 */
import { argumentInvalid, type FieldError } from './errors.ts';
import type { ParameterDefinition } from './model.ts';

const pointerTo = (name: string) => `#/arguments/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;

export function bindArguments(
  parameters: readonly ParameterDefinition[],
  args: Record<string, unknown>,
): Record<string, unknown> {
  const errors: FieldError[] = [];
  const bound: Record<string, unknown> = {};
  const known = new Set(parameters.map((p) => p.name));

  for (const name of Object.keys(args)) {
    if (!known.has(name)) {
      errors.push({ pointer: pointerTo(name), detail: `'${name}' is not a parameter of this action.` });
    }
  }

  for (const parameter of parameters) {
    const raw = args[parameter.name];
    const entered = raw !== undefined && raw !== null && raw !== '';
    const value = entered ? raw : parameter.default;
    const fail = (detail: string) => errors.push({ pointer: pointerTo(parameter.name), detail });

    if (value === undefined || value === null || value === '') {
      if (parameter.required) fail(`'${parameter.name}' is required.`);
      bound[parameter.name] = parameter.kind === 'text' ? '' : null;
      continue;
    }
    switch (parameter.kind) {
      case 'text':
        if (typeof value !== 'string') fail(`'${parameter.name}' must be a string.`);
        else bound[parameter.name] = value;
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value))
          fail(`'${parameter.name}' must be a finite number.`);
        else bound[parameter.name] = value;
        break;
    }
  }

  if (errors.length > 0) throw argumentInvalid(errors);
  return bound;
}
