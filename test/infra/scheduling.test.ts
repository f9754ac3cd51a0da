/**
 * The synthesized scheduling resources of the Dogu stack: worker Lambdas, the scheduler's role and
 * dead-letter queue, the two state machines and the grants and variables the API Lambdas need.
 * Expected names come from shared/ (the adapters' variable names), not from infra/.
 */
import { isDeepStrictEqual } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import type { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import { longJobEnv } from '../../functions/run-long-job.ts';
import { DoguStack } from '../../infra/dogu-stack.ts';
import { composedGroups } from '../../infra/function-needs.ts';
import { jobMaxExecutionMs } from '../../infra/scheduling.ts';
import { schedulingEnv } from '../../shared/adapters/aws/aws-scheduling.ts';

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
  Principal?: unknown;
}

const env = { account: '123456789012', region: 'ap-northeast-1' };
let stack: DoguStack;
let template: Template;
let devStack: DoguStack;
let devTemplate: Template;

beforeAll(() => {
  // No bundling: only the resources are read here; test/infra/dogu-stack.test.ts bundles every entry.
  const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new DoguStack(app, 'Dogu-production', { stage: 'production', env });
  devStack = new DoguStack(app, 'Dogu-development', { stage: 'development', env });
  template = Template.fromStack(stack);
  devTemplate = Template.fromStack(devStack);
}, 180_000);

const resources = (t: Template = template) => t.toJSON().Resources as Record<string, Resource>;
const idOf = (construct: { node: { defaultChild?: unknown } }, s: DoguStack = stack) =>
  s.getLogicalId(construct.node.defaultChild as CfnFunction | CfnQueue | CfnStateMachine | CfnRole);
const resourceOf = (construct: { node: { defaultChild?: unknown } }) => {
  const resource = resources()[idOf(construct)];
  expect(resource).toBeDefined();
  return resource!;
};
const arnOf = (construct: IFunction | { node: { defaultChild?: unknown } }) => ({
  'Fn::GetAtt': [idOf(construct), 'Arn'],
});

/** Statements of the inline policies attached to a role (by logical id). */
function statementsOfRole(roleId: string, t: Template = template): Statement[] {
  return Object.values(resources(t))
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => (r.Properties.Roles as unknown[]).some((role) => isDeepStrictEqual(role, { Ref: roleId })))
    .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

const roleIdOf = (fn: IFunction) =>
  (resourceOf(fn).Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

const allows = (statements: Statement[], action: string, resource: unknown) =>
  statements.some(
    (s) =>
      s.Effect === 'Allow' &&
      [s.Action].flat().includes(action) &&
      [s.Resource].flat().some((r) => isDeepStrictEqual(r, resource)),
  );

/**
 * The state machine's definition with each token written as `<GetAtt:id>` / `<Ref:id>`, then parsed:
 * CloudFormation joins the JSON around the function ARNs.
 */
function definitionOf(stateMachine: { node: { defaultChild?: unknown } }): Record<string, unknown> {
  const parts = (resourceOf(stateMachine).Properties.DefinitionString as { 'Fn::Join': [string, unknown[]] })[
    'Fn::Join'
  ][1];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const token = part as Record<string, unknown>;
      if (token['Fn::GetAtt']) return `<GetAtt:${(token['Fn::GetAtt'] as string[])[0]}>`;
      return `<Ref:${token.Ref as string}>`;
    })
    .join('');
  return JSON.parse(text) as Record<string, unknown>;
}

const serviceErrorRetry = [
  {
    ErrorEquals: [
      'Lambda.ServiceException',
      'Lambda.AWSLambdaException',
      'Lambda.SdkClientException',
      'Lambda.TooManyRequestsException',
    ],
    IntervalSeconds: 2,
    MaxAttempts: 6,
    BackoffRate: 2,
  },
];

