/**
 * The per-view run limit (decision 0151): one budget per project, view and viewer in a fixed
 * minute, 429 Problem Details past it, the setting read from the environment.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../shared/adapters/rate-limit/memory-rate-limiter.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import {
  defaultViewRunsPerMinute,
  takeViewRun,
  viewRunKey,
  viewRunsPerMinuteFromEnv,
} from '../../shared/domain/views/view-run-limit.ts';

const minute = Date.parse('2026-11-28T07:00:00Z');
const where = { projectId: 'demo', viewId: 'orders', principalId: 'user-1' };

describe('takeViewRun', () => {
  it('lets the limit through and refuses the next run with 429, Retry-After and the view', async () => {
    const limit = { limiter: new MemoryRateLimiter(3), perMinute: 3 };
    for (let i = 0; i < 3; i++) await takeViewRun(limit, where, minute + 1000);
    const refusal = await takeViewRun(limit, where, minute + 20_000).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DoguError);
    const error = refusal as DoguError;
    expect(error.status).toBe(429);
    expect(error.code).toBe('too_many_requests');
    expect(error.headers).toEqual({ 'retry-after': '40' });
    expect(error.extra).toEqual({ retryAfterSeconds: 40, viewId: 'orders', limitPerMinute: 3 });
    expect(error.message).toBe(
      "Too many runs from view 'orders': at most 3 a minute for one viewer; try again in 40 second(s).",
    );
    expect(error.errors?.[0]).toMatchObject({ pointer: '#/source/viewId' });
    expect(error.errors?.[0]?.ja).toContain('3 回');
  });

  it('counts each view and each viewer apart, and starts again in the next minute', async () => {
    const limit = { limiter: new MemoryRateLimiter(1), perMinute: 1 };
    await takeViewRun(limit, where, minute);
    await takeViewRun(limit, { ...where, viewId: 'other' }, minute);
    await takeViewRun(limit, { ...where, principalId: 'user-2' }, minute);
    await expect(takeViewRun(limit, where, minute + 59_000)).rejects.toThrow(/Too many runs/);
    await takeViewRun(limit, where, minute + 60_000);
  });

  it('does nothing without a limit or with 0', async () => {
    await takeViewRun(undefined, where, minute);
    const off = { limiter: new MemoryRateLimiter(0), perMinute: 0 };
    for (let i = 0; i < 5; i++) await takeViewRun(off, where, minute);
  });

  it('keys by project, view and viewer', () => {
    expect(viewRunKey('demo', 'orders', 'user-1')).toBe('view:demo/orders/user-1');
  });
});

describe('viewRunsPerMinuteFromEnv', () => {
  it('defaults to 120, takes a whole number, 0 turns it off, refuses anything else', () => {
    expect(viewRunsPerMinuteFromEnv({})).toBe(defaultViewRunsPerMinute);
    expect(defaultViewRunsPerMinute).toBe(120);
    expect(viewRunsPerMinuteFromEnv({ DOGU_VIEW_RUNS_PER_MINUTE: '30' })).toBe(30);
    expect(viewRunsPerMinuteFromEnv({ DOGU_VIEW_RUNS_PER_MINUTE: '0' })).toBe(0);
    expect(() => viewRunsPerMinuteFromEnv({ DOGU_VIEW_RUNS_PER_MINUTE: '1.5' })).toThrow(
      /DOGU_VIEW_RUNS_PER_MINUTE must be a whole number/,
    );
  });
});
