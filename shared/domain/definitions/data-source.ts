/** What every data source kind shares (spec 2.3); each kind's connection schema lives in its connector. */
import * as z from 'zod';

export const resourceIdSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'must be 1-63 lower-case letters, digits, - or _, starting with a letter or digit',
  );

const keyValueSchema = z.object({ key: z.string().min(1).max(200), value: z.string().max(8000) });
export type KeyValue = z.infer<typeof keyValueSchema>;
export const keyValueListSchema = z.array(keyValueSchema).max(100);

/** An action run first; its result becomes {{ authToken }} (spec 2.3, 5.3). */
export const authActionSchema = z.object({
  actionId: resourceIdSchema,
  /** Dot path into the auth action's JSON result, e.g. "access_token". Omitted: the result must be a string. */
  tokenPath: z.string().max(200).optional(),
  /** Reuse the token this long before running the auth action again. */
  cacheSeconds: z.number().int().min(0).max(86_400).optional(),
});

export const environmentsOf = <T extends z.ZodType>(connection: T) =>
  z.record(resourceIdSchema, connection).refine((value) => Object.keys(value).length > 0, {
    message: 'needs connection settings for at least one environment',
  });

export const dataSourceCommonShape = {
  id: resourceIdSchema,
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
};

export type AuthAction = z.infer<typeof authActionSchema>;

/**
 * A data source as the domain sees it: the common fields, its kind, and per environment the
 * kind's connection settings. Each kind's own schema lives in its connector folder (shared/connectors/).
 */
export interface DataSourceInput {
  id: string;
  name: string;
  description?: string;
  kind: string;
  environments: Record<string, Record<string, unknown>>;
  /** Kinds that allow it: an action run first whose result becomes {{ authToken }} (spec 2.3, 5.3). */
  authAction?: AuthAction;
}
export type DataSourceKind = string;
