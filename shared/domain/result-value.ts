/**
 * Results as one JSON value and back: what `actions.run` returns to a script and what a transformer
 * receives (one statement: its value or rows; several: `{ title, value }` each), and a value a script
 * returns shown as a result (docs/javascript.md).
 */
import { annotateMediaColumns } from './media.ts';
import type { StatementResult } from './model.ts';
import type { ScriptLog } from './ports.ts';
import { tableOf } from './value-table.ts';

export interface ScriptStatementResult extends StatementResult {
  /** The script's return value as it was (the table is how it is shown). */
  value?: unknown;
  /** What the script wrote with console.*. */
  logs?: ScriptLog[];
}

export function valueOfResults(results: readonly StatementResult[]): unknown {
  const shown = (result: StatementResult) =>
    'value' in result && (result as ScriptStatementResult).value !== undefined
      ? (result as ScriptStatementResult).value
      : result.rows;
  if (results.length === 1) return shown(results[0]!);
  return results.map((result) => ({ title: result.title, value: shown(result) }));
}

export function resultOfValue(title: string, value: unknown, logs: ScriptLog[]): ScriptStatementResult {
  const messages: string[] = [];
  const table = tableOf(value, messages);
  return {
    title,
    status: 'succeeded',
    columns: annotateMediaColumns(table.columns, table.rows),
    rows: table.rows,
    rowCount: table.rows.length,
    messages,
    value,
    logs,
  };
}

/** What went wrong, in front of the interpreter's own message (the error code is `script_error`). */
const scriptFailureKinds: Record<string, string> = {
  script_syntax_error: 'Syntax error: ',
  script_memory_limit: 'Memory limit: ',
  script_result_not_json: 'Result not JSON: ',
};

export function failedScriptResult(
  title: string,
  error: { code: string; message: string; line?: number; column?: number; stack?: string },
  logs: ScriptLog[],
): ScriptStatementResult {
  const where = error.line !== undefined ? ` (line ${error.line}, column ${error.column ?? 1})` : '';
  const kind = scriptFailureKinds[error.code] ?? '';
  return {
    title,
    status: 'failed',
    columns: [],
    rows: [],
    rowCount: 0,
    messages: error.stack ? [error.stack] : [],
    error: {
      code: error.code === 'script_timeout' ? 'execution_timeout' : 'script_error',
      message: `${kind}${error.message}${where}`,
    },
    logs,
  };
}
