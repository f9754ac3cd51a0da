import type { AuditQuery } from '../shared/domain/audit.ts';
import { DoguError } from '../shared/domain/errors.ts';
import {
  type AuditFilters,
  exportAudit,
  listAudit,
  readAuditChain,
  verifyAuditChain,
} from '../shared/domain/manage/audit.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/**
 * /api/v1/projects/{projectId}/audit-log: newest first, filtered by
 * `actor`, `event` (exact, or a prefix ending in '.'), `target`, `from`, `to`;
 * paged by `limit` and `cursor`. `/export?format=csv|json|jsonl` downloads every
 * matching entry. `/chain` pages every entry oldest first with its hashes; `/verification` checks
 * the chain (`?from=<entry id>` to start there).
 */
export const handler = defineRoutes({
  listAuditLog: async (request, services) => {
    const parameters = request.event.queryStringParameters ?? {};
    const query: AuditQuery = {
      ...filtersOf(request.pathParameters.projectId!, parameters),
      ...(parameters.limit ? { limit: Number(parameters.limit) } : {}),
      ...(parameters.cursor ? { cursor: parameters.cursor } : {}),
    };
    const page = await listAudit(services, request.caller(), query);
    return {
      status: 200,
      body: {
        data: page.entries,
        has_more: page.nextCursor !== undefined,
        ...(page.nextCursor === undefined ? {} : { next_cursor: page.nextCursor }),
      },
    };
  },
  exportAuditLog: async (request, services) => {
    const projectId = request.pathParameters.projectId!;
    const parameters = request.event.queryStringParameters ?? {};
    const format = parameters.format ?? 'csv';
    if (format !== 'csv' && format !== 'json' && format !== 'jsonl') {
      throw new DoguError('bad_request', "'format' must be 'csv', 'json' or 'jsonl'.", {
        extra: { parameter: 'format' },
      });
    }
    const { text, entryCount } = await exportAudit(
      services,
      request.caller(),
      filtersOf(projectId, parameters),
      format,
    );
    const date = services.clock.now().toISOString().slice(0, 10);
    // Project ids are readable names; keep the file name to characters every browser accepts.
    const fileName = `audit-${projectId.replace(/[^A-Za-z0-9_-]/g, '_')}-${date}.${format}`;
    return {
      status: 200,
      text,
      headers: {
        'content-type': contentTypes[format],
        'content-disposition': `attachment; filename="${fileName}"`,
        'x-dogu-entry-count': String(entryCount),
      },
    };
  },
  getAuditChain: async (request, services) => {
    const parameters = request.event.queryStringParameters ?? {};
    const page = await readAuditChain(services, request.caller(), {
      projectId: request.pathParameters.projectId!,
      ...(parameters.limit ? { limit: Number(parameters.limit) } : {}),
      ...(parameters.cursor ? { cursor: parameters.cursor } : {}),
    });
    return {
      status: 200,
      body: {
        data: page.entries,
        has_more: page.nextCursor !== undefined,
        ...(page.nextCursor === undefined ? {} : { next_cursor: page.nextCursor }),
        ...(page.head ? { head: page.head } : {}),
      },
    };
  },
  verifyAuditLog: async (request, services) => {
    const from = request.event.queryStringParameters?.from;
    const result = await verifyAuditChain(services, request.caller(), {
      projectId: request.pathParameters.projectId!,
      ...(from === undefined ? {} : { fromId: from }),
    });
    return { status: 200, body: result };
  },
});

const contentTypes = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json',
  jsonl: 'application/jsonl; charset=utf-8',
} as const;

const filterParameters = [
  ['actor', 'actorId'],
  ['event', 'event'],
  ['target', 'targetId'],
  ['from', 'from'],
  ['to', 'to'],
] as const;

/** Query parameters to filters; an empty parameter (`?actor=`) means no filter. */
function filtersOf(projectId: string, parameters: Record<string, string | undefined>): AuditFilters {
  const filters: AuditFilters = { projectId };
  for (const [parameter, field] of filterParameters) {
    const value = parameters[parameter];
    if (value) filters[field] = value;
  }
  return filters;
}
