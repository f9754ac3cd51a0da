/**
 * The request schemas of data sources and actions, assembled from the registry where requests are
 * parsed (handlers, OpenAPI, CLI): the domain defines what kinds share, each kind its own part.
 */
import * as z from 'zod';
import { type ActionInput, actionCommonShape } from '../domain/definitions/action.ts';
import {
  authActionSchema,
  type DataSourceInput,
  dataSourceCommonShape,
  environmentsOf,
  resourceIdSchema,
} from '../domain/definitions/data-source.ts';
import type { ConnectorDefinition } from './connector.ts';
import { connectors } from './index.ts';

/** `postgresql` → `Postgresql`, `google-sheets` → `GoogleSheets`: component names in OpenAPI. */
const pascal = (kind: string) =>
  kind.replace(/(^|[-_])([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase());

/**
 * Every kind's connection takes `via`: the bridge this environment goes through (docs/bridge.md).
 * Added here, once, so no kind's schema changes for it.
 */
const viaShape = {
  via: resourceIdSchema.optional().meta({
    description:
      "A bridge registered in the project's settings that this environment's connections go through",
  }),
};
const noVia = (c: ConnectorDefinition) => ({
  via: z
    .never({ error: `${c.label.en} data sources call cloud APIs and cannot go through a bridge` })
    .optional(),
});
export const connectionOf = (c: ConnectorDefinition): z.ZodObject =>
  c.connection.extend(c.bridgeable ? viaShape : noVia(c));

const dataSourceMember = (c: ConnectorDefinition) =>
  z
    .object({
      ...dataSourceCommonShape,
      kind: z.literal(c.kind),
      environments: environmentsOf(connectionOf(c)),
      ...(c.form.authAction ? { authAction: authActionSchema.optional() } : {}),
    })
    .meta({ id: `${pascal(c.kind)}DataSourceInput`, description: `A ${c.label.en} data source` });

const [firstSource, ...otherSources] = connectors.map(dataSourceMember);
export const dataSourceInputSchema = z.discriminatedUnion('kind', [
  firstSource!,
  ...otherSources,
]) as unknown as z.ZodDiscriminatedUnion<z.ZodObject[]> & z.ZodType<DataSourceInput>;

/** One member per action kind; data-source kinds that share an action kind share its schema. */
const actionKinds = [...new Map(connectors.map((c) => [c.actionKind, c])).values()];
const [firstAction, ...otherActions] = actionKinds.map((c) =>
  z.object({ ...actionCommonShape, ...c.action }).meta({ id: `${pascal(c.actionKind)}ActionInput` }),
);
export const actionInputSchema = z.discriminatedUnion('kind', [
  firstAction!,
  ...otherActions,
]) as unknown as z.ZodDiscriminatedUnion<z.ZodObject[]> & z.ZodType<ActionInput>;

/** One environment's connection schema of a kind, e.g. for config files. */
export const connectionSchemaOf = (kind: string) => {
  const found = connectors.find((c) => c.kind === kind);
  return found ? connectionOf(found) : undefined;
};

/**
 * Actions as the API answers them: each kind's input schema with `stored` members added (the
 * project, version and times), named `<Kind>Action` in the OpenAPI document.
 */
export const storedActionSchemaWith = (stored: z.ZodRawShape) => {
  const [first, ...others] = actionKinds.map((c) =>
    z.object({ ...actionCommonShape, ...c.action, ...stored }).meta({ id: `${pascal(c.actionKind)}Action` }),
  );
  return z.discriminatedUnion('kind', [first!, ...others]);
};
