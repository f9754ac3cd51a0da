/**
 * Parameter definitions: the ten kinds of spec 2.1 with their options. The
 * schemas validate API input, generate OpenAPI and the config JSON Schema.
 */
import * as z from 'zod';

export const nameSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
    'must start with a letter or _, then letters, digits or _ (at most 64)',
  );

const choiceSchema = z
  .object({
    value: z.union([z.string(), z.number(), z.boolean()]),
    label: z.string().min(1),
  })
  .meta({ id: 'Choice' });

const common = {
  name: nameSchema,
  label: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  required: z.boolean().optional(),
};

/** Values to pick from: inline, or a project's master data list (id). Labels show; values bind. */
const choices = {
  choices: z.array(choiceSchema).min(1).optional(),
  masterData: nameSchema.optional(),
};

const identifierPattern = '^[A-Za-z_][A-Za-z0-9_$]*(\\.[A-Za-z_][A-Za-z0-9_$]*)?$';

export const textParameterSchema = z.object({
  ...common,
  ...choices,
  kind: z.literal('text'),
  default: z.string().optional(),
  multiline: z.boolean().optional(),
  /** A regular expression (RE2 syntax, matched in linear time: text-pattern.ts) the whole value must match. */
  pattern: z.string().optional(),
  /**
   * A table or column name: validated against a strict pattern and inserted quoted by the
   * driver's rules (never as a placeholder), so no raw SQL is needed for dynamic names.
   */
  identifier: z.boolean().optional(),
});

export const numberParameterSchema = z.object({
  ...common,
  ...choices,
  kind: z.literal('number'),
  default: z.number().optional(),
  integer: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});

export const booleanParameterSchema = z.object({
  ...common,
  kind: z.literal('boolean'),
  default: z.boolean().optional(),
  /** 'string' binds "true"/"false" instead of a boolean. */
  format: z.enum(['boolean', 'string']).optional(),
});

export const dateParameterSchema = z.object({
  ...common,
  kind: z.literal('date'),
  default: z.string().optional(),
  /** Binds Unix time in seconds (a number) instead of the date text. */
  useAsUnixtime: z.boolean().optional(),
  withTime: z.boolean().optional(),
});

const itemKind = z.enum(['text', 'number']);
const delimited = {
  /** 'sql': a parenthesised placeholder list (SQL actions only); 'json': a JSON array text; 'delimiter': quoted items joined. */
  format: z.enum(['sql', 'json', 'delimiter']),
  delimiter: z.string().min(1).max(8).optional(),
};

export const arrayParameterSchema = z.object({
  ...common,
  ...choices,
  kind: z.literal('array'),
  itemKind,
  ...delimited,
  default: z.array(z.union([z.string(), z.number()])).optional(),
  maxItems: z.number().int().positive().max(10_000).optional(),
});

export const tupleParameterSchema = z.object({
  ...common,
  kind: z.literal('tuple'),
  items: z
    .array(z.object({ kind: itemKind, label: z.string().optional() }))
    .min(1)
    .max(50),
  format: z.enum(['json', 'delimiter']),
  delimiter: z.string().min(1).max(8).optional(),
  default: z.array(z.union([z.string(), z.number()])).optional(),
});

export const sqlParameterSchema = z.object({
  ...common,
  kind: z.literal('sql'),
  default: z.string().optional(),
});
export const jsonParameterSchema = z.object({
  ...common,
  kind: z.literal('json'),
  default: z.unknown().optional(),
});
export const fileParameterSchema = z.object({
  ...common,
  kind: z.literal('file'),
  /** Accepted content types, e.g. ["text/csv", "image/*"]. */
  accept: z.array(z.string()).optional(),
  maxBytes: z
    .number()
    .int()
    .positive()
    .max(5 * 1024 * 1024)
    .optional(),
});

export const systemValues = [
  'currentUser.id',
  'currentUser.name',
  'currentUser.email',
  'executionId',
  'now',
] as const;
export const systemParameterSchema = z.object({
  ...common,
  kind: z.literal('system'),
  value: z.enum(systemValues),
});

export const parameterSchema = z
  .discriminatedUnion('kind', [
    textParameterSchema,
    numberParameterSchema,
    booleanParameterSchema,
    dateParameterSchema,
    arrayParameterSchema,
    tupleParameterSchema,
    sqlParameterSchema,
    jsonParameterSchema,
    fileParameterSchema,
    systemParameterSchema,
  ])
  .meta({ id: 'Parameter', description: 'A typed {{ parameter }} of an action' });

export type ParameterDefinition = z.infer<typeof parameterSchema>;
export type ParameterKind = ParameterDefinition['kind'];
export const parameterKinds = parameterSchema.options.map((o) => o.shape.kind.value) as ParameterKind[];

/** Spec 2.2: these kinds cannot be used in SQL actions; refused when the action is saved. */
export const kindsRefusedInSql: readonly ParameterKind[] = ['json', 'file', 'system'];

export const identifierRegExp = new RegExp(identifierPattern);

/** A file argument travels in JSON as base64. */
export interface FileValue {
  name: string;
  contentType: string;
  size: number;
  contentBase64: string;
}
