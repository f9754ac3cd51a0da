/**
 * Scheduling on AWS (docs/scheduling.md, "On AWS"): the worker Lambdas, EventBridge Scheduler's role
 * and dead-letter queue, and the two Standard state machines (async executions, batches). The API
 * Lambdas get the variables and grants shared/adapters/aws/aws-scheduling.ts needs.
 */
import { Arn, ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { BuildEnvironmentVariableType } from 'aws-cdk-lib/aws-codebuild';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Effect, Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import {
  Choice,
  Condition,
  DefinitionBody,
  DistributedMap,
  IntegrationPattern,
  JsonPath,
  StateMachine,
  StateMachineType,
  TaskInput,
  Timeout,
} from 'aws-cdk-lib/aws-stepfunctions';
import { CodeBuildStartBuild, LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { longJobEnv } from '../functions/run-long-job.ts';
import { schedulingEnv } from '../shared/adapters/aws/aws-scheduling.ts';
import { AbandonedWorkSweeper } from './constructs/abandoned-work-sweeper.ts';
import type { FunctionRoles } from './constructs/function-roles.ts';
import { HandlerFunction, logRetention } from './constructs/handler-function.ts';
import {
  LongJobRunner,
  longJobBuildTimeout,
  longJobMaxExecutionMs,
  longJobQueuedTimeout,
} from './constructs/long-job-runner.ts';
import { catchFailures } from './constructs/state-machine-catches.ts';

export interface SchedulingProps {
  stage: string;
  /** The runtime environment every Dogu Lambda gets (table, keys, log settings). */
  environment: Record<string, string>;
  /** The functions' roles: the workers take theirs from it; those that schedule get the rights. */
  functionRoles: FunctionRoles;
  /** The API Lambdas: they create schedules and start state machines (variables set on each). */
  apiFunctions: Iterable<IFunction>;
  retainLogs: boolean;
}

/** Lambda's hard maximum (docs/decisions/0015-async-jobs-on-aws.md). */
export const jobFunctionTimeout = Duration.minutes(15);
/** The domain cuts a job before Lambda does, so it can record `timed_out` instead of vanishing. */
export const jobMaxExecutionMs = 14 * 60_000 + 30_000;
/** Spec 8's limit of one synchronous run, which a worker (no API Gateway waiting) can give in full. */
export const maxRunMs = 60_000;
/**
 * A long job's build may wait in CodeBuild's queue, then run its 35 minutes; the task gives up a
 * little after both (Step Functions then stops the build and the Catch records the job).
 */
export const longJobTaskTimeout = longJobQueuedTimeout.plus(longJobBuildTimeout).plus(Duration.minutes(5));
/** The async-execution machine outlives its longest task, so a Catch (not the machine's timeout) ends it. */
export const asyncExecutionTimeout = Duration.hours(1);
/** A batch of many rows at concurrency 1 may run for days; a stuck one still ends. */
export const batchTimeout = Duration.days(7);

/** Errors of the Lambda service itself: the function did not run, so running it again is safe. */
export const lambdaServiceErrors = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

export class Scheduling extends Construct {
  readonly scheduledRun: LambdaFunction;
  readonly runJob: LambdaFunction;
  readonly runBatchChunk: LambdaFunction;
  readonly finishBatch: LambdaFunction;
  /** Sends due notification deliveries every minute (docs/decisions/0031-notification-delivery.md). */
  readonly notificationDeliveries: LambdaFunction;
  /** The workers' one log group (each entry names its function, as in the API functions' group). */
  readonly logGroup: LogGroup;
  readonly deadLetterQueue: Queue;
  readonly schedulerRole: Role;
  readonly asyncExecutions: StateMachine;
  /** Jobs above a Lambda's budget: a CodeBuild project started by the machine (decision 0075). */
  readonly longJobs: LongJobRunner;
  /** Ends abandoned work every few minutes and after caught failures (decision 0056). */
  readonly sweeper: AbandonedWorkSweeper;
  readonly batches: StateMachine;
  /** Group names start with it (shared/adapters/aws/schedule-names.ts). */
  readonly groupPrefix: string;

  constructor(scope: Construct, id: string, props: SchedulingProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.groupPrefix = `dogu-${props.stage}`;

    // One group for all workers instead of one each: five fewer resources (decision 0073).
    this.logGroup = new LogGroup(this, 'WorkerFunctionLogs', {
      retention: logRetention,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const worker = (handler: string, timeout: Duration, environment: Record<string, string> = {}) => {
      // A worker's role is the one of its needs (decision 0051), shared with API functions alike.
      const role = props.functionRoles.roleFor(handler);
      const { function: fn } = new HandlerFunction(this, handler, {
        handler,
        timeout,
        environment: { ...props.environment, ...environment },
        retainLogs: props.retainLogs,
        role,
        logGroup: this.logGroup,
      });
      props.functionRoles.allowLogs(role, this.logGroup);
      return fn;
    };
    const jobEnvironment = {
      DOGU_MAX_JOB_EXECUTION_MS: String(jobMaxExecutionMs),
      // No API Gateway in front of a worker: a single run may use the spec's full minute.
      DOGU_MAX_EXECUTION_MS: String(maxRunMs),
    };
    this.scheduledRun = worker('scheduled-run', jobFunctionTimeout, jobEnvironment);
    this.runJob = worker('run-job', jobFunctionTimeout, jobEnvironment);
    this.runBatchChunk = worker('run-batch-chunk', jobFunctionTimeout, jobEnvironment);
    this.finishBatch = worker('finish-batch', Duration.minutes(1));
    this.notificationDeliveries = worker('notification-deliveries', Duration.minutes(2));
    new Rule(this, 'NotificationDeliveriesEveryMinute', {
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaTarget(this.notificationDeliveries, { retryAttempts: 0 })],
    });

    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    // A message here is a scheduled run that never started: worth an alarm (docs/scheduling.md).
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
    // EventBridge Scheduler invokes Lambda asynchronously: a delivery whose function then failed is
    // retried by Lambda within the same hour as the scheduler's retries, then lands in the same queue.
    this.scheduledRun.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(1),
      onFailure: new SqsDestination(this.deadLetterQueue),
    });

    this.schedulerRole = new Role(this, 'SchedulerRole', {
      description: `EventBridge Scheduler invokes Dogu (${props.stage}) scheduled runs`,
      // Only schedules of this account may assume it (confused deputy).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    });
    this.scheduledRun.grantInvoke(this.schedulerRole);
    this.deadLetterQueue.grantSendMessages(this.schedulerRole);

    this.sweeper = new AbandonedWorkSweeper(this, 'Sweeper', {
      environment: { ...props.environment, ...jobEnvironment },
      functionRoles: props.functionRoles,
      logGroup: this.logGroup,
    });
    const catches = catchFailures(this, this.sweeper.function);

    // Same needs as run-job, so the same role: it already has every right a job uses.
    this.longJobs = new LongJobRunner(this, 'LongJobs', {
      role: props.functionRoles.roleFor('run-long-job'),
      logGroup: this.logGroup,
      environmentOf: this.runJob,
      environment: { DOGU_MAX_JOB_EXECUTION_MS: String(longJobMaxExecutionMs) },
    });
    const variable = (path: string) => ({
      type: BuildEnvironmentVariableType.PLAINTEXT,
      value: JsonPath.stringAt(path),
    });
    const runLongExecution = new CodeBuildStartBuild(this, 'RunLongExecution', {
      project: this.longJobs.project,
      integrationPattern: IntegrationPattern.RUN_JOB,
      environmentVariablesOverride: {
        [longJobEnv.projectId]: variable('$.projectId'),
        [longJobEnv.environmentId]: variable('$.environmentId'),
        [longJobEnv.executionId]: variable('$.executionId'),
        // The whole input as JSON (a handed-off cron run is named there, decision 0101).
        [longJobEnv.input]: {
          type: BuildEnvironmentVariableType.PLAINTEXT,
          value: JsonPath.jsonToString(JsonPath.entirePayload),
        },
      },
      taskTimeout: Timeout.duration(longJobTaskTimeout),
      resultPath: JsonPath.DISCARD,
    }).addRetry({
      // The build never started: starting it again is safe.
      errors: ['CodeBuild.AccountLimitExceededException'],
      interval: Duration.seconds(10),
      maxAttempts: 6,
      backoffRate: 2,
    });
    const runExecution = new LambdaInvoke(this, 'RunExecution', {
      lambdaFunction: this.runJob,
      payloadResponseOnly: true,
      // A failed or timed-out run is recorded by the domain and must not run twice.
      retryOnServiceExceptions: false,
    }).addRetry({
      errors: lambdaServiceErrors,
      interval: Duration.seconds(2),
      maxAttempts: 6,
      backoffRate: 2,
    });
    // Lambda starts in about a second, a build in 30-60 s: only a job that asked for more than a
    // Lambda's budget goes to CodeBuild (an input without a limit, e.g. one started before, too).
    const chooseWorker = new Choice(this, 'ChooseWorker')
      .when(
        Condition.and(
          Condition.isPresent('$.timeLimitMs'),
          Condition.numberGreaterThan('$.timeLimitMs', jobMaxExecutionMs),
        ),
        catches.job(runLongExecution),
      )
      .otherwise(catches.job(runExecution));

    this.asyncExecutions = new StateMachine(this, 'AsyncExecutions', {
      stateMachineType: StateMachineType.STANDARD,
      timeout: asyncExecutionTimeout,
      definitionBody: DefinitionBody.fromChainable(chooseWorker),
    });

    const runChunk = new LambdaInvoke(this, 'RunChunk', {
      lambdaFunction: this.runBatchChunk,
      payloadResponseOnly: true,
      retryOnServiceExceptions: false,
    }).addRetry({
      errors: lambdaServiceErrors,
      interval: Duration.seconds(2),
      maxAttempts: 6,
      backoffRate: 2,
    });
    const chunks = new DistributedMap(this, 'RunChunks', {
      itemsPath: '$.chunks',
      itemSelector: {
        projectId: JsonPath.stringAt('$.projectId'),
        batchId: JsonPath.stringAt('$.batchId'),
        chunk: JsonPath.numberAt('$$.Map.Item.Value'),
      },
      // The batch's own concurrency, chosen by the user (shared/adapters/aws/step-functions-runner.ts).
      maxConcurrencyPath: '$.concurrency',
      // A chunk that failed outright (a crash, the 15 minutes) still lets the batch finish: the
      // finish step sees its rows unfinished and records them, instead of the batch hanging.
      toleratedFailurePercentage: 100,
      resultPath: JsonPath.DISCARD,
    });
    chunks.itemProcessor(catches.chunk(runChunk));
    const finish = new LambdaInvoke(this, 'FinishBatch', {
      lambdaFunction: this.finishBatch,
      payloadResponseOnly: true,
      payload: TaskInput.fromObject({
        projectId: JsonPath.stringAt('$.projectId'),
        batchId: JsonPath.stringAt('$.batchId'),
      }),
      retryOnServiceExceptions: false,
    }).addRetry({
      errors: lambdaServiceErrors,
      interval: Duration.seconds(2),
      maxAttempts: 6,
      backoffRate: 2,
    });
    this.batches = new StateMachine(this, 'Batches', {
      stateMachineType: StateMachineType.STANDARD,
      timeout: batchTimeout,
      definitionBody: DefinitionBody.fromChainable(catches.batch(chunks, catches.finish(finish))),
    });

    // A scheduled run may hand its work to the async-execution machine.
    for (const [name, value] of Object.entries(this.#stateMachineEnvironment())) {
      this.scheduledRun.addEnvironment(name, value);
    }
    // (Its right to start them is the scheduling roles' policy below: scheduled-run composes scheduling.)

    const adapterEnvironment = {
      [schedulingEnv.groupPrefix]: this.groupPrefix,
      [schedulingEnv.targetArn]: this.scheduledRun.functionArn,
      [schedulingEnv.roleArn]: this.schedulerRole.roleArn,
      [schedulingEnv.deadLetterArn]: this.deadLetterQueue.queueArn,
      ...this.#stateMachineEnvironment(),
    };
    const scheduleArn = (resourceName: string, resource = 'schedule') =>
      Arn.format(
        { service: 'scheduler', resource, resourceName, arnFormat: ArnFormat.SLASH_RESOURCE_NAME },
        stack,
      );
    for (const fn of props.apiFunctions) {
      const lambdaFunction = fn as LambdaFunction;
      for (const [name, value] of Object.entries(adapterEnvironment))
        lambdaFunction.addEnvironment(name, value);
    }
    // Only the roles of functions that compose the scheduling group create schedules and start runs.
    const schedulingRoles = props.functionRoles.rolesWith('scheduling');
    for (const apiRole of schedulingRoles) {
      apiRole.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: [
            'scheduler:CreateSchedule',
            'scheduler:UpdateSchedule',
            'scheduler:DeleteSchedule',
            'scheduler:GetSchedule',
          ],
          // Only this stage's groups: '.' ends the prefix and never occurs in a stage name.
          resources: [scheduleArn(`${this.groupPrefix}.*/*`)],
        }),
      );
      apiRole.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['scheduler:CreateScheduleGroup'],
          resources: [scheduleArn(`${this.groupPrefix}.*`, 'schedule-group')],
        }),
      );
      // ListSchedules has no resource type in IAM: it can only be granted on '*'.
      apiRole.addToPrincipalPolicy(
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['scheduler:ListSchedules'], resources: ['*'] }),
      );
      this.schedulerRole.grantPassRole(apiRole);
    }
    // A policy of its own, not the roles' default ones: workers share these roles (decision 0051),
    // and a state machine depends on the functions it invokes, which depend on their role's
    // default policy; starting the machines from that policy would be a dependency cycle. One
    // policy attached to every scheduling role, not one each (decision 0073).
    new Policy(this, 'StartRuns', {
      roles: schedulingRoles,
      statements: [
        new PolicyStatement({
          actions: ['states:StartExecution'],
          resources: [this.asyncExecutions.stateMachineArn, this.batches.stateMachineArn],
        }),
      ],
    });
  }

  /** The workers that run actions (their engines may read uploaded files). */
  get actionRunners(): LambdaFunction[] {
    return [this.scheduledRun, this.runJob, this.runBatchChunk];
  }

  /** The worker Lambdas, which need the same runtime settings as the API Lambdas. */
  get functions(): LambdaFunction[] {
    return [
      this.scheduledRun,
      this.runJob,
      this.runBatchChunk,
      this.finishBatch,
      this.notificationDeliveries,
      this.sweeper.function,
    ];
  }

  #stateMachineEnvironment(): Record<string, string> {
    return {
      [schedulingEnv.asyncExecutionStateMachineArn]: this.asyncExecutions.stateMachineArn,
      [schedulingEnv.batchStateMachineArn]: this.batches.stateMachineArn,
    };
  }
}
