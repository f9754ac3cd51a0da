import * as batches from '../shared/domain/batch/batches.ts';
import { badRequest, DoguError } from '../shared/domain/errors.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, schedulingDeps } from '../shared/runtime/services.ts';

/**
 * Batches of an environment (docs/batch.md): the CSV template of an action, creating a batch from
 * form rows (JSON) or a CSV file, progress per row, retry of failed rows, results as CSV.
 */
const scopeOf = (request: HttpRequest) => ({
  projectId: request.pathParameters.projectId!,
  environmentId: request.pathParameters.environmentId!,
});

const csvHeaders = (filename: string) => ({
  'content-type': 'text/csv; charset=utf-8; header=present',
  'content-disposition': `attachment; filename="${filename}"`,
});

function csvBody(request: HttpRequest): string {
  const { body, isBase64Encoded } = request.event;
  if (!body) throw badRequest('The CSV body is empty: send the file with Content-Type: text/csv.');
  return isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

/**
 * `?via=console` marks a batch started in the console: a data-changing action then needs `&confirm=true`,
 * sent after the person confirmed (shared/domain/action-effect.ts). Other callers are unchanged.
 */
function confirmationOf(request: HttpRequest): { confirmed: boolean } | undefined {
  const query = request.event.queryStringParameters ?? {};
  if (query.via === undefined) return undefined;
  if (query.via !== 'console')
    throw badRequest('\'via\' is "console" for batches started in the console, or left out.');
  return { confirmed: query.confirm === 'true' };
}

function concurrencyOf(request: HttpRequest): number | undefined {
  const value = request.event.queryStringParameters?.concurrency;
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > batches.maxBatchConcurrency) {
    throw badRequest(`'concurrency' must be an integer from 1 to ${batches.maxBatchConcurrency}.`);
  }
  return n;
}

export const handler = defineRoutes(
  {
    getBatchTemplate: async (request, services) => {
      const actionId = request.pathParameters.actionId!;
      const csv = await batches.batchTemplate(schedulingDeps(services), request.caller(), {
        ...scopeOf(request),
        actionId,
      });
      return { status: 200, text: csv, headers: csvHeaders(`${actionId}-template.csv`) };
    },
    createBatch: async (request, services) => {
      const scope = { ...scopeOf(request), actionId: request.pathParameters.actionId! };
      const contentType = (request.event.headers['content-type'] ?? '').toLowerCase();
      let created: Awaited<ReturnType<typeof batches.createBatch>>;
      const confirmation = confirmationOf(request);
      if (contentType.startsWith('text/csv')) {
        const concurrency = concurrencyOf(request);
        created = await batches.createBatch(
          schedulingDeps(services),
          request.caller(),
          scope,
          { csv: csvBody(request) },
          { ...(concurrency ? { concurrency } : {}), ...(confirmation ? { confirmation } : {}) },
        );
      } else {
        const input = request.parseBody(batches.batchInputSchema);
        created = await batches.createBatch(
          schedulingDeps(services),
          request.caller(),
          scope,
          { rows: input.rows },
          {
            ...(input.concurrency ? { concurrency: input.concurrency } : {}),
            ...(confirmation ? { confirmation } : {}),
          },
        );
      }
      const location = `/api/v1/projects/${scope.projectId}/environments/${scope.environmentId}/batches/${created.batch.id}`;
      return { status: 202, body: { ...created, links: { self: location } }, headers: { location } };
    },
    listBatches: async (request, services) => ({
      status: 200,
      body: { data: await batches.listBatches(schedulingDeps(services), request.caller(), scopeOf(request)) },
    }),
    getBatch: async (request, services) => ({
      status: 200,
      body: await batches.getBatch(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.pathParameters.batchId!,
      ),
    }),
    retryBatch: async (request, services) => ({
      status: 202,
      body: await batches.retryFailedRows(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.pathParameters.batchId!,
      ),
    }),
    getBatchResults: async (request, services) => {
      const batchId = request.pathParameters.batchId!;
      const { csv } = await batches.batchResults(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        batchId,
      );
      if (!csv) throw new DoguError('not_found', `Batch '${batchId}' has no results.`);
      return { status: 200, text: csv, headers: csvHeaders(`${batchId}-results.csv`) };
    },
  },
  compose(secretValues, connectorCatalog, scheduling),
);
