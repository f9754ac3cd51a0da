/** Runs a SQL action's statements in order, each in its own transaction, within the deadline. */

import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import { annotateMediaColumns } from '../../domain/media.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { SqlActionInput } from './definition.ts';
import type { SqlSyntax } from './sql-dialect.ts';
import type { SqlConnector } from './sql-ports.ts';
import { renderSql } from './sql-template.ts';

export async function runSqlStatements(input: {
  action: SqlActionInput;
  dialect: SqlSyntax;
  connector: SqlConnector;
  values: Record<string, unknown>;
  signal: AbortSignal;
}): Promise<StatementResult[]> {
  const parameters = new Map<string, ParameterDefinition>(input.action.parameters.map((p) => [p.name, p]));
  const results: StatementResult[] = [];
  for (const statement of input.action.statements) {
    const compiled = renderSql({
      dialect: input.dialect,
      title: statement.title,
      sql: statement.sql,
      parameters,
      values: input.values,
    });
    try {
      const raw = await input.connector.run(compiled, {
        signal: input.signal,
        parseJsonValues: input.action.parseJsonValues ?? false,
      });
      const columns = annotateMediaColumns(raw.columns, raw.rows);
      results.push({
        title: statement.title,
        status: 'succeeded',
        ...raw,
        columns,
        rowCount: raw.rows.length,
      });
    } catch (error) {
      const failure =
        error instanceof DoguError
          ? explain(error, compiled.placeholderNames ?? [])
          : new DoguError('internal_error', 'The statement failed.');
      results.push(failedResult(statement.title, failure));
      // Later statements may depend on this one: they do not run.
      break;
    }
  }
  return results;
}

export const failedResult = (title: string, failure: DoguError): StatementResult => ({
  title,
  status: 'failed',
  columns: [],
  rows: [],
  rowCount: 0,
  messages: [],
  error: { code: failure.code, message: failure.message },
});

/** Database messages speak of `$2`; the user wrote `{{ since }}`. Say that, and how to fix the commonest case. */
export function explain(error: DoguError, placeholderNames: string[]): DoguError {
  let message = error.message.replace(/\$(\d+)\b/g, (whole, n: string) => {
    const name = placeholderNames[Number(n) - 1];
    return name ? `{{ ${name} }}` : whole;
  });
  if (/\b42P(08|18)\b/.test(error.message)) {
    message +=
      ". Where PostgreSQL cannot infer a value's type (as in {{ x }} IS NULL), cast it: CAST({{ x }} AS integer).";
  }
  return message === error.message ? error : new DoguError(error.code, message);
}