describe('worker Lambdas', () => {
  it('run the four entry points with the job timeouts: 15 minutes (the Lambda maximum) for work, 1 for finishing', () => {
    const { scheduledRun, runJob, runBatchChunk, finishBatch } = stack.scheduling;
    expect(resourceOf(scheduledRun).Properties.Timeout).toBe(900);
    expect(resourceOf(runJob).Properties.Timeout).toBe(900);
    expect(resourceOf(runBatchChunk).Properties.Timeout).toBe(900);
    expect(resourceOf(finishBatch).Properties.Timeout).toBe(60);
    for (const fn of stack.scheduling.functions) {
      expect(resourceOf(fn).Properties.Runtime).toBe('nodejs22.x');
      expect(resourceOf(fn).Properties.Handler).toBe('index.handler');
    }
  });

  it('get the runtime environment, with the full minute per run and the job limit before Lambda ends', () => {
    for (const fn of [
      stack.scheduling.scheduledRun,
      stack.scheduling.runJob,
      stack.scheduling.runBatchChunk,
    ]) {
      const variables = (resourceOf(fn).Properties.Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(variables).toMatchObject({
        DOGU_TABLE_NAME: expect.anything(),
        DOGU_SIGNING_KEY_SECRET_ARN: expect.anything(),
        DOGU_SECRETS_KEY_ID: expect.anything(),
        DOGU_IDP_ISSUER: expect.anything(),
        DOGU_IDP_KEYS_SECRET_ARN: expect.anything(),
        DOGU_MAX_EXECUTION_MS: '60000',
        DOGU_MAX_JOB_EXECUTION_MS: '870000',
      });
      expect(Number(variables.DOGU_MAX_JOB_EXECUTION_MS)).toBeLessThan(900_000);
    }
  });

  it('may read and write the table and read the signing key', () => {
    const tableId = Object.entries(resources()).find(([, r]) => r.Type === 'AWS::DynamoDB::GlobalTable')![0];
    for (const fn of stack.scheduling.functions) {
      const statements = statementsOfRole(roleIdOf(fn));
      expect(allows(statements, 'dynamodb:PutItem', { 'Fn::GetAtt': [tableId, 'Arn'] })).toBe(true);
      expect(
        allows(statements, 'secretsmanager:GetSecretValue', { Ref: idOf(stack.signingKey.secret) }),
      ).toBe(true);
    }
  });

  it('the scheduled run may start both state machines and knows their ARNs', () => {
    const { scheduledRun, asyncExecutions, batches } = stack.scheduling;
    const variables = (
      resourceOf(scheduledRun).Properties.Environment as { Variables: Record<string, unknown> }
    ).Variables;
    expect(variables[schedulingEnv.asyncExecutionStateMachineArn]).toEqual({ Ref: idOf(asyncExecutions) });
    expect(variables[schedulingEnv.batchStateMachineArn]).toEqual({ Ref: idOf(batches) });
    const statements = statementsOfRole(roleIdOf(scheduledRun));
    expect(allows(statements, 'states:StartExecution', { Ref: idOf(asyncExecutions) })).toBe(true);
    expect(allows(statements, 'states:StartExecution', { Ref: idOf(batches) })).toBe(true);
  });

  it('the scheduled run retries a failed delivery twice within an hour, then sends it to the dead-letter queue', () => {
    const configs = Object.values(resources()).filter((r) => r.Type === 'AWS::Lambda::EventInvokeConfig');
    expect(configs).toHaveLength(1);
    expect(configs[0]!.Properties).toMatchObject({
      FunctionName: { Ref: idOf(stack.scheduling.scheduledRun) },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 3600,
      DestinationConfig: { OnFailure: { Destination: arnOf(stack.scheduling.deadLetterQueue) } },
    });
  });
});

describe('EventBridge Scheduler resources', () => {
  it('has an encrypted dead-letter queue that keeps messages for 14 days', () => {
    const queue = resourceOf(stack.scheduling.deadLetterQueue);
    expect(queue.Type).toBe('AWS::SQS::Queue');
    expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    const outputs = Object.values(template.toJSON().Outputs as Record<string, { Value: unknown }>);
    expect(outputs.map((output) => output.Value)).toContainEqual({
      Ref: idOf(stack.scheduling.deadLetterQueue),
    });
  });

  it('has a role only EventBridge Scheduler of this account assumes, allowed to invoke the scheduled run and dead-letter', () => {
    const role = resourceOf(stack.scheduling.schedulerRole);
    expect((role.Properties.AssumeRolePolicyDocument as { Statement: Statement[] }).Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': env.account } },
      },
    ]);
    const statements = statementsOfRole(idOf(stack.scheduling.schedulerRole));
    expect(allows(statements, 'lambda:InvokeFunction', arnOf(stack.scheduling.scheduledRun))).toBe(true);
    expect(allows(statements, 'lambda:InvokeFunction', arnOf(stack.scheduling.runJob))).toBe(false);
    expect(allows(statements, 'sqs:SendMessage', arnOf(stack.scheduling.deadLetterQueue))).toBe(true);
  });
});

