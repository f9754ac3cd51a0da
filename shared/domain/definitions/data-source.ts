/** Data source definitions: connection settings per environment (spec 2.3). */
import { z } from 'zod';

export const resourceIdSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'must be 1-63 lower-case letters, digits, - or _, starting with a letter or digit',
  );

const keyValueSchema = z.object({ key: z.string().min(1).max(200), value: z.string().max(8000) });
export type KeyValue = z.infer<typeof keyValueSchema>;
export const keyValueListSchema = z.array(keyValueSchema).max(100);

export const sqlConnectionSchema = z.object({
  host: z.string().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  database: z.string().min(1).max(128),
  user: z.string().min(1).max(128),
  /** Write-only: stored encrypted, never returned, logged or recorded. */
  password: z.string().max(1024).optional(),
  ssl: z.boolean().optional(),
  /** The data source's own time-out; ends a run before the 60 s maximum. */
  statementTimeoutMs: z.number().int().min(100).max(60_000).optional(),
});
export type SqlConnection = z.infer<typeof sqlConnectionSchema>;

export const httpConnectionSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }),
  /** Sent with every request of this data source; values may use {{ vars.x }} and {{ secrets.x }}. */
  headers: keyValueListSchema.optional(),
  timeoutMs: z.number().int().min(100).max(60_000).optional(),
});
export type HttpConnection = z.infer<typeof httpConnectionSchema>;

/** An action run first; its result becomes {{ authToken }} (spec 2.3, 5.3). */
const authActionSchema = z.object({
  actionId: resourceIdSchema,
  /** Dot path into the auth action's JSON result, e.g. "access_token". Omitted: the result must be a string. */
  tokenPath: z.string().max(200).optional(),
  /** Reuse the token this long before running the auth action again. */
  cacheSeconds: z.number().int().min(0).max(86_400).optional(),
});

const environments = <T extends z.ZodType>(connection: T) =>
  z.record(resourceIdSchema, connection).refine((value) => Object.keys(value).length > 0, {
    message: 'needs connection settings for at least one environment',
  });

const common = {
  id: resourceIdSchema,
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
};

export const dataSourceInputSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('postgresql'), environments: environments(sqlConnectionSchema) }),
  z.object({ ...common, kind: z.literal('mysql'), environments: environments(sqlConnectionSchema) }),
  z.object({
    ...common,
    kind: z.literal('http'),
    environments: environments(httpConnectionSchema),
    authAction: authActionSchema.optional(),
  }),
]);
export type DataSourceInput = z.infer<typeof dataSourceInputSchema>;
export type DataSourceKind = DataSourceInput['kind'];
