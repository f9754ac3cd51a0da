/**
 * The two state machines Dogu deploys, executed (issue 26 item 1): their definitions come from the
 * synthesized template (not a copy), run in aws-local-stepfunctions, and every Task state is bound to
 * the real handler module of the function (or CodeBuild project) its Resource names, over a real
 * embedded runtime (dynalite + PGlite). The runtime's job runner is the AWS one
 * (StepFunctionsJobRunner), whose StartExecution runs these machines, so the path is the deployed
 * one from the API answer to the last record: success, failure, time-outs, a dead worker, the
 * long-job branch, a batch Map with failing rows, and every Catch. Each Task's input is asserted
 * whole, so a renamed field breaks a test.
 */
import { ExecutionAlreadyExists, type SFNClient, type StartExecutionCommand } from '@aws-sdk/client-sfn';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { Context } from 'aws-lambda';
import {
  ExecutionError,
  StateMachine as LocalStateMachine,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runLongJob } from '../../functions/run-long-job.ts';
import { HandlerFunction } from '../../infra/constructs/handler-function.ts';
import { longJobMaxExecutionMs } from '../../infra/constructs/long-job-runner.ts';
import { DoguStack } from '../../infra/dogu-stack.ts';
import { jobMaxExecutionMs } from '../../infra/scheduling.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { StepFunctionsJobRunner } from '../../shared/adapters/aws/step-functions-runner.ts';
import { provideServices, type Services } from '../../shared/runtime/services.ts';
import { apiClient } from '../support/api.ts';
import { cdkJsonContext } from '../support/cdk-context.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

type Json = Record<string, unknown>;
type JSONValue = Parameters<LocalStateMachine['run']>[0];
type Definition = StateMachineDefinition & { States: Record<string, Json>; TimeoutSeconds?: number };

const env = { account: '123456789012', region: 'ap-northeast-1' };
const asyncArn = 'arn:aws:states:ap-northeast-1:123456789012:stateMachine:AsyncExecutions';
const batchArn = 'arn:aws:states:ap-northeast-1:123456789012:stateMachine:Batches';
const publicEnv = '/public/v1/projects/demo/environments/development';
const consoleEnv = '/api/v1/projects/demo/environments/development';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let admin: ReturnType<typeof apiClient>;
let stack: DoguStack;
/** The synthesized definitions, with the template's references replaced by what they name. */
const definitions = new Map<string, Definition>();
/** State name → the handler module (functions/<name>.ts) its Resource names, or the build. */
const boundTo = new Map<string, string>();

/** The Fn::Join of a DefinitionString with each reference replaced: a function ARN ends in its logical id. */
function resolveDefinition(definitionString: unknown): Definition {
  const [, parts] = (definitionString as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const getAtt = (part as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
      if (getAtt) return `arn:aws:lambda:${env.region}:${env.account}:function:${getAtt[0]}`;
      const ref = (part as { Ref?: string }).Ref;
      if (ref === 'AWS::Partition') return 'aws';
      if (ref) return ref;
      throw new Error(`unexpected part ${JSON.stringify(part)}`);
    })
    .join('');
  return JSON.parse(text) as Definition;
}

/** Every Task state of a definition, nested ones (the Map's processor) included. */
function tasksOf(states: Record<string, Json>): [string, Json][] {
  return Object.entries(states).flatMap(([name, state]) => [
    ...(state.Type === 'Task' ? [[name, state] as [string, Json]] : []),
    ...(state.ItemProcessor ? tasksOf((state.ItemProcessor as { States: Record<string, Json> }).States) : []),
  ]);
}

const context = (id: string) =>
  ({ awsRequestId: id, functionName: 'test', getRemainingTimeInMillis: () => 900_000 }) as unknown as Context;

/** What each Task received, in order, for the payload assertions. */
let calls: { state: string; input: Json }[] = [];
/** Per state, what happens instead of (or before) the real handler: a crash, a hang. */
let faults: Record<string, (input: Json) => Promise<void>> = {};
let requestIds = 0;

