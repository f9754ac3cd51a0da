/**
 * Batch rows of a one-statement SQL action as one group on the connector (decision 0255): each row's
 * statement rendered with its own values, all run in one transaction with a savepoint per row.
 * Only statements that write inside a transaction qualify (INSERT, UPDATE, DELETE, and MERGE or
 * REPLACE), and none the dialect's preview refuses (what ends the transaction or acts outside it);
 * for anything else nothing runs here and the rows run one at a time as before.
 */
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import { annotateMediaColumns } from '../../domain/media.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { RowGroupResult } from '../../domain/ports.ts';
import type { SqlActionInput } from './definition.ts';
import { explain, failedResult } from './run-sql.ts';
import type { SqlDialect } from './sql-dialect.ts';
import type { CompiledStatement, SqlConnector } from './sql-ports.ts';
import { renderSql } from './sql-template.ts';
import { sqlWords } from './sql-words.ts';

const groupable: Record<SqlDialect, ReadonlySet<string>> = {
  postgresql: new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']),
  mysql: new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']),
};

export async function runSqlRowGroup(input: {
  action: SqlActionInput;
  dialect: SqlDialect;
  connector: SqlConnector;
  rows: Record<string, unknown>[];
  signal: AbortSignal;
  beforeRun: () => Promise<void>;
}): Promise<RowGroupResult> {
  const { action, connector, dialect } = input;
  const statement = action.statements.length === 1 ? action.statements[0] : undefined;
  if (!statement || !connector.runGroup || !connector.preview) return { kind: 'not_grouped' };
  const parameters = new Map<string, ParameterDefinition>(action.parameters.map((p) => [p.name, p]));
  const compiled = input.rows.map((values): CompiledStatement | DoguError => {
    try {
      return renderSql({ dialect, title: statement.title, sql: statement.sql, parameters, values });
    } catch (error) {
      return error instanceof DoguError ? error : new DoguError('internal_error', 'The statement failed.');
    }
  });
  const runnable = compiled.filter((c): c is CompiledStatement => !(c instanceof DoguError));
  for (const text of new Set(runnable.map((c) => c.text))) {
    const first = sqlWords(text, dialect).words[0] ?? '';
    if (!groupable[dialect].has(first) || connector.preview.refusal(text) !== undefined) {
      return { kind: 'not_grouped' };
    }
  }
  const outcome =
    runnable.length > 0
      ? await connector.runGroup(runnable, {
          signal: input.signal,
          parseJsonValues: action.parseJsonValues ?? false,
          beforeRun: input.beforeRun,
        })
      : await input.beforeRun().then(() => ({ kind: 'committed' as const, rows: [] }));
  if (outcome.kind === 'not_grouped') return { kind: 'not_grouped' };
  if (outcome.kind !== 'committed') {
    return { kind: outcome.kind, reason: { code: outcome.reason.code, message: outcome.reason.message } };
  }
  let next = 0;
  const rows = compiled.map((c): StatementResult[] => {
    if (c instanceof DoguError) return [failedResult(statement.title, c)];
    const row = outcome.rows[next++]!;
    if (!row.ok) return [failedResult(statement.title, explain(row.error, c.placeholderNames ?? []))];
    const raw = row.result;
    const columns = annotateMediaColumns(raw.columns, raw.rows);
    return [{ title: statement.title, status: 'succeeded', ...raw, columns, rowCount: raw.rows.length }];
  });
  return { kind: 'committed', rows };
}
