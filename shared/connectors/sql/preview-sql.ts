/**
 * A SQL action's preview (decision 0185): its statements, in order, in one transaction that the
 * dialect always rolls back, under the run's deadline. Per statement: the rows it affected, what it
 * returned (`RETURNING`), and its preview query's rows just before and after it. Statements a
 * rollback would not undo are refused before anything runs, with a 422 naming the statement and why.
 */
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { PreviewRows, StatementResult } from '../../domain/model.ts';
import type { SqlActionInput } from './definition.ts';
import { RowBudget } from './row-budget.ts';
import { failedResult } from './run-sql.ts';
import type { SqlDialect } from './sql-dialect.ts';
import type { CompiledStatement, PreviewSession, SqlConnector } from './sql-ports.ts';
import { renderSql } from './sql-template.ts';

/** A preview shows at most this many rows per set (returned, before, after)… */
export const previewRowLimit = 100;
/** …and this many bytes of rows in all: stricter than a run's budget, a preview is for reading. */
export const previewByteBudget = 256 * 1024;

interface PlannedStatement {
  title: string;
  statement: CompiledStatement;
  check?: CompiledStatement;
}

export async function previewSqlStatements(input: {
  action: SqlActionInput;
  dialect: SqlDialect;
  connector: SqlConnector;
  values: Record<string, unknown>;
  signal: AbortSignal;
}): Promise<StatementResult[]> {
  const preview = input.connector.preview;
  if (!preview) {
    throw new DoguError('argument_invalid', `A ${input.dialect} data source cannot preview.`, {
      errors: [{ pointer: '#/preview', detail: 'not supported by this data source kind' }],
    });
  }
  const parameters = new Map<string, ParameterDefinition>(input.action.parameters.map((p) => [p.name, p]));
  const render = (title: string, sql: string) =>
    renderSql({ dialect: input.dialect, title, sql, parameters, values: input.values });
  // Everything is rendered and checked first: a refused statement means nothing runs at all.
  const planned: PlannedStatement[] = input.action.statements.map((s) => ({
    title: s.title,
    statement: render(s.title, s.sql),
    ...(s.previewSql ? { check: render(`${s.title} (preview query)`, s.previewSql) } : {}),
  }));
  const refusals = planned.flatMap((p, i) => [
    ...refusalOf(preview.refusal(p.statement.text), `#/statements/${i}/sql`, p.title),
    ...(p.check ? refusalOf(preview.refusal(p.check.text), `#/statements/${i}/previewSql`, p.title) : []),
  ]);
  if (refusals.length > 0) {
    throw new DoguError(
      'argument_invalid',
      `This action cannot be previewed: ${refusals.map((r) => r.message).join(' ')}`,
      { errors: refusals.map(({ pointer, detail }) => ({ pointer, detail })) },
    );
  }
  const budget = new RowBudget(previewByteBudget);
  const options = { signal: input.signal, parseJsonValues: input.action.parseJsonValues ?? false };
  return preview.rolledBack(async (session) => {
    const results: StatementResult[] = [];
    for (const step of planned) {
      try {
        results.push(await previewStep(session, step, options, budget));
      } catch (error) {
        // A refusal found while running (MySQL: a non-transactional table) refuses the whole preview.
        if (error instanceof DoguError && error.code === 'argument_invalid') throw error;
        const failure =
          error instanceof DoguError ? error : new DoguError('internal_error', 'The statement failed.');
        results.push(failedResult(step.title, failure));
        // The transaction is aborted (PostgreSQL) or its later statements depend on this one.
        break;
      }
    }
    return results;
  }, options);
}

function refusalOf(reason: string | undefined, pointer: string, title: string) {
  return reason ? [{ pointer, detail: reason, message: `Statement '${title}': ${reason}` }] : [];
}

async function previewStep(
  session: PreviewSession,
  step: PlannedStatement,
  options: { signal: AbortSignal; parseJsonValues: boolean },
  budget: RowBudget,
): Promise<StatementResult> {
  const before = step.check ? rowsOf(await session.run(step.check, options), budget) : undefined;
  const outcome = await session.run(step.statement, options);
  const after = step.check ? rowsOf(await session.run(step.check, options), budget) : undefined;
  const returned = rowsOf(outcome, budget);
  const affected = outcome.rowsAffected;
  return {
    title: step.title,
    status: 'succeeded',
    columns: returned.columns,
    rows: returned.rows,
    rowCount: returned.rows.length,
    ...(returned.truncated ? { truncated: true } : {}),
    messages: [
      affected === null
        ? 'Ran and rolled back; the database reports no row count for this statement.'
        : `${affected} ${affected === 1 ? 'row' : 'rows'} would be affected; rolled back, nothing was committed.`,
      ...outcome.messages.filter((m) => !/ affected\.$/.test(m)),
    ],
    preview: {
      rowsAffected: affected,
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
    },
  };
}

function rowsOf(result: { columns: PreviewRows['columns']; rows: PreviewRows['rows'] }, budget: RowBudget) {
  const limited = result.rows.slice(0, previewRowLimit);
  const kept = budget.take(limited);
  const truncated = kept.length < result.rows.length;
  return { columns: result.columns, rows: kept, ...(truncated ? { truncated: true } : {}) };
}
