/**
 * Teardown that survives failures and Ctrl-C: a bench registers how to undo
 * each thing it starts (a database, a subprocess, a temp dir). Its own
 * `finally` runs the step normally; on SIGINT/SIGTERM the runner runs every
 * step still pending, so nothing is left behind either way.
 */

type Step = { label: string; run: () => Promise<void> };

const pending = new Set<Step>();

/** Registers an undo step; the returned function runs it once (later calls do nothing). */
export function deferCleanup(label: string, undo: () => Promise<void>): () => Promise<void> {
  const step: Step = { label, run: undo };
  pending.add(step);
  return async () => {
    if (!pending.delete(step)) return;
    await undo();
  };
}

/** Runs every pending step, newest first, reporting (not throwing) failures so the rest still run. */
export async function cleanUpEverything(): Promise<void> {
  for (const step of [...pending].reverse()) {
    pending.delete(step);
    try {
      await step.run();
    } catch (error) {
      console.error(`cleanup '${step.label}' failed: ${error instanceof Error ? error.message : error}`);
    }
  }
}
