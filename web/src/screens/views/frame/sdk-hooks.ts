/** Timing hooks for code views: a value that settles after a pause, and a refresh timer. */
import { useEffect, useRef, useState } from 'react';

/** The pause visual views' inputs wait by default before their queries run (decision 0212). */
export const defaultDebounceMs = 400;

/**
 * `value`, once it has not changed for `ms`: `useAction('search', { q: useDebounced(q) })` runs once
 * per pause in typing, not once per key.
 */
export function useDebounced<T>(value: T, ms: number = defaultDebounceMs): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), Math.max(0, ms));
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Visual views' timers run at most every 5 s (their schema's minimum); so do code views'. */
export const minIntervalSeconds = 5;

/**
 * Calls `callback` every `everySeconds` (at least 5) while the view is open, e.g. a `useAction`'s
 * `run` to refresh it; `null` pauses it. The latest callback is called, without restarting the timer.
 */
export function useInterval(callback: () => void, everySeconds: number | null): void {
  const latest = useRef(callback);
  latest.current = callback;
  useEffect(() => {
    if (everySeconds === null || !Number.isFinite(everySeconds)) return;
    const handle = setInterval(() => latest.current(), Math.max(minIntervalSeconds, everySeconds) * 1000);
    return () => clearInterval(handle);
  }, [everySeconds]);
}
