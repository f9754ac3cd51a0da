/**
 * Watches one statement's two time limits: the execution deadline (the
 * caller's signal) and the statement limit (the data source's own time-out,
 * else the maximum). The first one reached calls `onLimit` once, which
 * cancels the statement on the server.
 */
import type { TimeLimit } from './mysql-errors.ts';

/** After cancelling, how long to wait for the statement to report that it ended before giving up on it. */
const cancelGraceMs = 2_000;

export interface StatementWatch {
  /** The limit reached, if any. */
  reached(): TimeLimit | undefined;
  /** Resolves 'gave_up' when a limit was reached and the statement has not ended within the grace time. */
  gaveUp: Promise<'gave_up'>;
  dispose(): void;
}

export function watchStatement(
  signal: AbortSignal,
  statementLimit: { ms: number; kind: TimeLimit },
  onLimit: () => void,
): StatementWatch {
  let reached: TimeLimit | undefined;
  let giveUp = () => {};
  const gaveUp = new Promise<'gave_up'>((resolve) => {
    giveUp = () => resolve('gave_up');
  });
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (limit: TimeLimit) => {
    if (reached) return;
    reached = limit;
    onLimit();
    graceTimer = setTimeout(giveUp, cancelGraceMs);
  };
  const statementTimer = setTimeout(() => stop(statementLimit.kind), statementLimit.ms);
  const onAbort = () => stop('deadline');
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    reached: () => reached,
    gaveUp,
    dispose() {
      clearTimeout(statementTimer);
      clearTimeout(graceTimer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}
