/**
 * Both sides of a diff in one form: the API's input shape with its defaults applied, without the
 * fields only the service sets, and without write-only values (which cannot be compared).
 */
import type { z } from 'zod';
import { connectors } from '../../shared/connectors/index.ts';
import { actionInputSchema, dataSourceInputSchema } from '../../shared/connectors/schemas.ts';
import { masterDataInputSchema } from '../../shared/domain/definitions/master-data.ts';
import { viewInputSchema } from '../../shared/domain/definitions/view.ts';

/** Set by the service on save; never written in the file. */
export const serverOnlyFields = ['projectId', 'version', 'createdAt', 'updatedAt', 'managedBy'] as const;
/** Per secret field (e.g. `password`): `hasPassword` is what GET shows; the others are how the file and PUT carry it. */
const writeOnlyConnectionFields = connectors.flatMap((c) =>
  c.secretFields.flatMap((f) => [presenceField(f), f, `${f}FromEnv`]),
);

export const comparableAction = (action: unknown) =>
  comparable(actionInputSchema, withoutServerFields(action));
/** Views: the input fields only (the compiled module of a code view and `updatedBy` are the service's). */
export const comparableView = (view: unknown) => comparable(viewInputSchema, withoutServerFields(view));
export const comparableMasterData = (list: unknown) =>
  comparable(masterDataInputSchema, withoutServerFields(list));

export function comparableDataSource(dataSource: unknown): unknown {
  const visible = withoutServerFields(dataSource);
  if (!isRecord(visible) || !isRecord(visible.environments))
    return comparable(dataSourceInputSchema, visible);
  const environments = Object.fromEntries(
    Object.entries(visible.environments).map(([id, connection]) => [
      id,
      omit(connection, writeOnlyConnectionFields),
    ]),
  );
  return comparable(dataSourceInputSchema, { ...visible, environments });
}

/**
 * Parsed with the API's schema, so defaults exist on both sides (`headers: []`); what the schema does
 * not accept (a definition saved under older rules) is compared as it is. JSON drops `undefined`.
 */
function comparable(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  return JSON.parse(JSON.stringify(parsed.success ? parsed.data : value));
}

const withoutServerFields = (value: unknown) => omit(value, serverOnlyFields);

function omit(value: unknown, keys: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

/** How GET shows whether a secret field is set: `password` → `hasPassword`. */
export function presenceField(field: string): string {
  return `has${field[0]!.toUpperCase()}${field.slice(1)}`;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