describe('state machines', () => {
  it('async executions: Standard; a Choice on the job limit: a Lambda task retried on Lambda service errors only, or a CodeBuild build (decision 0075); 1-hour timeout', () => {
    const machine = resourceOf(stack.scheduling.asyncExecutions);
    expect(machine.Properties.StateMachineType).toBe('STANDARD');
    const sweeper = `<GetAtt:${idOf(stack.scheduling.sweeper.function)}>`;
    const catchToEnd = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'EndFailedJob' }];
    expect(definitionOf(stack.scheduling.asyncExecutions)).toEqual({
      StartAt: 'ChooseWorker',
      States: {
        ChooseWorker: {
          Type: 'Choice',
          Choices: [
            {
              And: [
                { Variable: '$.timeLimitMs', IsPresent: true },
                { Variable: '$.timeLimitMs', NumericGreaterThan: jobMaxExecutionMs },
              ],
              Next: 'RunLongExecution',
            },
          ],
          Default: 'RunExecution',
        },
        RunLongExecution: {
          Type: 'Task',
          Resource: 'arn:<Ref:AWS::Partition>:states:::codebuild:startBuild.sync',
          Parameters: {
            ProjectName: `<Ref:${idOf(stack.scheduling.longJobs.project)}>`,
            EnvironmentVariablesOverride: [
              { Name: longJobEnv.projectId, Type: 'PLAINTEXT', 'Value.$': '$.projectId' },
              { Name: longJobEnv.environmentId, Type: 'PLAINTEXT', 'Value.$': '$.environmentId' },
              { Name: longJobEnv.executionId, Type: 'PLAINTEXT', 'Value.$': '$.executionId' },
              // The whole input: a handed-off cron run is named there (decision 0101).
              { Name: longJobEnv.input, Type: 'PLAINTEXT', 'Value.$': 'States.JsonToString($)' },
            ],
          },
          // The build's queue time and 35 minutes, then a margin: after it the build is stopped.
          TimeoutSeconds: (10 + 35 + 5) * 60,
          ResultPath: null,
          Retry: [
            {
              ErrorEquals: ['CodeBuild.AccountLimitExceededException'],
              IntervalSeconds: 10,
              MaxAttempts: 6,
              BackoffRate: 2,
            },
          ],
          Catch: catchToEnd,
          End: true,
        },
        RunExecution: {
          Type: 'Task',
          Resource: `<GetAtt:${idOf(stack.scheduling.runJob)}>`,
          Retry: serviceErrorRetry,
          // A failed run (a crash, Lambda's 15 minutes) is recorded as failed, never left running.
          Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'EndFailedJob' }],
          End: true,
        },
        EndFailedJob: {
          Type: 'Task',
          Resource: sweeper,
          Parameters: {
            failedJob: {
              'projectId.$': '$.projectId',
              'executionId.$': '$.executionId',
              'cause.$': '$.failure.Error',
              'job.$': '$',
            },
          },
          ResultPath: null,
          Retry: serviceErrorRetry,
          Catch: [{ ErrorEquals: ['States.ALL'], Next: 'EndFailedJobFailed' }],
          Next: 'JobFailed',
        },
        EndFailedJobFailed: {
          Type: 'Fail',
          Error: 'EndStepFailed',
          Cause: 'EndFailedJob could not record the failure',
        },
        JobFailed: { Type: 'Fail', Error: 'WorkerFailed', Cause: 'The failure was recorded' },
      },
      TimeoutSeconds: 3600,
    });
  });

  it('batches: Standard, a Distributed Map over $.chunks at the input concurrency, then the finish Lambda', () => {
    const machine = resourceOf(stack.scheduling.batches);
    expect(machine.Properties.StateMachineType).toBe('STANDARD');
    const definition = definitionOf(stack.scheduling.batches);
    expect(definition.StartAt).toBe('RunChunks');
    expect(definition.TimeoutSeconds).toBe(7 * 24 * 3600);
    const states = definition.States as Record<string, Record<string, unknown>>;
    expect(states.RunChunks).toEqual({
      Type: 'Map',
      ItemsPath: '$.chunks',
      MaxConcurrencyPath: '$.concurrency',
      ItemSelector: {
        'projectId.$': '$.projectId',
        'batchId.$': '$.batchId',
        'chunk.$': '$$.Map.Item.Value',
      },
      ItemProcessor: {
        ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
        StartAt: 'RunChunk',
        States: {
          RunChunk: {
            Type: 'Task',
            Resource: `<GetAtt:${idOf(stack.scheduling.runBatchChunk)}>`,
            Retry: serviceErrorRetry,
            Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'ChunkFailed' }],
            End: true,
          },
          ChunkFailed: { Type: 'Pass', End: true },
        },
      },
      ToleratedFailurePercentage: 100,
      ResultPath: null,
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'FinishBatch' }],
      Next: 'FinishBatch',
    });
    expect(states.FinishBatch).toEqual({
      Type: 'Task',
      Resource: `<GetAtt:${idOf(stack.scheduling.finishBatch)}>`,
      Parameters: { 'projectId.$': '$.projectId', 'batchId.$': '$.batchId' },
      Retry: serviceErrorRetry,
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'EndFailedBatch' }],
      End: true,
    });
    expect(states.EndFailedBatch).toMatchObject({
      Type: 'Task',
      Resource: `<GetAtt:${idOf(stack.scheduling.sweeper.function)}>`,
      Parameters: { failedBatch: { 'projectId.$': '$.projectId', 'batchId.$': '$.batchId' } },
      Next: 'BatchFailed',
    });
  });

  it('every Task of every state machine has a Catch (decision 0056)', () => {
    const tasks: [string, Record<string, unknown>][] = [];
    const collect = (states: Record<string, Record<string, unknown>>) => {
      for (const [name, state] of Object.entries(states)) {
        if (state.Type === 'Task') tasks.push([name, state]);
        const processor = state.ItemProcessor as
          | { States: Record<string, Record<string, unknown>> }
          | undefined;
        if (processor) collect(processor.States);
      }
    };
    for (const machine of [stack.scheduling.asyncExecutions, stack.scheduling.batches]) {
      collect(definitionOf(machine).States as Record<string, Record<string, unknown>>);
    }
    expect(tasks.map(([name]) => name).sort()).toEqual(
      [
        'EndFailedBatch',
        'EndFailedJob',
        'FinishBatch',
        'RunChunk',
        'RunExecution',
        'RunLongExecution',
      ].sort(),
    );
    for (const [name, task] of tasks) {
      expect(task.Catch, name).toEqual([expect.objectContaining({ ErrorEquals: ['States.ALL'] })]);
    }
  });

  it('the state machines may invoke the sweeper for their Catch steps', () => {
    for (const machine of [stack.scheduling.asyncExecutions, stack.scheduling.batches]) {
      const roleId = (resourceOf(machine).Properties.RoleArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!;
      expect(
        allows(statementsOfRole(roleId), 'lambda:InvokeFunction', arnOf(stack.scheduling.sweeper.function)),
      ).toBe(true);
    }
  });

  it('the sweeper runs every 5 minutes', () => {
    const rules = template.findResources('AWS::Events::Rule', {
      Properties: { ScheduleExpression: 'rate(5 minutes)' },
    });
    const targets = Object.values(rules).flatMap(
      (rule) => (rule as { Properties: { Targets: { Arn: unknown }[] } }).Properties.Targets,
    );
    expect(targets.map((t) => t.Arn)).toEqual([arnOf(stack.scheduling.sweeper.function)]);
  });

  it('the batch machine may start its own Distributed Map children', () => {
    const roleId = (resourceOf(stack.scheduling.batches).Properties.RoleArn as { 'Fn::GetAtt': string[] })[
      'Fn::GetAtt'
    ][0]!;
    const statements = statementsOfRole(roleId);
    expect(allows(statements, 'states:StartExecution', { Ref: idOf(stack.scheduling.batches) })).toBe(true);
    expect(allows(statements, 'lambda:InvokeFunction', arnOf(stack.scheduling.runBatchChunk))).toBe(true);
  });
});

