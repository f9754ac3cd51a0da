/**
 * The JobRunner port on AWS: Standard Step Functions state machines (infra/scheduling.ts). Standard,
 * not Express, because its StartExecution is idempotent by name, which makes every start safe to repeat.
 */
import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { Batch } from '../../domain/scheduling/model.ts';
import type { HandedOffCronRun, JobRunner } from '../../domain/scheduling/ports.ts';

export interface StepFunctionsJobRunnerOptions {
  client: SFNClient;
  /** Runs one asynchronous execution (functions/run-job.ts). */
  asyncExecutionStateMachineArn: string;
  /** Runs the chunks of a batch in a Distributed Map, then finishes it (functions/run-batch-chunk.ts, finish-batch.ts). */
  batchStateMachineArn: string;
}

/**
 * Input of the async-execution state machine, passed unchanged to functions/run-job.ts (and, as
 * DOGU_JOB_INPUT, to the long-job build). `executionId` names the job's reservation (an asynchronous
 * job's is its execution id; a reservation handed over from scheduled-run, its own id), or, with
 * `cronRun`, the execution of a claimed cron run (decision 0101).
 */
export interface AsyncExecutionInput {
  projectId: string;
  environmentId: string;
  executionId: string;
  /** A cron run handed over by scheduled-run because its limit is above a Lambda's budget. */
  cronRun?: HandedOffCronRun;
  /**
   * The job's own limit, if it asked for one: above Lambda's budget the state machine runs it on
   * CodeBuild (infra/scheduling.ts, decision 0075).
   */
  timeLimitMs?: number;
}

/** Input of the batch state machine: the Map iterates `chunks` with at most `concurrency` at once. */
export interface BatchInput {
  projectId: string;
  batchId: string;
  chunks: number[];
  concurrency: number;
}

export class StepFunctionsJobRunner implements JobRunner {
  readonly #options: StepFunctionsJobRunnerOptions;

  constructor(options: StepFunctionsJobRunnerOptions) {
    this.#options = options;
  }

  async startExecution(job: AsyncExecutionInput): Promise<void> {
    const input: AsyncExecutionInput = {
      projectId: job.projectId,
      environmentId: job.environmentId,
      executionId: job.executionId,
      ...(job.timeLimitMs !== undefined ? { timeLimitMs: job.timeLimitMs } : {}),
      ...(job.cronRun ? { cronRun: { jobId: job.cronRun.jobId, scheduledAt: job.cronRun.scheduledAt } } : {}),
    };
    await this.#start(this.#options.asyncExecutionStateMachineArn, executionName(job.executionId), input);
  }

  async startBatch(batch: Batch, attempt: number): Promise<void> {
    const input: BatchInput = {
      projectId: batch.projectId,
      batchId: batch.id,
      chunks: Array.from({ length: batch.chunkCount }, (_, index) => index),
      concurrency: batch.concurrency,
    };
    await this.#start(this.#options.batchStateMachineArn, executionName(`${batch.id}-${attempt}`), input);
  }

  async #start(stateMachineArn: string, name: string, input: object): Promise<void> {
    try {
      await this.#options.client.send(
        new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }),
      );
    } catch (error) {
      // The same name was started before (a retried request, a duplicate delivery): it runs, or ran,
      // already. Execution names stay taken for 90 days, longer than any retry.
      if (error instanceof ExecutionAlreadyExists) return;
      throw error;
    }
  }
}

/** Execution names: 1–80 characters, none of whitespace and `<>{}[]?*"#%\^|~`$&,;:/`. */
function executionName(name: string): string {
  if (name.length > 80 || !/^[0-9a-zA-Z_.-]+$/.test(name)) {
    throw new Error(
      `'${name}' cannot name a Step Functions execution (1–80 of letters, digits, '-', '_', '.').`,
    );
  }
  return name;
}
