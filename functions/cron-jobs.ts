import { dateProblemText, parseIsoDateTime } from '../shared/domain/dates.ts';
import { badRequest } from '../shared/domain/errors.ts';
import { cronJobInputSchema, schedulePreviewSchema } from '../shared/domain/scheduling/cron-job-input.ts';
import * as jobs from '../shared/domain/scheduling/cron-jobs.ts';
import * as runs from '../shared/domain/scheduling/cron-runs.ts';
import type { CronRunStatus } from '../shared/domain/scheduling/model.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { schedulingDeps } from '../shared/runtime/services.ts';

/**
 * /api/v1/projects/{projectId}/environments/{environmentId}/cron-jobs[/{jobId}[/stop|/resume|/runs[/{scheduledAt}/retry]]]:
 * cron jobs of an environment, their planned times and run history (docs/scheduling.md).
 */
const scopeOf = (request: HttpRequest) => ({
  projectId: request.pathParameters.projectId!,
  environmentId: request.pathParameters.environmentId!,
});

const runStatuses: readonly CronRunStatus[] = ['waiting', 'running', 'completed', 'cancelled', 'error'];

function runQuery(request: HttpRequest) {
  const query = request.event.queryStringParameters ?? {};
  if (query.status && !runStatuses.includes(query.status as CronRunStatus)) {
    throw badRequest(`'status' must be one of ${runStatuses.join(', ')}.`);
  }
  const time = (name: 'from' | 'to') => {
    const value = query[name];
    if (value === undefined) return undefined;
    const parsed = parseIsoDateTime(value);
    if (typeof parsed === 'string') {
      throw badRequest(
        `'${name}' ${parsed === 'format' ? 'must be an ISO 8601 time such as 2026-11-22T09:00:00+09:00' : dateProblemText[parsed]}.`,
      );
    }
    return new Date(parsed.time).toISOString();
  };
  const limit = query.limit === undefined ? undefined : Number(query.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 500)) {
    throw badRequest("'limit' must be an integer from 1 to 500.");
  }
  const from = time('from');
  const to = time('to');
  return {
    ...(query.status ? { status: query.status as CronRunStatus } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(limit ? { limit } : {}),
    ...(query.cursor ? { cursor: query.cursor } : {}),
  };
}

export const handler = defineRoutes({
  listCronJobs: async (request, services) => ({
    status: 200,
    body: { data: await jobs.listCronJobs(schedulingDeps(services), request.caller(), scopeOf(request)) },
  }),
  createCronJob: async (request, services) => ({
    status: 201,
    body: await jobs.createCronJob(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.parseBody(cronJobInputSchema),
    ),
  }),
  previewCronSchedule: async (request, services) => ({
    status: 200,
    body: await jobs.previewCronSchedule(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.parseBody(schedulePreviewSchema),
    ),
  }),
  getCronJob: async (request, services) => ({
    status: 200,
    body: await jobs.getCronJob(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.pathParameters.jobId!,
    ),
  }),
  putCronJob: async (request, services) => ({
    status: 200,
    body: await jobs.updateCronJob(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.pathParameters.jobId!,
      request.parseBody(cronJobInputSchema),
    ),
  }),
  deleteCronJob: async (request, services) => {
    await jobs.deleteCronJob(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.pathParameters.jobId!,
    );
    return { status: 204 };
  },
  stopCronJob: async (request, services) => ({
    status: 200,
    body: await jobs.stopCronJob(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.pathParameters.jobId!,
    ),
  }),
  resumeCronJob: async (request, services) => ({
    status: 200,
    body: await jobs.resumeCronJob(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.pathParameters.jobId!,
    ),
  }),
  /** POST …/{jobId}/run-now: one run at this moment, recorded as manual in the history (201, the finished run). */
  runCronJobNow: async (request, services) => ({
    status: 201,
    body: await runs.runCronJobNow(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.pathParameters.jobId!,
    ),
  }),
  listCronRuns: async (request, services) => ({
    status: 200,
    body: await runs
      .listCronRuns(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.pathParameters.jobId!,
        runQuery(request),
      )
      .then(({ runs: data, cursor }) => ({ data, ...(cursor ? { cursor } : {}) })),
  }),
  retryCronRun: async (request, services) => ({
    status: 200,
    body: await runs.retryCronRun(
      schedulingDeps(services),
      request.caller(),
      scopeOf(request),
      request.pathParameters.jobId!,
      // Path parameters arrive decoded (API Gateway and route-matcher.ts): decoding again would misread '%'.
      request.pathParameters.scheduledAt!,
    ),
  }),
});