async function invokeHandler(handler: string, input: Json): Promise<unknown> {
  const module = (await import(`../../functions/${handler}.ts`)) as {
    handler: (event: unknown, context: Context) => Promise<unknown>;
  };
  // Lambda hands the task the function's JSON answer; an undefined answer is JSON null.
  return (await module.handler(input, context(`req-${++requestIds}`))) ?? null;
}

/** The build's environment from the startBuild.sync parameters, as CodeBuild would set it. */
async function runBuild(input: Json): Promise<unknown> {
  const variables = input.EnvironmentVariablesOverride as { Name: string; Type: string; Value: string }[];
  // The build's budget is its 30 minutes (DOGU_MAX_JOB_EXECUTION_MS), whatever the Lambdas have.
  const build: Services = {
    ...runtime.services,
    settings: { ...runtime.services.settings, maxJobExecutionMs: longJobMaxExecutionMs },
  };
  await runLongJob(Object.fromEntries(variables.map((v) => [v.Name, v.Value])), Promise.resolve(build));
  return { Build: { BuildStatus: 'SUCCEEDED' } };
}

function localHandlers(definition: Definition) {
  return Object.fromEntries(
    tasksOf(definition.States).map(([name]) => [
      name,
      async (raw: JSONValue) => {
        const input = raw as Json;
        calls.push({ state: name, input: structuredClone(input) });
        await faults[name]?.(input);
        const target = boundTo.get(name)!;
        return (
          target === 'codebuild' ? runBuild(input) : invokeHandler(target, input)
        ) as Promise<JSONValue>;
      },
    ]),
  );
}

/** Runs a synthesized machine; retries wait nothing. Resolves with its outcome, never rejects. */
async function execute(definition: Definition, input: Json) {
  const retryIntervalOverrides = Object.fromEntries(tasksOf(definition.States).map(([name]) => [name, 0]));
  const machine = new LocalStateMachine(definition, { validationOptions: { checkArn: false } });
  const execution = machine.run(input as JSONValue, {
    overrides: { taskResourceLocalHandlers: localHandlers(definition), retryIntervalOverrides },
  });
  try {
    return { status: 'SUCCEEDED' as const, output: await execution.result };
  } catch (error) {
    if (!(error instanceof ExecutionError)) throw error;
    const cause = error.cause as { name: string; message: string };
    return { status: 'FAILED' as const, error: cause.name, cause: cause.message };
  }
}

type Outcome = Awaited<ReturnType<typeof execute>>;
/** Executions started through the job runner, by name (Step Functions' idempotency key). */
const started = new Map<string, { stateMachineArn: string; input: Json; outcome: Promise<Outcome> }>();

/** The SFN client the AWS job runner sends StartExecution with: it runs the synthesized machine. */
const localSfn = {
  send: async (command: StartExecutionCommand) => {
    const { stateMachineArn, name, input } = command.input;
    if (started.has(name!)) throw new ExecutionAlreadyExists({ message: 'exists', $metadata: {} });
    const definition = definitions.get(stateMachineArn!)!;
    const parsed = JSON.parse(input!) as Json;
    started.set(name!, {
      stateMachineArn: stateMachineArn!,
      input: parsed,
      outcome: execute(definition, parsed),
    });
    return { executionArn: `${stateMachineArn}:${name}`, startDate: new Date() };
  },
} as unknown as SFNClient;

const outcomeOf = (name: string) => started.get(name)!.outcome;
const statesCalled = () => calls.map((c) => c.state);

