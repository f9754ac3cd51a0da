/**
 * Running a batch: one action, many argument sets (spec 2.7). Rows are stored in chunks; a runner
 * claims a chunk with a conditional write (so no two runners run it) and, in the same write, gives
 * every waiting row the execution id it will run under. A row's execution is recorded as running
 * before anything of it runs (decision 0056), so that record — not a chunk write per row — is what
 * tells after a crash whether a row started (decision 0200). Outcomes are written back to the chunk
 * every `progressSaveMs` and when it ends. After a crash a chunk left running is recovered: a row
 * whose execution ended takes that outcome; a row whose execution is still recorded running is
 * marked failed as interrupted (it may have run: never run twice without a person deciding); a row
 * with no execution record never started and waits again. Row statuses: waiting → running →
 * success | failure; failure → waiting on retry.
 */
import { DoguError } from '../errors.ts';
import { executeAction } from '../execute-action.ts';
import type { NotificationEvent } from '../notifications/model.ts';
import type { SchedulingDeps } from '../scheduling/deps.ts';
import { principalOfExecutor } from '../scheduling/executor.ts';
import type { Batch, BatchChunk, BatchProgress, BatchRow } from '../scheduling/model.ts';
import { failedBeforeRun, type OneAtATime, runRowGroup } from './run-row-group.ts';

/** A chunk claimed longer ago than this is taken over (its runner died: a Lambda timeout, a crash). */
export const staleChunkMs = 16 * 60_000;

export async function runBatchChunk(
  deps: SchedulingDeps,
  target: { projectId: string; batchId: string; chunk: number; runnerId: string },
): Promise<void> {
  const batch = await deps.schedules.getBatch(target.projectId, target.batchId);
  if (!batch || batch.status === 'cancelled') return;
  let chunk = await deps.schedules.getBatchChunk(target.batchId, target.chunk);
  if (!chunk) return;
  if (chunk.status === 'running' && isStale(chunk, deps.clock.now())) {
    chunk = await recoverChunk(deps, chunk);
    if (!chunk) return;
  }
  if (chunk.status !== 'waiting') return;
  const claimed: BatchChunk = {
    ...chunk,
    status: 'running',
    claimedBy: target.runnerId,
    claimedAt: deps.clock.now().toISOString(),
    rows: planExecutions(deps, chunk.rows),
    version: chunk.version + 1,
  };
  if (!(await deps.schedules.saveBatchChunk(claimed, chunk.version))) return;
  await runClaimedChunk(deps, batch, claimed);
}

/**
 * How often a running chunk writes its rows' outcomes back (progress for the console; a crash in
 * between loses nothing, recovery reads the outcomes from the execution records).
 */
export const progressSaveMs = 250;

/** A runner starts no row this close to the time its claim may be taken over (clocks of two runners differ). */
const takeoverMarginMs = 60_000;

async function runClaimedChunk(deps: SchedulingDeps, batch: Batch, claimed: BatchChunk) {
  let chunk = claimed;
  const save = async (next: BatchChunk) => {
    const saved = { ...next, version: chunk.version + 1 };
    if (!(await deps.schedules.saveBatchChunk(saved, chunk.version))) {
      throw new DoguError('state_conflict', `Chunk ${chunk.index} of batch ${batch.id} was taken over.`);
    }
    chunk = saved;
  };
  let principal: Awaited<ReturnType<typeof principalOfExecutor>> | undefined;
  let executorProblem: string | undefined;
  try {
    principal = await principalOfExecutor(deps, batch.projectId, batch.executor);
  } catch (error) {
    executorProblem = error instanceof Error ? error.message : String(error);
  }
  const rows = [...chunk.rows];
  const claimedAt = new Date(claimed.claimedAt ?? deps.clock.now()).getTime();
  let savedAt = deps.clock.now().getTime();
  // Rows go to the engine as one group while it can take them (decision 0255); else one at a time.
  let grouping = true;
  try {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row.status !== 'waiting') continue;
      if (!principal) {
        rows[i] = failed(row, { code: 'forbidden', message: executorProblem! });
        continue;
      }
      const now = deps.clock.now().getTime();
      if (now - claimedAt > staleChunkMs - takeoverMarginMs) {
        // Another runner may soon take this chunk over: hand the rows not started back instead.
        await save({ ...chunk, rows: rows.map(unplanned), status: 'waiting' });
        return;
      }
      const group = grouping ? waitingFrom(rows, i) : [i];
      if (now - savedAt >= progressSaveMs) {
        // The rows about to run are shown running; the write also notices a takeover early.
        const shown = rows.map((r, at) => (group.includes(at) ? { ...r, status: 'running' as const } : r));
        await save({ ...chunk, rows: shown });
        savedAt = now;
      }
      const running = group.map((at) => ({ ...rows[at]!, status: 'running' as const }));
      if (group.length > 1) {
        const outcome = await runRowGroup(deps, batch, principal, running).catch(
          (): OneAtATime => 'rolled_back',
        );
        // Not grouped, or rolled back as a whole: the rest of the chunk runs one row at a time.
        if (typeof outcome === 'string') grouping = false;
        else {
          group.forEach((at, k) => {
            rows[at] = outcome[k]!;
          });
          i = group.at(-1)!;
          continue;
        }
      }
      rows[i] = await runRow(deps, batch, principal, running[0]!);
    }
    await save({ ...chunk, rows, status: 'done' });
  } catch (error) {
    if (!(error instanceof DoguError && error.code === 'state_conflict')) throw error;
  }
}

