/** Action definitions: SQL (spec 2.2) and HTTP API (spec 2.5) actions with their parameters. */
import { z } from 'zod';
import { roles } from '../model.ts';
import { keyValueListSchema, resourceIdSchema } from './data-source.ts';
import { parameterSchema } from './parameter.ts';

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'PURGE'] as const;

/**
 * Request bodies per request type. Every text may hold {{ references }}:
 * - json: a JSON text; a reference standing for a whole value becomes that value as JSON, one inside a string is escaped into it.
 * - raw: text sent as it is, with `contentType` (default text/plain).
 * - form-data / x-www-form-urlencoded: fields; a form-data field may carry a file parameter.
 * - graphql: a query, optional operation name and variables (a JSON text like json).
 */
export const httpBodySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('json'), json: z.string().max(100_000) }),
  z.object({
    type: z.literal('raw'),
    raw: z.string().max(100_000),
    contentType: z.string().max(200).optional(),
  }),
  z.object({ type: z.literal('form-data'), fields: keyValueListSchema }),
  z.object({ type: z.literal('x-www-form-urlencoded'), fields: keyValueListSchema }),
  z.object({
    type: z.literal('graphql'),
    query: z.string().min(1).max(100_000),
    variables: z.string().max(100_000).optional(),
    operationName: z.string().max(200).optional(),
  }),
]);
export type HttpBody = z.infer<typeof httpBodySchema>;

/**
 * Who may run the action (spec 2.1). `everyone`: every project member with the execute right.
 * `restricted`: only the listed users, roles and user groups. `javascript_action`: only when
 * called from that JavaScript action (the call path arrives with JavaScript actions).
 */
export const permissionSchema = z.object({
  mode: z.enum(['everyone', 'restricted', 'javascript_action']),
  users: z.array(z.string().min(1).max(100)).max(500).optional(),
  roles: z.array(z.enum(roles)).optional(),
  groups: z.array(resourceIdSchema).max(100).optional(),
  javascriptActionId: resourceIdSchema.optional(),
});
export type ActionPermission = z.infer<typeof permissionSchema>;

/** A run needs another user's approval; a request expires unanswered after `expiresInMinutes`. */
export const reviewSchema = z.object({
  required: z.boolean(),
  expiresInMinutes: z
    .number()
    .int()
    .min(5)
    .max(30 * 24 * 60)
    .optional(),
});

const common = {
  id: resourceIdSchema,
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  dataSourceId: resourceIdSchema,
  parameters: z.array(parameterSchema).max(100).default([]),
  permission: permissionSchema.optional(),
  review: reviewSchema.optional(),
};

export const sqlStatementSchema = z.object({
  title: z.string().min(1).max(200),
  sql: z.string().min(1).max(100_000),
});

export const actionInputSchema = z.discriminatedUnion('kind', [
  z.object({
    ...common,
    kind: z.literal('sql'),
    statements: z.array(sqlStatementSchema).min(1).max(20),
    /** JSON columns become objects, arrays or scalars instead of text. */
    parseJsonValues: z.boolean().optional(),
  }),
  z.object({
    ...common,
    kind: z.literal('http'),
    method: z.enum(httpMethods),
    /** Appended to the data source URL; {{ }} in path segments is URL-encoded; a query string here is not sent. */
    path: z.string().max(2000).default(''),
    headers: keyValueListSchema.default([]),
    query: keyValueListSchema.default([]),
    body: httpBodySchema.default({ type: 'none' }),
  }),
]);
export type ActionInput = z.infer<typeof actionInputSchema>;
export type SqlActionInput = Extract<ActionInput, { kind: 'sql' }>;
export type HttpActionInput = Extract<ActionInput, { kind: 'http' }>;
