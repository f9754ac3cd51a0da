/**
 * Runs from a view are limited per viewer and view (decision 0151): a view's code runs actions with
 * its viewer's rights, so a view that loops could run thousands of them before anyone notices (300
 * calls in a loop all ran). Counted in the server, where a view cannot reach: one fixed one-minute
 * window per (project, view, viewer), kept by the same limiter as the per-client limit (decision
 * 0053), so reloading the view or opening it in a second tab does not start a new budget.
 */
import { DoguError } from '../errors.ts';
import type { ClientRateLimiter } from '../rate-limit.ts';

/** Enough for a dashboard that refreshes a few queries every few seconds; far below a loop. */
export const defaultViewRunsPerMinute = 120;

export interface ViewRunLimit {
  limiter: ClientRateLimiter;
  perMinute: number;
}

/** Reads DOGU_VIEW_RUNS_PER_MINUTE: unset is the default, 0 is no limit. */
export function viewRunsPerMinuteFromEnv(env: Record<string, string | undefined>): number {
  const text = env.DOGU_VIEW_RUNS_PER_MINUTE;
  if (text === undefined || text === '') return defaultViewRunsPerMinute;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`DOGU_VIEW_RUNS_PER_MINUTE must be a whole number, not '${text}'.`);
  }
  return value;
}

/** The limiter's key: one budget per project, view and viewer. */
export function viewRunKey(projectId: string, viewId: string, principalId: string): string {
  return `view:${projectId}/${viewId}/${principalId}`;
}

/** Counts one run from the view; throws 429 Problem Details (with Retry-After) past the limit. */
export async function takeViewRun(
  limit: ViewRunLimit | undefined,
  where: { projectId: string; viewId: string; principalId: string },
  nowMs: number,
): Promise<void> {
  if (!limit || limit.perMinute <= 0) return;
  const decision = await limit.limiter.take(
    viewRunKey(where.projectId, where.viewId, where.principalId),
    nowMs,
  );
  if (decision.allowed) return;
  const seconds = decision.retryAfterSeconds;
  throw new DoguError(
    'too_many_requests',
    `Too many runs from view '${where.viewId}': at most ${limit.perMinute} a minute for one viewer; try again in ${seconds} second(s).`,
    {
      headers: { 'retry-after': String(seconds) },
      extra: {
        retryAfterSeconds: seconds,
        viewId: where.viewId,
        limitPerMinute: limit.perMinute,
      },
      errors: [
        {
          pointer: '#/source/viewId',
          detail: `at most ${limit.perMinute} runs a minute from this view for one viewer`,
          ja: `このビューからは 1 人の閲覧者につき 1 分あたり ${limit.perMinute} 回まで実行できます`,
        },
      ],
    },
  );
}
