/** What a run's results make of its execution record, for a single run and a batch row group alike. */
import type { Execution, StatementResult } from './model.ts';

type EndedFields = Pick<Execution, 'status' | 'finishedAt' | 'durationMs' | 'statements'> &
  Partial<Pick<Execution, 'error'>>;

/** Status, timing and statements of a run that ended with these results; the first failure is its error. */
export function endedRecord(results: readonly StatementResult[], started: Date, finished: Date): EndedFields {
  const failed = results.find((r) => r.status === 'failed');
  return {
    status: failed ? (failed.error?.code === 'execution_timeout' ? 'timed_out' : 'failed') : 'succeeded',
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    statements: results.map((r) => ({
      title: r.title,
      status: r.status,
      rowCount: r.rowCount,
      messages: r.messages,
    })),
    ...(failed?.error
      ? { error: { code: failed.error.code, message: `${failed.title}: ${failed.error.message}` } }
      : {}),
  };
}
