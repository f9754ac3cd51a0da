/**
 * Batch rows run as one group (decision 0255): the action is resolved, authorised and prepared once
 * for the group (the same checks `executeAction` makes for each run), every row is bound with its own
 * arguments and recorded `running` under its planned execution id, and the engine runs the rows in
 * one transaction with a savepoint per row. Each row then gets its own execution record with its own
 * outcome. Where the engine cannot group (a kind without transactions, more than one statement, a
 * statement that would leave the transaction, a bridge) nothing has run and the rows run one at a time;
 * so do they when the group was rolled back as a whole (its deadline, a lost connection).
 */
import { effectOf } from '../action-effect.ts';
import { resolveExecutableAction } from '../authorize.ts';
import { refuseUnpublishedSecretReads } from '../draft-secrets.ts';
import { endedRecord } from '../ended-record.ts';
import { DoguError } from '../errors.ts';
import { bridgeOf, recordable } from '../execute-action.ts';
import type { ExecutionDeps } from '../execution-deps.ts';
import { recordableArguments } from '../execution-payloads.ts';
import { openConnection } from '../manage/data-sources.ts';
import type { Execution, Principal, StatementResult } from '../model.ts';
import { bindArguments } from '../parameters.ts';
import { limitResults } from '../result-limits.ts';
import { configurationValues, masterDataOf } from '../run-preparation.ts';
import type { Batch, BatchRow } from '../scheduling/model.ts';
import { SecretRedactor } from '../secret-redaction.ts';

/** Rows the engine should run one at a time: it cannot group them, or the group was rolled back whole. */
export type OneAtATime = 'not_grouped' | 'rolled_back';

interface BoundRow {
  row: BatchRow;
  values: Record<string, unknown>;
  base: Omit<Execution, 'status' | 'statements'>;
}

export async function runRowGroup(
  deps: ExecutionDeps,
  batch: Batch,
  principal: Principal,
  rows: BatchRow[],
): Promise<BatchRow[] | OneAtATime> {
  const ids = { projectId: batch.projectId, environmentId: batch.environmentId, actionId: batch.actionId };
  const { action, environment } = await resolveExecutableAction(deps.store, principal, ids);
  // What a single run would turn into something else (a review request, a transformer's value) runs singly.
  if (action.review?.required || action.transformer || effectOf(action) !== 'changes') return 'not_grouped';
  await refuseUnpublishedSecretReads(deps, action, environment.id);
  const dataSource = await deps.store.getDataSource(action.projectId, action.dataSourceId);
  if (!dataSource?.environments[environment.id] || bridgeOf(dataSource, environment.id).bridgeId) {
    return 'not_grouped';
  }
  const masterData = await masterDataOf(deps, action);
  const configuration = await configurationValues(deps, action, dataSource, environment.id);
  const connection = await openConnection(deps, dataSource, environment.id);
  const redactor = new SecretRedactor([
    ...Object.entries(configuration).flatMap(([name, value]) => (name.startsWith('secrets.') ? [value] : [])),
    ...deps.engines.secretFields(dataSource.kind).map((field) => connection[field]),
  ]);

  const started = deps.clock.now();
  const maxExecutionMs = Math.min(batch.rowTimeLimitMs ?? deps.maxExecutionMs, deps.maxExecutionMs);
  const deadlineAt = started.getTime() + maxExecutionMs;
  const user = principal.kind === 'user' ? principal : undefined;
  const currentUser = {
    'currentUser.id': user?.id ?? '',
    'currentUser.name': user?.name ?? '',
    'currentUser.email': user?.email ?? '',
  };
  const settled = new Map<number, BatchRow>();
  const bound: BoundRow[] = [];
  for (const row of rows) {
    const executionId = row.executionId!;
    try {
      const args = bindArguments(action.parameters, row.arguments, {
        system: { ...currentUser, executionId, now: started.toISOString() },
        masterData,
      });
      bound.push({
        row,
        values: { ...args, ...currentUser, ...configuration },
        base: {
          id: executionId,
          projectId: action.projectId,
          environmentId: environment.id,
          actionId: action.id,
          actionVersion: action.version,
          principal: { kind: principal.kind, id: principal.id, email: principal.email },
          via: 'batch',
          origin: { batchId: batch.id, row: row.index },
          arguments: recordable(args),
          startedAt: started.toISOString(),
          deadlineAt: new Date(deadlineAt).toISOString(),
        },
      });
    } catch (error) {
      // As a single run: arguments that do not bind fail the row before anything is recorded.
      settled.set(row.index, failedBeforeRun(row, error));
    }
  }
  if (bound.length === 0) return rows.map((row) => settled.get(row.index)!);

  const outcome = await deps.engines
    .runRowGroup({
      run: {
        action,
        dataSource,
        environmentId: environment.id,
        connection,
        key: `${dataSource.projectId}/${dataSource.id}/${environment.id}`,
        values: {},
        signal: AbortSignal.timeout(maxExecutionMs),
        deadlineAt,
        callAction: () =>
          Promise.reject(new DoguError('data_source_error', 'A grouped row calls no action.')),
      },
      rows: bound.map((b) => b.values),
      // Recorded as running before anything runs (decision 0056), as a single run is.
      beforeRun: () =>
        Promise.all(
          bound.map(async (b) => {
            const recorded = await recordableArguments(deps.payloads, b.base.id, b.base.arguments);
            b.base.arguments = recorded.arguments;
            if (recorded.payload) b.base.payloads = { arguments: recorded.payload };
            await deps.executions.putExecution({ ...b.base, status: 'running', statements: [] });
          }),
        ).then(() => {}),
    })
    // What the engine did not report is not known to have committed: the connectors roll back on
    // every path that throws, so the rows run again one at a time.
    .catch(() => ({ kind: 'rolled_back' as const }));
  if (outcome.kind === 'not_grouped' || outcome.kind === 'rolled_back') return outcome.kind;

  const finished = deps.clock.now();
  const ended = (b: BoundRow, results: StatementResult[]): Execution => ({
    ...b.base,
    ...endedRecord(results, started, finished),
  });
  const executions = bound.map((b, i) => {
    if (outcome.kind === 'unknown') {
      return {
        ...ended(b, []),
        status: 'failed' as const,
        error: {
          code: 'interrupted',
          message: `The connection was lost while the rows' transaction committed: this row may have run; check before retrying (${redactor.text(outcome.reason.message)}).`,
        },
      };
    }
    return ended(b, limitResults(redactor.results(outcome.rows[i]!)));
  });
  await Promise.all(executions.map((execution) => deps.executions.putExecution(execution)));
  executions.forEach((execution, i) => {
    const { row } = bound[i]!;
    settled.set(
      row.index,
      execution.status === 'succeeded'
        ? { ...row, status: 'success' }
        : {
            ...row,
            status: 'failure',
            error: execution.error ?? { code: 'failed', message: execution.status },
          },
    );
  });
  return rows.map((row) => settled.get(row.index)!);
}

/** A row that failed before its run was recorded: it keeps no execution id. */
export function failedBeforeRun(row: BatchRow, error: unknown): BatchRow {
  const { executionId: _none, ...rest } = row;
  return {
    ...rest,
    status: 'failure',
    error:
      error instanceof DoguError
        ? { code: error.code, message: error.message }
        : { code: 'internal_error', message: 'Unexpected error while running the row.' },
  };
}
