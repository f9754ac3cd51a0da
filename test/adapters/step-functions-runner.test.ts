/** The Step Functions job runner against a mocked SFNClient: the exact StartExecution requests. */
import { ExecutionAlreadyExists, InvalidName, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createAwsScheduling, schedulingEnv } from '../../shared/adapters/aws/aws-scheduling.ts';
import { StepFunctionsJobRunner } from '../../shared/adapters/aws/step-functions-runner.ts';
import type { Batch } from '../../shared/domain/scheduling/model.ts';

const sfn = mockClient(SFNClient);
afterEach(() => sfn.reset());

const asyncArn = 'arn:aws:states:ap-northeast-1:123456789012:stateMachine:AsyncExecutions';
const batchArn = 'arn:aws:states:ap-northeast-1:123456789012:stateMachine:Batches';
const runner = () =>
  new StepFunctionsJobRunner({
    client: new SFNClient({}),
    asyncExecutionStateMachineArn: asyncArn,
    batchStateMachineArn: batchArn,
  });

const batch: Batch = {
  id: 'bat_0193a2b4',
  projectId: 'prj_1',
  environmentId: 'env_1',
  actionId: 'act_1',
  executor: { kind: 'user', id: 'usr_1', email: 'ops@example.com' },
  createdBy: { id: 'usr_1', email: 'ops@example.com' },
  status: 'waiting',
  attempt: 1,
  rowCount: 450,
  chunkSize: 100,
  chunkCount: 5,
  concurrency: 3,
  createdAt: '2026-11-22T00:00:00.000Z',
  updatedAt: '2026-11-22T00:00:00.000Z',
};

const startInputs = () => sfn.commandCalls(StartExecutionCommand).map((call) => call.args[0].input);

describe('StepFunctionsJobRunner', () => {
  it('starts the async-execution machine named after the execution, with the job as input', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:exe', startDate: new Date() });
    await runner().startExecution({ projectId: 'prj_1', environmentId: 'env_1', executionId: 'exe_0193' });
    expect(startInputs()).toEqual([
      {
        stateMachineArn: asyncArn,
        name: 'exe_0193',
        input: JSON.stringify({ projectId: 'prj_1', environmentId: 'env_1', executionId: 'exe_0193' }),
      },
    ]);
  });

  it("passes a job's own limit on, for the machine's choice of worker (decision 0075)", async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:exe', startDate: new Date() });
    await runner().startExecution({
      projectId: 'prj_1',
      environmentId: 'env_1',
      executionId: 'exe_0194',
      timeLimitMs: 1_800_000,
    });
    expect(startInputs()).toEqual([
      {
        stateMachineArn: asyncArn,
        name: 'exe_0194',
        input: JSON.stringify({
          projectId: 'prj_1',
          environmentId: 'env_1',
          executionId: 'exe_0194',
          timeLimitMs: 1_800_000,
        }),
      },
    ]);
  });

  it('starts the batch machine named <batchId>-<attempt> with every chunk index and the concurrency', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:exe', startDate: new Date() });
    await runner().startBatch(batch, 2);
    expect(startInputs()).toEqual([
      {
        stateMachineArn: batchArn,
        name: 'bat_0193a2b4-2',
        input: JSON.stringify({
          projectId: 'prj_1',
          batchId: 'bat_0193a2b4',
          chunks: [0, 1, 2, 3, 4],
          concurrency: 3,
        }),
      },
    ]);
  });

  it('treats ExecutionAlreadyExists as started (a repeated start is idempotent)', async () => {
    sfn
      .on(StartExecutionCommand)
      .rejects(new ExecutionAlreadyExists({ message: 'Execution Already Exists', $metadata: {} }));
    await expect(
      runner().startExecution({ projectId: 'prj_1', environmentId: 'env_1', executionId: 'exe_0193' }),
    ).resolves.toBeUndefined();
    await expect(runner().startBatch(batch, 1)).resolves.toBeUndefined();
    expect(startInputs()).toHaveLength(2);
  });

  it('passes on other errors', async () => {
    sfn.on(StartExecutionCommand).rejects(new InvalidName({ message: 'Invalid Name', $metadata: {} }));
    await expect(runner().startBatch(batch, 1)).rejects.toBeInstanceOf(InvalidName);
  });

  it('refuses an execution name Step Functions would reject, before calling it', async () => {
    await expect(
      runner().startExecution({ projectId: 'prj_1', environmentId: 'env_1', executionId: 'exe:1' }),
    ).rejects.toThrow("'exe:1' cannot name a Step Functions execution");
    await expect(runner().startBatch({ ...batch, id: 'b'.repeat(80) }, 1)).rejects.toThrow('cannot name');
    expect(startInputs()).toEqual([]);
  });
});

describe('createAwsScheduling', () => {
  it('builds the adapters from the environment on first use and names a missing variable', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:exe', startDate: new Date() });
    const env = {
      [schedulingEnv.asyncExecutionStateMachineArn]: asyncArn,
      [schedulingEnv.batchStateMachineArn]: batchArn,
    };
    const { scheduler, jobs } = createAwsScheduling(env);
    await jobs.startBatch(batch, 1);
    expect(startInputs()[0]?.stateMachineArn).toBe(batchArn);
    // The scheduler's variables are absent (as on a worker Lambda): only using it fails, and says why.
    expect(() => scheduler.putCronJob).toThrow(
      'Environment variable DOGU_SCHEDULER_GROUP_PREFIX is not set (EventBridge Scheduler).',
    );
  });
});