describe('API Lambdas', () => {
  const schedulerActions = [
    'scheduler:CreateSchedule',
    'scheduler:UpdateSchedule',
    'scheduler:DeleteSchedule',
    'scheduler:GetSchedule',
  ];
  const scopedArn = (resource: string) => ({
    'Fn::Join': [
      '',
      ['arn:', { Ref: 'AWS::Partition' }, `:scheduler:${env.region}:${env.account}:${resource}`],
    ],
  });

  it('know the adapter settings', () => {
    for (const [handler, fn] of stack.functionsByHandler) {
      const variables = (resourceOf(fn).Properties.Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(variables, handler).toMatchObject({
        [schedulingEnv.groupPrefix]: 'dogu-production',
        [schedulingEnv.targetArn]: arnOf(stack.scheduling.scheduledRun),
        [schedulingEnv.roleArn]: arnOf(stack.scheduling.schedulerRole),
        [schedulingEnv.deadLetterArn]: arnOf(stack.scheduling.deadLetterQueue),
        [schedulingEnv.asyncExecutionStateMachineArn]: { Ref: idOf(stack.scheduling.asyncExecutions) },
        [schedulingEnv.batchStateMachineArn]: { Ref: idOf(stack.scheduling.batches) },
      });
    }
    const [, devFn] = [...devStack.functionsByHandler][0]!;
    const devVariables = (
      resources(devTemplate)[idOf(devFn, devStack)]!.Properties.Environment as {
        Variables: Record<string, unknown>;
      }
    ).Variables;
    expect(devVariables[schedulingEnv.groupPrefix]).toBe('dogu-development');
  });

  it("may manage schedules in this stage's groups only, pass the scheduler role and start both machines — only if they compose scheduling", () => {
    const schedulingComposers = [...stack.functionsByHandler.keys()].filter((h) =>
      composedGroups(h).includes('scheduling'),
    );
    expect(schedulingComposers).toEqual(expect.arrayContaining(['execute-action', 'cron-jobs', 'batches']));
    for (const [handler, fn] of stack.functionsByHandler) {
      const statements = statementsOfRole(roleIdOf(fn));
      const composes = schedulingComposers.includes(handler);
      for (const action of schedulerActions) {
        expect(
          allows(statements, action, scopedArn('schedule/dogu-production.*/*')),
          `${handler}: ${action}`,
        ).toBe(composes);
      }
      expect(
        allows(statements, 'scheduler:CreateScheduleGroup', scopedArn('schedule-group/dogu-production.*')),
        handler,
      ).toBe(composes);
      // IAM has no resource type for ListSchedules: '*' is the only form, and it lists names only.
      expect(allows(statements, 'scheduler:ListSchedules', '*'), handler).toBe(composes);
      const wildcardActions = statements
        .filter((s) => [s.Resource].flat().includes('*'))
        .flatMap((s) => [s.Action].flat());
      // Besides ListSchedules only X-Ray's trace upload (no resource type either).
      expect(
        wildcardActions.filter((a) => !a.startsWith('xray:')),
        handler,
      ).toEqual(composes ? ['scheduler:ListSchedules'] : []);
      expect(allows(statements, 'iam:PassRole', arnOf(stack.scheduling.schedulerRole)), handler).toBe(
        composes,
      );
      expect(
        allows(statements, 'states:StartExecution', { Ref: idOf(stack.scheduling.asyncExecutions) }),
        handler,
      ).toBe(composes);
      expect(
        allows(statements, 'states:StartExecution', { Ref: idOf(stack.scheduling.batches) }),
        handler,
      ).toBe(composes);
    }
  });
});

describe('notification deliveries (decision 0031)', () => {
  it('a rule invokes the drain worker every minute, and functions may send e-mail through SES', () => {
    const worker = stack.scheduling.notificationDeliveries;
    const rules = Object.values(resources()).filter((r) => r.Type === 'AWS::Events::Rule');
    const rule = rules.find((r) =>
      (r.Properties.Targets as { Arn: unknown }[]).some((target) =>
        isDeepStrictEqual(target.Arn, arnOf(worker)),
      ),
    );
    expect(rule?.Properties.ScheduleExpression).toBe('rate(1 minute)');
    // SendEmail from any identity of this account and region: the sender is configured at deploy time.
    const identities = {
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:ses:${env.region}:${env.account}:identity/*`]],
    };
    for (const fn of [worker, stack.scheduling.scheduledRun]) {
      expect(allows(statementsOfRole(roleIdOf(fn)), 'ses:SendEmail', identities)).toBe(true);
    }
    // Functions that compose no mail-sending group cannot send any.
    for (const handler of ['health', 'projects', 'secrets', 'cron-jobs']) {
      const statements = statementsOfRole(roleIdOf(stack.functionsByHandler.get(handler)!));
      expect(
        statements.some((st) => [st.Action].flat().some((a) => a.startsWith('ses:'))),
        handler,
      ).toBe(false);
    }
  });
});
