/**
 * Teardown for a bench's run(): each thing it sets up (a database, a server
 * process, a client) registers how to undo it right after it exists; the
 * steps then run newest first when the work ends, however it ends. Ctrl-C is
 * cleanup.ts's business; this keeps run() free of nested try/finally.
 */
import { progress } from './progress.ts';

/** Registers an undo step; `done`, if given, is logged once the step has run. */
export type Defer = (undo: () => Promise<void> | void, done?: string) => void;

/**
 * Runs `work`, then every registered step (newest first, each even when an
 * earlier one failed). A failure of `work` wins over one of its teardown,
 * which is then only printed.
 */
export async function withTeardown<T>(work: (defer: Defer) => Promise<T>): Promise<T> {
  const steps: { undo: () => Promise<void> | void; done?: string }[] = [];
  const defer: Defer = (undo, done) => {
    steps.push(done === undefined ? { undo } : { undo, done });
  };
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await work(defer) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  for (const step of steps.reverse()) {
    try {
      await step.undo();
      if (step.done) progress(step.done);
    } catch (error) {
      if (outcome.ok) outcome = { ok: false, error };
      else console.error(`teardown failed: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
