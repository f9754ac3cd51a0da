/**
 * Result size limits, in UTF-8 bytes of JSON (decision 0056; they were UTF-16 string lengths, which
 * let 7.5 MB of Japanese text pass a 5 MB check and then fail at Lambda's 6 MB):
 *
 * - `maxKeptResultBytes`: what one execution keeps at all (memory, the payload store). Past it rows are
 *   cut, the statement is marked `truncated`, and a message says so.
 * - A result over the answer's budget (execution-payloads.ts) is kept in the payload store and
 *   answered by link; where there is no payload store it is cut to that budget instead.
 *
 * A client can never mistake a cut result for a whole one.
 */
import { enveloped } from './execution-payloads.ts';
import type { StatementResult } from './model.ts';

export const maxKeptResultBytes = 32 * 1024 * 1024;
/** What one response may carry in the other places that answer inline (audit exports). */
export const maxResultBytes = 5 * 1024 * 1024;

/** Cuts rows past `budget` bytes, counted as the rows travel inside a JSON response envelope. */
export function limitResults(results: StatementResult[], budget = maxKeptResultBytes): StatementResult[] {
  let remaining = budget;
  return results.map((result) => {
    let kept = 0;
    for (const row of result.rows) {
      const size = enveloped(JSON.stringify(row)) - 1;
      if (size > remaining) break;
      remaining -= size;
      kept++;
    }
    if (kept === result.rows.length) return result;
    const mb = Math.round((budget / 1024 / 1024) * 10) / 10;
    return {
      ...result,
      rows: result.rows.slice(0, kept),
      truncated: true,
      messages: [
        ...result.messages,
        `The result was cut at ${kept} of ${result.rows.length} rows: an execution returns at most ${mb} MB. Narrow the query (WHERE, LIMIT) to see the rest.`,
      ],
    };
  });
}
