import type { AuditQuery } from '../shared/domain/audit.ts';
import { DoguError } from '../shared/domain/errors.ts';
import { type AuditFilters, exportAudit, listAudit } from '../shared/domain/manage/audit.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/**
 * /api/v1/projects/{projectId}/audit-log: newest first, filtered by
 * `actor`, `event` (exact, or a prefix ending in '.'), `target`, `from`, `to`;
 * paged by `limit` and `cursor`. `/export?format=csv|json` downloads every
 * matching entry.
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
    if (format !== 'csv' && format !== 'json') {
      throw new DoguError('bad_request', "'format' must be 'csv' or 'json'.", {
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
        'content-type': format === 'csv' ? 'text/csv; charset=utf-8; header=present' : 'application/json',
        'content-disposition': `attachment; filename="${fileName}"`,
        'x-dogu-entry-count': String(entryCount),
      },
    };
  },
});

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
