/**
 * Nothing stuck (decision 0056): every Task of the state machines has a Catch that leads to a step
 * recording the failure, so no run or batch stays `running` because its worker failed.
 *
 * - async execution: RunExecution (or RunLongExecution, decision 0075) fails → EndFailedJob (the sweeper with `failedJob`) → Fail.
 * - batch chunk: RunChunk fails → ChunkFailed (a Pass: the item ends; FinishBatch settles its rows).
 * - batch: the Map fails → FinishBatch anyway; FinishBatch fails → EndFailedBatch → Fail.
 * The end steps have a Catch too (to a Fail state), so even their failure ends the execution visibly.
 */
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import {
  type DistributedMap,
  Fail,
  type IChainable,
  JsonPath,
  Pass,
  TaskInput,
  type TaskStateBase,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';

const lambdaServiceErrors = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

export function catchFailures(scope: Construct, sweeper: IFunction) {
  const endStep = (id: string, payload: Record<string, unknown>, failed: string) =>
    new LambdaInvoke(scope, id, {
      lambdaFunction: sweeper,
      payloadResponseOnly: true,
      payload: TaskInput.fromObject(payload),
      retryOnServiceExceptions: false,
      resultPath: JsonPath.DISCARD,
    })
      .addRetry({
        errors: lambdaServiceErrors,
        interval: Duration.seconds(2),
        maxAttempts: 6,
        backoffRate: 2,
      })
      .addCatch(
        new Fail(scope, `${id}Failed`, {
          error: 'EndStepFailed',
          cause: `${id} could not record the failure`,
        }),
      )
      .next(new Fail(scope, failed, { error: 'WorkerFailed', cause: 'The failure was recorded' }));

  // One end step for every task of a job (the Lambda and the CodeBuild one), made on first use.
  let endFailedJob: ReturnType<typeof endStep> | undefined;
  return {
    job(task: TaskStateBase): TaskStateBase {
      endFailedJob ??= endStep(
        'EndFailedJob',
        {
          failedJob: {
            projectId: JsonPath.stringAt('$.projectId'),
            executionId: JsonPath.stringAt('$.executionId'),
            cause: JsonPath.stringAt('$.failure.Error'),
            // The whole input: a handed-off cron run is named there (decision 0101); a path to an
            // optional field would fail the step when it is absent.
            job: JsonPath.entirePayload,
          },
        },
        'JobFailed',
      );
      return task.addCatch(endFailedJob, { resultPath: '$.failure' });
    },
    chunk(task: TaskStateBase): TaskStateBase {
      // The chunk's rows stay unfinished; FinishBatch records them as not run (a person may retry).
      return task.addCatch(new Pass(scope, 'ChunkFailed'), { resultPath: JsonPath.DISCARD });
    },
    finish(task: TaskStateBase): TaskStateBase {
      return task.addCatch(
        endStep(
          'EndFailedBatch',
          {
            failedBatch: {
              projectId: JsonPath.stringAt('$.projectId'),
              batchId: JsonPath.stringAt('$.batchId'),
            },
          },
          'BatchFailed',
        ),
        { resultPath: '$.failure' },
      );
    },
    batch(chunks: DistributedMap, finish: TaskStateBase): IChainable {
      // The Map itself failing (its run could not start, a limit) still finishes the batch.
      chunks.addCatch(finish, { resultPath: '$.failure' });
      return chunks.next(finish);
    },
  };
}
