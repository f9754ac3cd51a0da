/** Creating, watching and retrying batches; their CSV template and results (docs/batch.md). */
import * as z from 'zod';
import { resolveExecutableAction } from '../authorize.ts';
import { requireConfirmation } from '../confirmation.ts';
import { refuseUnpublishedSecretReads } from '../draft-secrets.ts';
import { DoguError, notFound } from '../errors.ts';
import { authorize, requireEnvironment } from '../manage/access.ts';
import type { Action, Principal } from '../model.ts';
import { masterDataOf } from '../run-preparation.ts';
import type { SchedulingDeps } from '../scheduling/deps.ts';
import type { JobScope } from '../scheduling/job-scope.ts';
import type { Batch, BatchChunk, BatchRow } from '../scheduling/model.ts';
import { batchTemplateCsv, parseBatchCsv } from './batch-csv.ts';
import { batchResultsCsv, validateBatchRows } from './batch-rows.ts';
import { finishBatch, progressOf, unplanned } from './run-batch.ts';

export const maxBatchRows = 10_000;
export const batchChunkSize = 25;

/**
 * Rows per chunk: at most `batchChunkSize`, and no more than fit one job's time budget at each row's
 * full time limit (decision 0057), with one limit left over for a group of rows that reached it and
 * was rolled back before its rows ran one at a time (decision 0255): on AWS, 870 s / 28 s → 25 rows;
 * at 60 s per row, 13.
 */
export const chunkSizeFor = (jobBudgetMs: number, rowTimeLimitMs: number) =>
  Math.max(1, Math.min(batchChunkSize, Math.floor(jobBudgetMs / rowTimeLimitMs) - 1));
export const defaultBatchConcurrency = 4;
export const maxBatchConcurrency = 16;

export const batchInputSchema = z
  .object({
    rows: z.array(z.record(z.string(), z.unknown())).min(1).max(maxBatchRows),
    concurrency: z.number().int().min(1).max(maxBatchConcurrency).optional(),
  })
  .strict();

type ActionScope = JobScope & { actionId: string };

/** A chunk of rows is one store item (DynamoDB: 400 KB), so one row's arguments are kept well inside it. */
export const maxRowArgumentBytes = 12 * 1024;

function refuseOversizedRows(rows: readonly Record<string, unknown>[], fromCsv: boolean) {
  const errors = rows.flatMap((row, index) => {
    const bytes = Buffer.byteLength(JSON.stringify(row));
    if (bytes <= maxRowArgumentBytes) return [];
    const number = fromCsv ? index + 2 : index;
    return [
      {
        pointer: `#/rows/${number}`,
        detail: `The row's arguments are ${bytes} bytes; at most ${maxRowArgumentBytes}.`,
      },
    ];
  });
  if (errors.length > 0) {
    throw new DoguError(
      'payload_too_large',
      `${errors.length} row(s) are larger than ${maxRowArgumentBytes} bytes; run such rows one by one.`,
      { errors: errors.slice(0, 100) },
    );
  }
}

async function executableAction(
  deps: SchedulingDeps,
  principal: Principal,
  scope: ActionScope,
): Promise<Action> {
  const { action, environment } = await resolveExecutableAction(deps.store, principal, scope);
  await refuseUnpublishedSecretReads(deps, action, environment.id);
  if (action.review?.required) {
    throw new DoguError(
      'state_conflict',
      `Action '${action.id}' requires a review before each run; it cannot run as a batch.`,
    );
  }
  return action;
}

export async function batchTemplate(deps: SchedulingDeps, principal: Principal, scope: ActionScope) {
  const { action } = await resolveExecutableAction(deps.store, principal, scope);
  return batchTemplateCsv(action.parameters);
}

