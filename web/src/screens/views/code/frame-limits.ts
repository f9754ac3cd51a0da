/**
 * How often a code view may make the console speak for it (decision 0228): its toasts and CSV files
 * and the questions it has the console ask. The console draws them outside the frame, so a view
 * that loops must not be able to flood the page with messages or lock the viewer in dialogs.
 */

/** Toasts: at most this many per window; the rest are dropped (the live region stays readable). */
export const toastLimit = { max: 5, windowMs: 10_000 };
/** CSV files: one per window (a download the viewer asked for, not a stream of files). */
export const exportLimit = { max: 1, windowMs: 2_000 };
/** Questions the viewer declined: after this many in the window, the view may not ask until it passes. */
export const declineLimit = { max: 3, windowMs: 60_000 };

/** A sliding window: `take()` is true while fewer than `max` were taken in the last `windowMs`. */
export function slidingWindow(limit: { max: number; windowMs: number }, now: () => number = Date.now) {
  const taken: number[] = [];
  const prune = () => {
    const since = now() - limit.windowMs;
    while (taken.length > 0 && taken[0]! <= since) taken.shift();
  };
  return {
    take(): boolean {
      prune();
      if (taken.length >= limit.max) return false;
      taken.push(now());
      return true;
    },
    /** Counts without asking (a decline that already happened). */
    note(): void {
      prune();
      taken.push(now());
    },
    full(): boolean {
      prune();
      return taken.length >= limit.max;
    },
  };
}

export type QuestionRefusal = 'pending' | 'declinedTooOften';

/**
 * The view's own questions before a run: one open at a time (a second while one is open is refused,
 * not queued), and none for a while after the viewer declined several in a row.
 */
export function questionGate(now: () => number = Date.now) {
  let open = false;
  const declines = slidingWindow(declineLimit, now);
  return {
    /** Undefined when the view may ask now (and then it is open until `answered`). */
    begin(): QuestionRefusal | undefined {
      if (open) return 'pending';
      if (declines.full()) return 'declinedTooOften';
      open = true;
      return undefined;
    },
    answered(agreed: boolean): void {
      open = false;
      if (!agreed) declines.note();
    },
  };
}
