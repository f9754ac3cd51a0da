/** The config file's JSON Schema, generated from the zod schema so it can never say something else. */
import { z } from 'zod';
import { httpBodySchema } from '../../shared/connectors/http/definition.ts';
import { connectors } from '../../shared/connectors/index.ts';
import { actionInputSchema } from '../../shared/connectors/schemas.ts';
import { keyValueListSchema } from '../../shared/domain/definitions/data-source.ts';
import { actionGroupInputSchema } from '../../shared/domain/definitions/governance.ts';
import { masterDataInputSchema } from '../../shared/domain/definitions/master-data.ts';
import { parameterSchema } from '../../shared/domain/definitions/parameter.ts';
import { scheduleSchema } from '../../shared/domain/scheduling/schedule.ts';
import {
  configFileSchema,
  connectionInFileSchema,
  cronJobInFileSchema,
  dataSourceInFileSchema,
  memberInFileSchema,
  secretReferenceSchema,
  userGroupInFileSchema,
} from './schema.ts';

/** `bigquery` → `Bigquery`, `google-sheets` → `GoogleSheets`. */
const capitalized = (name: string) =>
  name.replace(/(^|[-_])([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase());
function connectionDefinitionName(connector: (typeof connectors)[number]): string {
  const sharing = connectors.filter((c) => c.connection === connector.connection);
  return `${capitalized(sharing.length > 1 ? connector.actionKind : connector.kind)}Connection`;
}

/** Definitions under `$defs` with readable names; everything else is written inline. */
const definitionNames = new Map<z.core.$ZodType, string>([
  [dataSourceInFileSchema, 'DataSource'],
  // One definition per kind's connection: kinds sharing a schema share it under their action kind's
  // name (SqlConnection for PostgreSQL and MySQL); a kind with a schema of its own is named after
  // itself (HttpConnection, AthenaConnection …).
  ...connectors.map((c): [z.core.$ZodType, string] => [
    connectionInFileSchema(c),
    connectionDefinitionName(c),
  ]),
  [actionInputSchema, 'Action'],
  [parameterSchema, 'Parameter'],
  [httpBodySchema, 'HttpBody'],
  [keyValueListSchema, 'KeyValueList'],
  [secretReferenceSchema, 'SecretReference'],
  [masterDataInputSchema, 'MasterDataList'],
  [memberInFileSchema, 'Member'],
  [userGroupInFileSchema, 'UserGroup'],
  [actionGroupInputSchema, 'ActionGroup'],
  [cronJobInFileSchema, 'CronJob'],
  [scheduleSchema, 'Schedule'],
]);

/**
 * The global metadata (descriptions) plus an id for the named definitions. The shared schemas get
 * their ids only here, so the API's OpenAPI document is not affected.
 */
class MetadataWithDefinitionNames extends z.core.$ZodRegistry<Record<string, unknown>> {
  override get<S extends z.core.$ZodType>(schema: S) {
    const id = definitionNames.get(schema);
    const meta = z.globalRegistry.get(schema);
    return id === undefined ? meta : { ...meta, id };
  }
}

export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configFileSchema, {
    target: 'draft-2020-12',
    // What people write: fields with defaults are optional.
    io: 'input',
    metadata: new MetadataWithDefinitionNames(),
    override: ({ zodSchema, jsonSchema }) => {
      // `dogu apply` refuses unknown fields (a typo would otherwise be dropped silently); say so to editors.
      if (zodSchema._zod.def.type === 'object' && jsonSchema.additionalProperties === undefined) {
        jsonSchema.additionalProperties = false;
      }
    },
  });
}

/** The text of docs/dogu-config.schema.json and of `dogu schema`. */
export const configJsonSchemaText = () => `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