/** The indexes of the waiting rows from `start` on (the rest of the chunk: one group). */
function waitingFrom(rows: readonly BatchRow[], start: number): number[] {
  const indexes: number[] = [];
  for (let at = start; at < rows.length; at++) if (rows[at]!.status === 'waiting') indexes.push(at);
  return indexes;
}

const failed = (row: BatchRow, error: { code: string; message: string }): BatchRow => {
  const { executionId: _planned, ...rest } = row;
  return { ...rest, status: 'failure', error };
};

/** A waiting row keeps no execution id: it gets a new one when its chunk is claimed again. */
export function unplanned(row: BatchRow): BatchRow {
  if (row.status !== 'waiting' || row.executionId === undefined) return row;
  const { executionId: _planned, ...rest } = row;
  return rest;
}

/** The claim names the execution every waiting row will run under (one write for the whole chunk). */
export function planExecutions(deps: Pick<SchedulingDeps, 'ids'>, rows: readonly BatchRow[]): BatchRow[] {
  return rows.map((row) => (row.status === 'waiting' ? { ...row, executionId: deps.ids.next('exe') } : row));
}

async function runRow(
  deps: SchedulingDeps,
  batch: Batch,
  principal: Awaited<ReturnType<typeof principalOfExecutor>>,
  row: BatchRow,
): Promise<BatchRow> {
  try {
    const outcome = await executeAction(deps, {
      principal,
      projectId: batch.projectId,
      environmentId: batch.environmentId,
      actionId: batch.actionId,
      arguments: row.arguments,
      via: 'batch',
      executionId: row.executionId!,
      // The limit the chunk size was chosen for, never more than this runtime's own.
      maxExecutionMs: Math.min(batch.rowTimeLimitMs ?? deps.maxExecutionMs, deps.maxExecutionMs),
      origin: { batchId: batch.id, row: row.index },
    });
    if (outcome.kind !== 'executed') {
      return {
        ...row,
        status: 'failure',
        error: { code: 'state_conflict', message: 'The action now requires review.' },
      };
    }
    const { execution } = outcome;
    return execution.status === 'succeeded'
      ? { ...row, status: 'success' }
      : {
          ...row,
          status: 'failure',
          error: execution.error ?? { code: 'failed', message: execution.status },
        };
  } catch (error) {
    return failedBeforeRun(row, error);
  }
}

const isStale = (chunk: BatchChunk, now: Date) =>
  !chunk.claimedAt || now.getTime() - new Date(chunk.claimedAt).getTime() > staleChunkMs;

/** Settles the rows a dead runner left started, and puts the chunk back to waiting (or done). */
export async function recoverChunk(deps: SchedulingDeps, chunk: BatchChunk): Promise<BatchChunk | undefined> {
  const rows: BatchRow[] = [];
  for (const row of chunk.rows) {
    const planned = row.status === 'waiting' && row.executionId !== undefined;
    if (row.status !== 'running' && !planned) {
      rows.push(row);
      continue;
    }
    const execution = row.executionId ? await deps.executions.getExecution(row.executionId) : undefined;
    if (!execution) {
      // Its execution was never recorded running, so nothing of it ran (the record is written before
      // anything runs, decision 0056): it waits for the next claim.
      const { executionId: _none, ...rest } = row;
      rows.push({ ...rest, status: 'waiting' });
    } else if (execution && execution.status !== 'running' && execution.status !== 'queued') {
      rows.push(
        execution.status === 'succeeded'
          ? { ...row, status: 'success' }
          : {
              ...row,
              status: 'failure',
              error: execution.error ?? { code: 'failed', message: execution.status },
            },
      );
    } else {
      rows.push({
        ...row,
        status: 'failure',
        error: {
          code: 'interrupted',
          message:
            'Interrupted: the runner stopped while this row ran. It may have run; check before retrying.',
        },
      });
    }
  }
  const next: BatchChunk = {
    batchId: chunk.batchId,
    index: chunk.index,
    rows,
    status: rows.some((r) => r.status === 'waiting') ? 'waiting' : 'done',
    version: chunk.version + 1,
  };
  return (await deps.schedules.saveBatchChunk(next, chunk.version)) ? next : undefined;
}