beforeAll(async () => {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] },
  });
  stack = new DoguStack(app, 'Dogu-machines', { stage: 'machines', env });
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Properties: Json }>;
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as CfnFunction);
  definitions.set(
    asyncArn,
    resolveDefinition(resources[logicalId(stack.scheduling.asyncExecutions)]!.Properties.DefinitionString),
  );
  definitions.set(
    batchArn,
    resolveDefinition(resources[logicalId(stack.scheduling.batches)]!.Properties.DefinitionString),
  );
  const handlerByLogicalId = new Map(
    stack.node
      .findAll()
      .filter((c): c is HandlerFunction => c instanceof HandlerFunction)
      .map((c) => [logicalId(c.function), c.handler]),
  );
  const projectId = logicalId(stack.scheduling.longJobs.project);
  for (const definition of definitions.values()) {
    for (const [name, state] of tasksOf(definition.States)) {
      const resource = String(state.Resource);
      if (resource === 'arn:aws:states:::codebuild:startBuild.sync') {
        expect((state.Parameters as Json).ProjectName).toBe(projectId);
        boundTo.set(name, 'codebuild');
        continue;
      }
      const handler = handlerByLogicalId.get(resource.split(':').pop()!);
      if (!handler) throw new Error(`Task ${name} names no Dogu function: ${resource}`);
      boundTo.set(name, handler);
    }
  }

  dir = await tempDir('state-machines');
  runtime = await startTestRuntime(dir.path);
  admin = apiClient(runtime, await loginToken(runtime));
  // Jobs and batches go to the AWS job runner, i.e. to the synthesized machines.
  const aws = new StepFunctionsJobRunner({
    client: localSfn,
    asyncExecutionStateMachineArn: asyncArn,
    batchStateMachineArn: batchArn,
  });
  runtime.scheduling.jobs.startExecution = (job) => aws.startExecution(job);
  runtime.scheduling.jobs.startBatch = (batch, attempt) => aws.startBatch(batch, attempt);
  const put = async (id: string, sql: string) =>
    expect(
      (
        await admin.put(`/api/v1/projects/demo/actions/${id}`, {
          id,
          name: id,
          kind: 'sql',
          dataSourceId: 'demo-postgres',
          parameters: [{ name: 'n', kind: 'number', required: true, integer: true }],
          statements: [{ title: 'q', sql }],
        })
      ).status,
    ).toBeLessThan(300);
  await put('sm-divide', 'SELECT 12 / CAST({{ n }} AS int) AS q');
  const scripts = await admin.put('/api/v1/projects/demo/data-sources/sm-scripts', {
    id: 'sm-scripts',
    name: 'Scripts',
    kind: 'javascript',
    environments: { development: {}, production: {} },
  });
  expect(scripts.status).toBeLessThan(300);
  const spin = await admin.put('/api/v1/projects/demo/actions/sm-spin', {
    id: 'sm-spin',
    name: 'sm-spin',
    kind: 'javascript',
    dataSourceId: 'sm-scripts',
    code: 'for (;;) {}',
  });
  expect(spin.status).toBeLessThan(300);
}, 240_000);

afterAll(async () => {
  await Promise.allSettled([...started.values()].map((s) => s.outcome));
  await runtime?.close();
  await dir?.remove();
});

beforeEach(() => {
  calls = [];
  faults = {};
});

const asyncMachine = () => definitions.get(asyncArn)!;

async function startJob(n: number, extra: Json = {}) {
  const answer = await admin.post(`${publicEnv}/actions/${extra.action ?? 'sm-divide'}/executions`, {
    arguments: extra.action === 'sm-spin' ? {} : { n },
    async: true,
    ...(extra.timeLimitSeconds !== undefined ? { timeLimitSeconds: extra.timeLimitSeconds } : {}),
  });
  expect(answer.status).toBe(202);
  const id = answer.body.execution.id as string;
  return { id, outcome: await outcomeOf(id) };
}
const executionOf = async (id: string) => (await admin.get(`${publicEnv}/executions/${id}`)).body;

