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

/**
 * Cuts what a result carries past `budget` bytes, counted as it travels inside a JSON response
 * envelope: a script's value (kept whole or left out: a value cannot be cut in the middle) and then
 * the rows, which for a script are the table view of that value. Every kind's value counts, not
 * only rows (issue 24).
 */
export function limitResults(results: StatementResult[], budget = maxKeptResultBytes): StatementResult[] {
  let remaining = budget;
  const mb = Math.round((budget / 1024 / 1024) * 10) / 10;
  return results.map((result) => {
    const messages: string[] = [];
    const hasValue = 'value' in result && (result as { value?: unknown }).value !== undefined;
    let keepValue = hasValue;
    if (hasValue) {
      const size = enveloped(JSON.stringify((result as { value?: unknown }).value)) - 1;
      if (size > remaining) {
        keepValue = false;
        messages.push(
          `The value (${Math.round((size / 1024 / 1024) * 10) / 10} MB) was left out: an execution returns at most ${mb} MB. Return less (filter, page, or summarise in the script).`,
        );
      } else remaining -= size;
    }
    let kept = 0;
    for (const row of result.rows) {
      const size = enveloped(JSON.stringify(row)) - 1;
      if (size > remaining) break;
      remaining -= size;
      kept++;
    }
    if (kept === result.rows.length && keepValue === hasValue) return result;
    if (kept < result.rows.length) {
      messages.push(
        `The result was cut at ${kept} of ${result.rows.length} rows: an execution returns at most ${mb} MB${hasValue ? ', the value included' : ''}. Narrow the query (WHERE, LIMIT) to see the rest.`,
      );
    }
    const { value: _dropped, ...withoutValue } = result as StatementResult & { value?: unknown };
    return {
      ...(keepValue ? result : withoutValue),
      rows: result.rows.slice(0, kept),
      truncated: true,
      messages: [...result.messages, ...messages],
    };
  });
}
