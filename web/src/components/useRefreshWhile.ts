/**
 * Screens that show work in progress (a batch or a cron run running, a reservation about to run)
 * load again by themselves every `intervalMs` while `active`, one request at a time, and stop once
 * nothing runs. The data stays on screen while it reloads (useAsync keeps it), so nothing flickers.
 */
import { useEffect } from 'react';
import type { AsyncState } from './useAsync.ts';

export const refreshIntervalMs = 2000;

export function useRefreshWhile(
  active: boolean,
  state: Pick<AsyncState<unknown>, 'loading' | 'reload'>,
  intervalMs = refreshIntervalMs,
): void {
  const { loading, reload } = state;
  useEffect(() => {
    if (!active || loading) return;
    const timer = setTimeout(reload, intervalMs);
    return () => clearTimeout(timer);
  }, [active, loading, reload, intervalMs]);
}

/** Waiting work due within this window counts as running: it is about to change. */
export function dueSoon(at: string | undefined, now = Date.now(), windowMs = 60_000): boolean {
  if (!at) return false;
  return Date.parse(at) - now <= windowMs;
}