describe('the async-execution machine, from the template', () => {
  it('binds every Task to a real handler module or the long-job build', () => {
    expect(Object.fromEntries(boundTo)).toEqual({
      RunExecution: 'run-job',
      RunLongExecution: 'codebuild',
      EndFailedJob: 'sweep-abandoned-work',
      RunChunk: 'run-batch-chunk',
      FinishBatch: 'finish-batch',
      EndFailedBatch: 'sweep-abandoned-work',
    });
  });

  it('success: ChooseWorker → RunExecution (run-job) with the job, and the execution succeeds', async () => {
    const { id, outcome } = await startJob(4);
    expect(outcome).toEqual({ status: 'SUCCEEDED', output: null });
    expect(started.get(id)!.input).toEqual({
      projectId: 'demo',
      environmentId: 'development',
      executionId: id,
    });
    expect(calls).toEqual([
      { state: 'RunExecution', input: { projectId: 'demo', environmentId: 'development', executionId: id } },
    ]);
    const execution = await executionOf(id);
    expect(execution).toMatchObject({ status: 'succeeded', via: 'async_job' });
    expect(execution.results[0].rows).toEqual([{ q: 3 }]);
  });

  it('failure of the action: recorded by the domain, the machine itself succeeds (no Catch)', async () => {
    const { id, outcome } = await startJob(0);
    expect(outcome.status).toBe('SUCCEEDED');
    expect(statesCalled()).toEqual(['RunExecution']);
    const execution = await executionOf(id);
    expect(execution.status).toBe('failed');
    expect(execution.error.message).toMatch(/division by zero/);
  });

  it("time-out of the run (its own limit): the domain ends it timed_out at the job's 1 s", async () => {
    const { id, outcome } = await startJob(3, { action: 'sm-spin', timeLimitSeconds: 1 });
    expect(outcome.status).toBe('SUCCEEDED');
    expect(started.get(id)!.input).toMatchObject({ timeLimitMs: 1000 });
    expect(statesCalled()).toEqual(['RunExecution']);
    const execution = await executionOf(id);
    expect(execution.status).toBe('timed_out');
  });

  it('a dead worker (Lambda runtime exit) → Catch → EndFailedJob → JobFailed, the job failed "interrupted"', async () => {
    const died = 'RequestId: x Error: Runtime exited with error: signal: killed';
    faults.RunExecution = async () => {
      throw Object.assign(new Error(died), { name: 'Runtime.ExitError' });
    };
    const { id, outcome } = await startJob(4);
    expect(outcome).toEqual({ status: 'FAILED', error: 'WorkerFailed', cause: 'The failure was recorded' });
    const job = { projectId: 'demo', environmentId: 'development', executionId: id };
    expect(calls).toEqual([
      { state: 'RunExecution', input: job },
      {
        state: 'EndFailedJob',
        input: {
          failedJob: {
            projectId: 'demo',
            executionId: id,
            cause: 'Runtime.ExitError',
            job: { ...job, failure: { Error: 'Runtime.ExitError', Cause: died } },
          },
        },
      },
    ]);
    const execution = await executionOf(id);
    expect(execution).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    expect(execution.error.message).toMatch(/worker failed \(Runtime\.ExitError\)/);
  });

  it('the long-job branch: a limit above 870 s goes to the build (its variables asserted), 870 s stays on Lambda', async () => {
    const long = await startJob(6, { timeLimitSeconds: 871 });
    expect(long.outcome).toEqual({ status: 'SUCCEEDED', output: started.get(long.id)!.input });
    expect(calls).toEqual([
      {
        state: 'RunLongExecution',
        input: {
          ProjectName: stack.getLogicalId(stack.scheduling.longJobs.project.node.defaultChild as CfnFunction),
          EnvironmentVariablesOverride: [
            { Name: 'DOGU_JOB_PROJECT_ID', Type: 'PLAINTEXT', Value: 'demo' },
            { Name: 'DOGU_JOB_ENVIRONMENT_ID', Type: 'PLAINTEXT', Value: 'development' },
            { Name: 'DOGU_JOB_EXECUTION_ID', Type: 'PLAINTEXT', Value: long.id },
            { Name: 'DOGU_JOB_INPUT', Type: 'PLAINTEXT', Value: JSON.stringify(started.get(long.id)!.input) },
          ],
        },
      },
    ]);
    const execution = (await runtime.services.executions.getExecution(long.id))!;
    expect(execution.status).toBe('succeeded');
    expect(new Date(execution.deadlineAt!).getTime() - new Date(execution.startedAt).getTime()).toBe(871_000);

    calls = [];
    const short = await startJob(6, { timeLimitSeconds: 870 });
    expect(short.outcome.status).toBe('SUCCEEDED');
    expect(statesCalled()).toEqual(['RunExecution']);
  });

  it("the build's task time-out (States.Timeout) → Catch → EndFailedJob, the job failed with the reason", async () => {
    // The one change to the synthesized definition: the task's 50 minutes become 1 s.
    const definition = structuredClone(asyncMachine());
    expect(definition.States.RunLongExecution!.TimeoutSeconds).toBe(3000);
    definition.States.RunLongExecution!.TimeoutSeconds = 1;
    const original = definitions.get(asyncArn)!;
    definitions.set(asyncArn, definition);
    let release: () => void = () => {};
    faults.RunLongExecution = () => new Promise<void>((resolve) => (release = resolve));
    try {
      const { id, outcome } = await startJob(4, { timeLimitSeconds: 1800 });
      expect(outcome).toEqual({ status: 'FAILED', error: 'WorkerFailed', cause: 'The failure was recorded' });
      expect(calls.map((c) => c.state)).toEqual(['RunLongExecution', 'EndFailedJob']);
      expect(calls[1]!.input).toEqual({
        failedJob: {
          projectId: 'demo',
          executionId: id,
          cause: 'States.Timeout',
          job: {
            projectId: 'demo',
            environmentId: 'development',
            executionId: id,
            timeLimitMs: 1_800_000,
            failure: { Error: 'States.Timeout', Cause: expect.any(String) },
          },
        },
      });
      const execution = await executionOf(id);
      expect(execution).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
      expect(execution.error.message).toMatch(/States\.Timeout/);
    } finally {
      definitions.set(asyncArn, original);
      release();
    }
  });

  it('the end step failing too → its Catch → EndFailedJobFailed (the execution fails visibly)', async () => {
    faults.RunExecution = async () => {
      throw Object.assign(new Error('boom'), { name: 'Runtime.ExitError' });
    };
    faults.EndFailedJob = async () => {
      throw Object.assign(new Error('table unavailable'), { name: 'Error' });
    };
    const { outcome } = await startJob(4);
    expect(outcome).toEqual({
      status: 'FAILED',
      error: 'EndStepFailed',
      cause: 'EndFailedJob could not record the failure',
    });
    expect(statesCalled()).toEqual(['RunExecution', 'EndFailedJob']);
  });

  it('a Lambda service error is retried (same input), a function error is not', async () => {
    let attempts = 0;
    faults.RunExecution = async () => {
      attempts++;
      if (attempts === 1)
        throw Object.assign(new Error('throttled'), { name: 'Lambda.TooManyRequestsException' });
    };
    const { id, outcome } = await startJob(4);
    expect(outcome.status).toBe('SUCCEEDED');
    expect(statesCalled()).toEqual(['RunExecution', 'RunExecution']);
    expect(calls[0]!.input).toEqual(calls[1]!.input);
    expect((await executionOf(id)).status).toBe('succeeded');
  });
});

