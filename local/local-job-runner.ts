/**
 * The embedded runtime's job runner: asynchronous executions and batches run in this process with
 * the same limits and statuses as on AWS. A batch runs its waiting chunks with its own bounded
 * concurrency; claims in the store make a second start of the same batch harmless.
 */
import { finishBatch, runBatchChunk } from '../shared/domain/batch/run-batch.ts';
import { runQueuedExecution } from '../shared/domain/scheduling/async-executions.ts';
import { runHandedOffCronRun } from '../shared/domain/scheduling/cron-runs.ts';
import type { SchedulingDeps } from '../shared/domain/scheduling/deps.ts';
import type { Batch } from '../shared/domain/scheduling/model.ts';
import type { JobRunner } from '../shared/domain/scheduling/ports.ts';

export class LocalJobRunner implements JobRunner {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly batchesRunning = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly deps: () => SchedulingDeps,
    private readonly runnerId: string,
    private readonly onError: (error: unknown, what: string) => void = () => {},
  ) {}

  async startExecution(job: Parameters<JobRunner['startExecution']>[0]): Promise<void> {
    // A handed-off cron run (a worker with a smaller budget passed it on: decision 0101).
    const work = job.cronRun
      ? runHandedOffCronRun(this.deps(), {
          ...job.cronRun,
          projectId: job.projectId,
          executionId: job.executionId,
        })
      : runQueuedExecution(this.deps(), job);
    this.track(work, `execution ${job.executionId}`);
  }

  async startBatch(batch: Batch, _attempt: number): Promise<void> {
    const previous = this.batchesRunning.get(batch.id) ?? Promise.resolve();
    // A retry while the previous pass still runs waits for it, then picks up the chunks left waiting.
    const run = previous.then(() => this.runBatch(batch));
    this.batchesRunning.set(batch.id, run);
    this.track(
      run.finally(() => {
        if (this.batchesRunning.get(batch.id) === run) this.batchesRunning.delete(batch.id);
      }),
      `batch ${batch.id}`,
    );
  }

  private async runBatch(batch: Batch) {
    const deps = this.deps();
    let next = 0;
    const worker = async () => {
      while (!this.closed && next < batch.chunkCount) {
        const chunk = next++;
        await runBatchChunk(deps, {
          projectId: batch.projectId,
          batchId: batch.id,
          chunk,
          runnerId: this.runnerId,
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(batch.concurrency, batch.chunkCount) }, worker));
    if (!this.closed) await finishBatch(deps, { projectId: batch.projectId, batchId: batch.id });
  }

  private track(work: Promise<unknown>, what: string) {
    const tracked = work
      .catch((error) => this.onError(error, what))
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /**
   * Stops taking new chunks and waits a while for the rows and jobs already running. A job still
   * running after that is settled at the next start (recorded as interrupted, never run twice).
   */
  async close(waitMs = 5_000): Promise<void> {
    this.closed = true;
    const settled = Promise.allSettled([...this.inFlight]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  /** Resolves when nothing is running (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