export function progressOf(chunks: readonly BatchChunk[]): BatchProgress {
  const progress: BatchProgress = { total: 0, waiting: 0, running: 0, success: 0, failure: 0 };
  for (const chunk of chunks) {
    for (const row of chunk.rows) {
      progress.total++;
      progress[row.status]++;
    }
  }
  return progress;
}

/**
 * After every chunk had its turn (the Map ended, or the local runner's workers): the batch is finished
 * with its counts. A chunk whose runner died is settled here; rows it never reached are failures with
 * the reason, so a person can retry them.
 */
export async function finishBatch(
  deps: SchedulingDeps,
  target: { projectId: string; batchId: string },
): Promise<Batch | undefined> {
  const batch = await deps.schedules.getBatch(target.projectId, target.batchId);
  if (!batch || batch.status === 'finished') return batch;
  const chunks: BatchChunk[] = [];
  for (const chunk of await deps.schedules.listBatchChunks(batch.id)) {
    chunks.push(chunk.status === 'done' ? chunk : await settleUnfinishedChunk(deps, chunk));
  }
  const now = deps.clock.now().toISOString();
  const finished: Batch = {
    ...batch,
    status: 'finished',
    progress: progressOf(chunks),
    finishedAt: now,
    updatedAt: now,
  };
  // Audited first: whoever sees the batch finished finds its entry.
  await auditBatchFinished(deps, finished);
  await deps.schedules.putBatch(finished);
  await deps.notifications?.notify(batchEvent(finished));
  return finished;
}

async function settleUnfinishedChunk(deps: SchedulingDeps, chunk: BatchChunk): Promise<BatchChunk> {
  const recovered = chunk.status === 'running' ? ((await recoverChunk(deps, chunk)) ?? chunk) : chunk;
  if (recovered.status === 'done') return recovered;
  const next: BatchChunk = {
    ...recovered,
    status: 'done',
    rows: recovered.rows.map((row) =>
      row.status === 'waiting' || row.status === 'running'
        ? {
            // Never run: no execution to point at (a planned id is dropped).
            ...unplanned({ ...row, status: 'waiting' }),
            status: 'failure',
            error: {
              code: 'not_run',
              message: 'Not run: the runner of its chunk stopped. Retry failed rows to run it.',
            },
          }
        : row,
    ),
    version: recovered.version + 1,
  };
  await deps.schedules.saveBatchChunk(next, recovered.version);
  return next;
}

/** At start-up of the embedded runtime: settle chunks left running and start the unfinished batches again. */
export async function recoverBatches(deps: SchedulingDeps): Promise<number> {
  let recovered = 0;
  for (const status of ['waiting', 'running'] as const) {
    for (const batch of await deps.schedules.listBatchesByStatus(status)) {
      for (const chunk of await deps.schedules.listBatchChunks(batch.id)) {
        if (chunk.status === 'running') await recoverChunk(deps, chunk);
      }
      await deps.jobs.startBatch(batch, batch.attempt);
      recovered++;
    }
  }
  return recovered;
}

/**
 * A batch is audited twice: `batch.create` (who started it, for which action) when it is posted, and
 * `batch.finish` with its counts here. Each row has its execution record (`via: batch`, its origin);
 * an audit entry per row would double the store writes of a 10,000-row batch and say nothing more.
 */
async function auditBatchFinished(deps: SchedulingDeps, batch: Batch) {
  try {
    await deps.audit.append({
      id: deps.ids.next('aud'),
      projectId: batch.projectId,
      at: deps.clock.now().toISOString(),
      actor: { kind: batch.executor.kind, id: batch.executor.id, email: batch.executor.email },
      event: 'batch.finish',
      target: { type: 'batch', id: batch.id },
      environmentId: batch.environmentId,
      outcome: batch.progress?.failure ? 'failed' : 'succeeded',
      details: { actionId: batch.actionId, attempt: batch.attempt, ...batch.progress },
    });
  } catch {
    // The batch finished; a missing entry must not undo that.
  }
}

function batchEvent(batch: Batch): NotificationEvent {
  const progress = batch.progress ?? { total: batch.rowCount, success: 0, failure: 0 };
  return {
    projectId: batch.projectId,
    environmentId: batch.environmentId,
    // Keyed by the action: a success of the next batch of the same action is a recovery.
    subject: { kind: 'batch', id: batch.actionId, actionId: batch.actionId, name: batch.actionId },
    outcome: progress.failure > 0 ? 'failed' : 'succeeded',
    occurredAt: batch.finishedAt ?? batch.updatedAt,
    batch: {
      id: batch.id,
      progress: { total: progress.total, success: progress.success, failure: progress.failure },
    },
  };
}