describe('scheduled runs on AWS: the 30-minute long-job path (decision 0101)', () => {
  // The workers as deployed: Lambdas with their 14.5-minute budget, the build with 30 minutes.
  beforeAll(() => {
    const lambda: Services = {
      ...runtime.services,
      settings: { ...runtime.services.settings, maxJobExecutionMs: jobMaxExecutionMs },
    };
    provideServices(async () => lambda);
  });
  afterAll(() => provideServices(async () => runtime.services));

  const scheduledAt = '2026-11-23T00:00:00.000Z';
  const deadlineOf = async (executionId: string) => {
    const execution = (await runtime.services.executions.getExecution(executionId))!;
    return new Date(execution.deadlineAt!).getTime() - new Date(execution.startedAt).getTime();
  };
  async function cronJob(extra: Json = {}) {
    const answer = await admin.post(`${consoleEnv}/cron-jobs`, {
      name: `Scheduled ${Math.random()}`,
      schedule: { kind: 'cron', expression: '0 9 ? * MON-FRI *' },
      actionId: 'sm-divide',
      arguments: { n: 4 },
      ...extra,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { id: string; timeLimitMs?: number };
  }
  const deliver = (jobId: string) =>
    invokeHandler('scheduled-run', { kind: 'cron', projectId: 'demo', jobId, scheduledAt });
  const runsOf = async (jobId: string) =>
    (await admin.get(`${consoleEnv}/cron-jobs/${jobId}/runs`)).body.data;

  it('a cron run whose job asks for 30 minutes: scheduled-run claims it, the machine sends it to the build', async () => {
    const job = await cronJob({ timeLimitSeconds: 1800 });
    expect(job.timeLimitMs).toBe(1_800_000);
    await deliver(job.id);
    const [claimed] = await runsOf(job.id);
    expect(claimed).toMatchObject({ status: 'running', scheduledAt, attempt: 1 });
    const input = {
      projectId: 'demo',
      environmentId: 'development',
      executionId: claimed.executionId,
      timeLimitMs: 1_800_000,
      cronRun: { jobId: job.id, scheduledAt },
    };
    expect(started.get(claimed.executionId)?.input).toEqual(input);
    expect(await outcomeOf(claimed.executionId)).toEqual({ status: 'SUCCEEDED', output: input });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.state).toBe('RunLongExecution');
    expect(calls[0]!.input.EnvironmentVariablesOverride).toContainEqual({
      Name: 'DOGU_JOB_INPUT',
      Type: 'PLAINTEXT',
      Value: JSON.stringify(input),
    });
    const runs = await runsOf(job.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', executionId: claimed.executionId });
    expect(await deadlineOf(claimed.executionId)).toBe(1_800_000);
    expect((await executionOf(claimed.executionId)).via).toBe('cron');

    // EventBridge delivers again: nothing more starts or runs.
    const before = started.size;
    await deliver(job.id);
    expect(started.size).toBe(before);
    expect(await runsOf(job.id)).toHaveLength(1);
  });

  it("a cron job without its own limit runs in scheduled-run itself, with the Lambda's 14.5 minutes", async () => {
    const job = await cronJob();
    const before = started.size;
    await deliver(job.id);
    expect(started.size).toBe(before);
    const [run] = await runsOf(job.id);
    expect(run).toMatchObject({ status: 'completed' });
    expect(await deadlineOf(run.executionId)).toBe(jobMaxExecutionMs);
  });

  it('a reservation asking for 30 minutes goes unclaimed to the build, which claims and runs it', async () => {
    const answer = await admin.post(`${consoleEnv}/reservations`, {
      actionId: 'sm-divide',
      arguments: { n: 3 },
      runAt: new Date(Date.now() + 3600_000).toISOString(),
      timeLimitSeconds: 1800,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const reservationId = answer.body.id as string;
    await invokeHandler('scheduled-run', { kind: 'reservation', projectId: 'demo', reservationId });
    const input = {
      projectId: 'demo',
      environmentId: 'development',
      executionId: reservationId,
      timeLimitMs: 1_800_000,
    };
    expect(started.get(reservationId)?.input).toEqual(input);
    expect(await outcomeOf(reservationId)).toEqual({ status: 'SUCCEEDED', output: input });
    expect(statesCalled()).toEqual(['RunLongExecution']);
    const reservation = (await admin.get(`${consoleEnv}/reservations/${reservationId}`)).body;
    expect(reservation).toMatchObject({ status: 'completed', timeLimitMs: 1_800_000 });
    expect(await deadlineOf(reservation.executionId)).toBe(1_800_000);
    expect((await executionOf(reservation.executionId)).via).toBe('reservation');
  });

  it('a handed-off cron run whose build dies → EndFailedJob ends the run as error with the reason', async () => {
    faults.RunLongExecution = async () => {
      throw Object.assign(new Error('Build failed'), { name: 'CodeBuild.BuildFailed' });
    };
    const job = await cronJob({ timeLimitSeconds: 1000 });
    await deliver(job.id);
    const [claimed] = await runsOf(job.id);
    const outcome = await outcomeOf(claimed.executionId);
    expect(outcome).toEqual({ status: 'FAILED', error: 'WorkerFailed', cause: 'The failure was recorded' });
    expect(calls[1]).toEqual({
      state: 'EndFailedJob',
      input: {
        failedJob: {
          projectId: 'demo',
          executionId: claimed.executionId,
          cause: 'CodeBuild.BuildFailed',
          job: {
            ...started.get(claimed.executionId)!.input,
            failure: { Error: 'CodeBuild.BuildFailed', Cause: 'Build failed' },
          },
        },
      },
    });
    const [run] = await runsOf(job.id);
    expect(run.status).toBe('error');
    expect(run.reason).toMatch(/worker failed \(CodeBuild\.BuildFailed\)/);
  });

  it('refuses a limit outside 1–1800 seconds, naming the field', async () => {
    for (const timeLimitSeconds of [0, 1801, 1.5]) {
      const answer = await admin.post(`${consoleEnv}/cron-jobs`, {
        name: 'Too long',
        schedule: { kind: 'cron', expression: '0 9 ? * MON-FRI *' },
        actionId: 'sm-divide',
        arguments: { n: 4 },
        timeLimitSeconds,
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(JSON.stringify(answer.body.errors)).toContain('timeLimitSeconds');
    }
  });
});

describe('the batch machine, from the template', () => {
  const chunkInput = (batchId: string, chunk: number) => ({ projectId: 'demo', batchId, chunk });

  async function startBatch(rows: Json[], concurrency = 2) {
    const answer = await admin.post(`${consoleEnv}/actions/sm-divide/batches`, { rows, concurrency });
    expect(answer.status).toBeLessThan(300);
    const batchId = answer.body.batch.id as string;
    const outcome = await outcomeOf(`${batchId}-1`);
    const view = (await admin.get(`${consoleEnv}/batches/${batchId}`)).body;
    return { batchId, outcome, view };
  }

  it('fans out one RunChunk per chunk (at most the concurrency), then FinishBatch with the right counts', async () => {
    // 60 rows: 25 + 25 + 10; every 7th row divides by zero.
    const rows = Array.from({ length: 60 }, (_, i) => ({ n: i % 7 === 0 ? 0 : 1 + (i % 3) }));
    const { batchId, outcome, view } = await startBatch(rows);
    expect(outcome).toEqual({ status: 'SUCCEEDED', output: null });
    expect(started.get(`${batchId}-1`)!.input).toEqual({
      projectId: 'demo',
      batchId,
      chunks: [0, 1, 2],
      concurrency: 2,
    });
    const chunkCalls = calls.filter((c) => c.state === 'RunChunk').map((c) => c.input);
    expect(chunkCalls.sort((a, b) => Number(a.chunk) - Number(b.chunk))).toEqual([
      chunkInput(batchId, 0),
      chunkInput(batchId, 1),
      chunkInput(batchId, 2),
    ]);
    expect(calls.at(-1)).toEqual({ state: 'FinishBatch', input: { projectId: 'demo', batchId } });
    const failing = rows.filter((r) => r.n === 0).length;
    expect(view.batch.status).toBe('finished');
    expect(view.batch.progress ?? view.progress).toEqual({
      total: 60,
      waiting: 0,
      running: 0,
      success: 60 - failing,
      failure: failing,
    });
    expect(view.rows.filter((r: { status: string }) => r.status === 'failure')).toHaveLength(failing);
  });

  it('a chunk whose worker died → Catch → ChunkFailed; FinishBatch records its rows as not run', async () => {
    const rows = Array.from({ length: 30 }, () => ({ n: 2 }));
    faults.RunChunk = async (input) => {
      if (input.chunk === 1) throw Object.assign(new Error('killed'), { name: 'Runtime.ExitError' });
    };
    const { outcome, view } = await startBatch(rows);
    expect(outcome.status).toBe('SUCCEEDED');
    expect(statesCalled().filter((s) => s === 'RunChunk')).toHaveLength(2);
    expect(statesCalled().at(-1)).toBe('FinishBatch');
    expect(view.batch.progress ?? view.progress).toMatchObject({ total: 30, success: 25, failure: 5 });
    const notRun = view.rows.filter((r: { error?: { code: string } }) => r.error?.code === 'not_run');
    expect(notRun.map((r: { index: number }) => r.index)).toEqual([25, 26, 27, 28, 29]);
  });

  it('FinishBatch failing → Catch → EndFailedBatch (the sweeper finishes it) → BatchFailed', async () => {
    faults.FinishBatch = async () => {
      throw Object.assign(new Error('killed'), { name: 'Runtime.ExitError' });
    };
    const { batchId, outcome, view } = await startBatch([{ n: 1 }, { n: 0 }]);
    expect(outcome).toEqual({ status: 'FAILED', error: 'WorkerFailed', cause: 'The failure was recorded' });
    expect(calls.slice(-2)).toEqual([
      { state: 'FinishBatch', input: { projectId: 'demo', batchId } },
      { state: 'EndFailedBatch', input: { failedBatch: { projectId: 'demo', batchId } } },
    ]);
    expect(view.batch.status).toBe('finished');
    expect(view.batch.progress ?? view.progress).toMatchObject({ total: 2, success: 1, failure: 1 });
  });

  it('EndFailedBatch failing too → EndFailedBatchFailed', async () => {
    const fail = async () => {
      throw Object.assign(new Error('killed'), { name: 'Runtime.ExitError' });
    };
    faults.FinishBatch = fail;
    faults.EndFailedBatch = fail;
    const { outcome } = await startBatch([{ n: 1 }]);
    expect(outcome).toEqual({
      status: 'FAILED',
      error: 'EndStepFailed',
      cause: 'EndFailedBatch could not record the failure',
    });
  });

  it('the Map itself failing → its Catch → FinishBatch, which still settles the batch', async () => {
    // The Map fails only when Step Functions cannot run it (a child-execution limit), which no
    // handler can cause. To reach its Catch, the chunk's own Catch (and its Pass) are taken out of a
    // copy, so a failing chunk fails the Map; the Catch under test is the template's.
    const definition = structuredClone(definitions.get(batchArn)!);
    const original = definitions.get(batchArn)!;
    expect(definition.States.RunChunks!.Catch).toEqual([
      { ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'FinishBatch' },
    ]);
    faults.RunChunk = async () => {
      throw Object.assign(new Error('map failed'), { name: 'States.ExceedToleratedFailureThreshold' });
    };
    definition.States.RunChunks!.ToleratedFailurePercentage = 0;
    const processor = definition.States.RunChunks!.ItemProcessor as { States: Record<string, Json> };
    delete processor.States.RunChunk!.Catch;
    delete processor.States.ChunkFailed;
    definitions.set(batchArn, definition);
    try {
      const { batchId, outcome, view } = await startBatch([{ n: 1 }]);
      expect(outcome.status).toBe('SUCCEEDED');
      expect(calls.at(-1)).toEqual({ state: 'FinishBatch', input: { projectId: 'demo', batchId } });
      expect(view.batch.status).toBe('finished');
    } finally {
      definitions.set(batchArn, original);
    }
  });
});
