import * as z from 'zod';
import { connectionSchemaOf } from '../shared/connectors/schemas.ts';
import { DoguError, type FieldError } from '../shared/domain/errors.ts';
import * as dataSources from '../shared/domain/manage/data-sources.ts';
import { fieldSentence, readableIssues } from '../shared/domain/readable-issues.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose } from '../shared/runtime/services.ts';

const draftShape = z
  .object({ kind: z.string().min(1), connection: z.record(z.string(), z.unknown()) })
  .strict();

/** `{kind, connection}`: one environment's settings, checked as a save checks them (422 naming the field). */
function parseConnectionDraft(body: Record<string, unknown>): dataSources.ConnectionDraft {
  const shape = draftShape.safeParse(body);
  if (!shape.success) throw refused(readableIssues(shape.error.issues, body));
  const schema = connectionSchemaOf(shape.data.kind);
  if (!schema) {
    throw refused([{ pointer: '#/kind', detail: `'${shape.data.kind}' is not a data source kind` }]);
  }
  const connection = schema.safeParse(shape.data.connection);
  if (!connection.success) {
    throw refused(readableIssues(connection.error.issues, shape.data.connection, '#/connection'));
  }
  return { kind: shape.data.kind, connection: connection.data as Record<string, unknown> };
}

const refused = (errors: FieldError[]) =>
  new DoguError(
    'invalid_definition',
    errors.length === 1 ? fieldSentence(errors[0]!) : `${errors.length} fields are invalid.`,
    {
      errors,
    },
  );

/**
 * …/data-sources/{dataSourceId}/environments/{environmentId}/test-connection and /catalog: both
 * connect with the kind's runtime (its driver), so this function composes the action engines
 * (docs/decisions/0022); an engine may read the data source's files (gRPC protosets).
 */
export const handler = defineRoutes(
  {
    testDataSourceConnection: async (request, services) => {
      const { projectId, dataSourceId, environmentId } = request.pathParameters;
      // A body tries the form's settings before they are saved; no body tries the saved ones.
      const body = request.event.body ? request.jsonBody() : {};
      const result = await dataSources.testDataSourceConnection(
        services,
        request.caller(),
        projectId!,
        dataSourceId!,
        environmentId!,
        Object.keys(body).length ? parseConnectionDraft(body) : undefined,
      );
      return { status: 200, body: result };
    },
    getDataSourceCatalog: async (request, services) => {
      const { projectId, dataSourceId, environmentId } = request.pathParameters;
      const catalog = await dataSources.dataSourceCatalog(
        services,
        request.caller(),
        projectId!,
        dataSourceId!,
        environmentId!,
      );
      return { status: 200, body: catalog };
    },
  },
  compose(secretValues, actionEngines, ownIdp, scriptSandbox, fileStorage),
);
