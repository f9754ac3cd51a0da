/**
 * The result size limit: an execution returns at most 5 MB of rows (JSON) in
 * all. API Gateway and Lambda cap a response at 6 MB, so the same limit holds
 * in both runtimes. Rows past the limit are cut, the statement is marked
 * `truncated`, and a message says so: a client can never mistake a cut result
 * for a whole one.
 */
import type { StatementResult } from './model.ts';

export const maxResultBytes = 5 * 1024 * 1024;

export function limitResults(results: StatementResult[], budget = maxResultBytes): StatementResult[] {
  let remaining = budget;
  return results.map((result) => {
    let kept = 0;
    for (const row of result.rows) {
      const size = JSON.stringify(row).length + 1;
      if (size > remaining) break;
      remaining -= size;
      kept++;
    }
    if (kept === result.rows.length) return result;
    return {
      ...result,
      rows: result.rows.slice(0, kept),
      truncated: true,
      messages: [
        ...result.messages,
        `The result was cut at ${kept} of ${result.rows.length} rows: an execution returns at most ${budget / 1024 / 1024} MB. Narrow the query (WHERE, LIMIT) to see the rest.`,
      ],
    };
  });
}
