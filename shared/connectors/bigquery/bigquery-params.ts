/**
 * Positional query parameters with explicit types (spec 2.2 binding table): a null still needs
 * its type, so the type comes from the parameter's kind where the value cannot tell.
 */
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';

export interface QueryParameter {
  parameterType: { type: 'STRING' | 'INT64' | 'FLOAT64' | 'BOOL' };
  /** Without `value` the parameter is NULL. */
  parameterValue: { value?: string };
}

export function queryParameter(value: unknown, parameter: ParameterDefinition | undefined): QueryParameter {
  const type = parameterType(value, parameter);
  if (value === null || value === undefined) return { parameterType: { type }, parameterValue: {} };
  const text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return { parameterType: { type }, parameterValue: { value: text } };
}

function parameterType(
  value: unknown,
  parameter: ParameterDefinition | undefined,
): QueryParameter['parameterType']['type'] {
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
