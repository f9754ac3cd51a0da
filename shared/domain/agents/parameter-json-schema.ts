/**
 * An action's parameters as the JSON Schema of an MCP tool's input: what an agent reads to call it.
 * Dogu still validates every argument itself when the tool runs (parameters.ts); this only tells.
 */
import type { ParameterDefinition } from '../definitions/parameter.ts';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
}

export function inputSchemaOf(parameters: readonly ParameterDefinition[] = []): JsonSchemaObject {
  const properties: JsonSchemaObject['properties'] = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    // System values (currentUser, now) are filled by Dogu, never by the caller.
    if (parameter.kind === 'system') continue;
    properties[parameter.name] = {
      ...propertyOf(parameter),
      ...(parameter.label || parameter.description
        ? { description: [parameter.label, parameter.description].filter(Boolean).join(': ') }
        : {}),
      ...('default' in parameter && parameter.default !== undefined ? { default: parameter.default } : {}),
    };
    if (parameter.required && !('default' in parameter && parameter.default !== undefined)) {
      required.push(parameter.name);
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

const choiceValues = (p: { choices?: { value: string | number | boolean }[] }) =>
  p.choices ? { enum: p.choices.map((c) => c.value) } : {};

function propertyOf(parameter: ParameterDefinition): Record<string, unknown> {
  switch (parameter.kind) {
    case 'text':
      return {
        type: 'string',
        ...choiceValues(parameter),
        ...(parameter.pattern ? { pattern: parameter.pattern } : {}),
      };
    case 'number':
      return {
        type: parameter.integer ? 'integer' : 'number',
        ...choiceValues(parameter),
        ...(parameter.min !== undefined ? { minimum: parameter.min } : {}),
        ...(parameter.max !== undefined ? { maximum: parameter.max } : {}),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: parameter.withTime ? 'date-time' : 'date' };
    case 'array': {
      const items = {
        type: parameter.itemKind === 'number' ? 'number' : 'string',
        ...choiceValues(parameter),
      };
      return {
        type: 'array',
        items,
        ...(parameter.maxItems !== undefined ? { maxItems: parameter.maxItems } : {}),
      };
    }
    case 'tuple':
      return {
        type: 'array',
        prefixItems: parameter.items.map((item) => ({
          type: item.kind === 'number' ? 'number' : 'string',
          ...(item.label ? { description: item.label } : {}),
        })),
        minItems: parameter.items.length,
        maxItems: parameter.items.length,
      };
    case 'sql':
      return { type: 'string', description: 'a raw SQL fragment' };
    case 'json':
      return {};
    case 'file':
      return {
        type: 'object',
        description: 'a file: {"name", "contentType", "contentBase64"}',
        properties: {
          name: { type: 'string' },
          contentType: { type: 'string' },
          contentBase64: { type: 'string' },
        },
      };
    default:
      return {};
  }
}