/** Rows from the form (JSON) or a CSV file; every bad cell is reported at once, nothing runs until all are valid. */
export async function createBatch(
  deps: SchedulingDeps,
  principal: Principal,
  scope: ActionScope,
  input: { rows: Record<string, unknown>[] } | { csv: string },
  options: { concurrency?: number; confirmation?: { confirmed: boolean } } = {},
) {
  const action = await executableAction(deps, principal, scope);
  const masterData = await masterDataOf(deps, action);
  let rows: Record<string, unknown>[];
  if ('csv' in input) {
    // The parser checks every row against the parameters as it converts them.
    rows = parseBatchCsv(input.csv, action.parameters, masterData, { maxRows: maxBatchRows }).rows;
    refuseOversizedRows(rows, true);
  } else {
    rows = input.rows;
    refuseOversizedRows(rows, false);
    validateBatchRows(action.parameters, rows, masterData);
  }
  if (rows.length === 0) throw new DoguError('argument_invalid', 'The batch has no rows.');
  if (options.confirmation) {
    // The confirmation names the batch's size, not every row's arguments.
    requireConfirmation(action, scope.environmentId, { rows: rows.length }, options.confirmation.confirmed);
  }
  const now = deps.clock.now().toISOString();
  const id = deps.ids.next('bat');
  const chunks: BatchChunk[] = [];
  const rowTimeLimitMs = deps.maxExecutionMs;
  const chunkSize = chunkSizeFor(deps.maxJobExecutionMs, rowTimeLimitMs);
  for (let start = 0; start < rows.length; start += chunkSize) {
    chunks.push({
      batchId: id,
      index: chunks.length,
      status: 'waiting',
      version: 1,
      rows: rows.slice(start, start + chunkSize).map(
        (args, offset): BatchRow => ({
          index: start + offset,
          arguments: args,
          status: 'waiting',
          attempt: 1,
        }),
      ),
    });
  }
  const batch: Batch = {
    id,
    projectId: scope.projectId,
    environmentId: scope.environmentId,
    actionId: action.id,
    executor: { kind: principal.kind, id: principal.id, email: principal.email },
    createdBy: { id: principal.id, email: principal.email },
    status: 'running',
    attempt: 1,
    rowCount: rows.length,
    source: 'csv' in input ? 'csv' : 'rows',
    chunkSize,
    rowTimeLimitMs,
    chunkCount: chunks.length,
    concurrency: options.concurrency ?? defaultBatchConcurrency,
    createdAt: now,
    updatedAt: now,
  };
  await deps.schedules.createBatch(batch, chunks);
  await deps.jobs.startBatch(batch, batch.attempt);
  return { batch, progress: progressOf(chunks) };
}

async function loadBatch(deps: SchedulingDeps, scope: JobScope, batchId: string) {
  const batch = await deps.schedules.getBatch(scope.projectId, batchId);
  if (!batch || batch.environmentId !== scope.environmentId) throw notFound('Batch', batchId);
  return batch;
}

export async function getBatch(deps: SchedulingDeps, principal: Principal, scope: JobScope, batchId: string) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  const batch = await loadBatch(deps, scope, batchId);
  const chunks = await deps.schedules.listBatchChunks(batchId);
  // A waiting row's planned execution id is the runner's bookkeeping, not an execution to look at yet.
  return { batch, progress: progressOf(chunks), rows: chunks.flatMap((c) => c.rows.map(unplanned)) };
}

export async function listBatches(deps: SchedulingDeps, principal: Principal, scope: JobScope) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  const batches = await deps.schedules.listBatches(scope.projectId, scope.environmentId);
  return Promise.all(
    batches.map(async (batch) => ({
      ...batch,
      progress: batch.progress ?? progressOf(await deps.schedules.listBatchChunks(batch.id)),
    })),
  );
}

/** Failed rows run again (a new attempt each); only once the batch has finished. */
export async function retryFailedRows(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  batchId: string,
) {
  await authorize(deps.store, principal, scope.projectId, 'execute');
  const batch = await loadBatch(deps, scope, batchId);
  await executableAction(deps, principal, { ...scope, actionId: batch.actionId });
  if (batch.status !== 'finished') {
    throw new DoguError(
      'state_conflict',
      `Batch '${batchId}' is ${batch.status}; retry failed rows once it has finished.`,
    );
  }
  let retried = 0;
  for (const chunk of await deps.schedules.listBatchChunks(batchId)) {
    if (!chunk.rows.some((r) => r.status === 'failure')) continue;
    const rows = chunk.rows.map((row): BatchRow => {
      if (row.status !== 'failure') return row;
      retried++;
      return { index: row.index, arguments: row.arguments, status: 'waiting', attempt: row.attempt + 1 };
    });
    const next: BatchChunk = {
      batchId,
      index: chunk.index,
      rows,
      status: 'waiting',
      version: chunk.version + 1,
    };
    if (!(await deps.schedules.saveBatchChunk(next, chunk.version))) {
      throw new DoguError('state_conflict', `Batch '${batchId}' changed while retrying; try again.`);
    }
  }
  if (retried === 0) throw new DoguError('state_conflict', `Batch '${batchId}' has no failed rows.`);
  const { finishedAt: _f, progress: _p, ...rest } = batch;
  const running: Batch = {
    ...rest,
    status: 'running',
    attempt: batch.attempt + 1,
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.schedules.putBatch(running);
  await deps.jobs.startBatch(running, running.attempt);
  return { batch: running, retried };
}

export async function batchResults(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  batchId: string,
) {
  const { batch, rows } = await getBatch(deps, principal, scope, batchId);
  const action = await deps.store.getAction(scope.projectId, batch.actionId);
  return { batch, csv: batchResultsCsv(action?.parameters ?? [], rows) };
}

export { finishBatch };
