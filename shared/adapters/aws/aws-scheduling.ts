/**
 * The scheduling adapters of a Lambda container, configured by the environment variables that
 * infra/scheduling.ts sets. Built on first use: the worker Lambdas do not get every variable (a
 * function cannot name its own ARN or the state machine that invokes it without a dependency
 * cycle), and they never schedule or start what they lack.
 */
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SFNClient } from '@aws-sdk/client-sfn';
import type { JobRunner, Scheduler } from '../../domain/scheduling/ports.ts';
import { EventBridgeScheduler } from './eventbridge-scheduler.ts';
import { StepFunctionsJobRunner } from './step-functions-runner.ts';

/** The variable names, shared with infra/scheduling.ts so the two cannot drift apart. */
export const schedulingEnv = {
  groupPrefix: 'DOGU_SCHEDULER_GROUP_PREFIX',
  targetArn: 'DOGU_SCHEDULED_RUN_FUNCTION_ARN',
  roleArn: 'DOGU_SCHEDULER_ROLE_ARN',
  deadLetterArn: 'DOGU_SCHEDULER_DEAD_LETTER_ARN',
  asyncExecutionStateMachineArn: 'DOGU_ASYNC_EXECUTION_STATE_MACHINE_ARN',
  batchStateMachineArn: 'DOGU_BATCH_STATE_MACHINE_ARN',
} as const;

type Env = Record<string, string | undefined>;

function requiredIn(env: Env, purpose: string) {
  return (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`Environment variable ${name} is not set (${purpose}).`);
    return value;
  };
}

/** Creates `make()` once, on the first call of any method. */
function lazy<T extends object>(make: () => T): T {
  let instance: T | undefined;
  return new Proxy({} as T, {
    get(_, property) {
      instance ??= make();
      const value = Reflect.get(instance, property, instance) as unknown;
      return typeof value === 'function' ? value.bind(instance) : value;
    },
  });
}

export function createAwsScheduling(env: Env = process.env): { scheduler: Scheduler; jobs: JobRunner } {
  const scheduler = lazy<Scheduler>(() => {
    const required = requiredIn(env, 'EventBridge Scheduler');
    return new EventBridgeScheduler({
      client: new SchedulerClient({}),
      groupPrefix: required(schedulingEnv.groupPrefix),
      targetArn: required(schedulingEnv.targetArn),
      roleArn: required(schedulingEnv.roleArn),
      deadLetterArn: required(schedulingEnv.deadLetterArn),
    });
  });
  const jobs = lazy<JobRunner>(() => {
    const required = requiredIn(env, 'Step Functions');
    return new StepFunctionsJobRunner({
      client: new SFNClient({}),
      asyncExecutionStateMachineArn: required(schedulingEnv.asyncExecutionStateMachineArn),
      batchStateMachineArn: required(schedulingEnv.batchStateMachineArn),
    });
  });
  return { scheduler, jobs };
}
