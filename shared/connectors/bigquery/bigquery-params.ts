/**
 * Positional query parameters with explicit types (spec 2.2 binding table), as the library's
 * `params` and `types`: a null still needs its type, so the type comes from the parameter's kind
 * where the value cannot tell. Values go as text, so no digit of a number changes on the way.
 */
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';

export type ParameterType = 'STRING' | 'INT64' | 'FLOAT64' | 'BOOL';

export function queryParameter(
  value: unknown,
  parameter: ParameterDefinition | undefined,
): { value: string | null; type: ParameterType } {
  const type = parameterType(value, parameter);
  if (value === null || value === undefined) return { value: null, type };
  const text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return { value: text, type };
}

function parameterType(value: unknown, parameter: ParameterDefinition | undefined): ParameterType {
  if (typeof value === 'boolean') return 'BOOL';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'INT64' : 'FLOAT64';
  if (value !== null && value !== undefined) return 'STRING';
  // NULL: the kind says what it would have been.
  switch (parameter?.kind) {
    case 'number':
      return parameter.integer ? 'INT64' : 'FLOAT64';
    case 'date':
      return parameter.useAsUnixtime ? 'INT64' : 'STRING';
    case 'boolean':
      return parameter.format === 'string' ? 'STRING' : 'BOOL';
    case 'array':
      return parameter.itemKind === 'number' ? 'FLOAT64' : 'STRING';
    default:
      return 'STRING';
  }
}

/** `ids[2]` (an item of an array in SQL format) → `ids`. */
export const parameterNameOf = (placeholder: string) => placeholder.replace(/\[\d+\]$/, '');
