/**
 * The sweeper of abandoned work (decision 0056, functions/sweep-abandoned-work.ts): every five minutes
 * it ends executions, cron runs and jobs whose worker died; the state machines' Catch steps invoke it
 * with the failed job or batch. Ending a run twice writes the same outcome, so overlapping sweeps do no harm.
 */
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { FunctionRoles } from './function-roles.ts';
import { HandlerFunction } from './handler-function.ts';

export const sweepEvery = Duration.minutes(5);

export interface AbandonedWorkSweeperProps {
  environment: Record<string, string>;
  /** Its role is the one of its needs (decision 0051): table read and write, no Scan (it queries indexes). */
  functionRoles: FunctionRoles;
  /** The workers' shared log group. */
  logGroup: ILogGroup;
}

export class AbandonedWorkSweeper extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: AbandonedWorkSweeperProps) {
    super(scope, id);
    const handler = 'sweep-abandoned-work';
    const role = props.functionRoles.roleFor(handler);
    const worker = new HandlerFunction(this, 'Worker', {
      handler,
      timeout: Duration.minutes(2),
      environment: props.environment,
      // Unused with a shared group (its removal policy is the group's own).
      retainLogs: false,
      role,
      logGroup: props.logGroup,
    });
    props.functionRoles.allowLogs(role, props.logGroup);
    this.function = worker.function;
    new Rule(this, 'Every5Minutes', {
      schedule: Schedule.rate(sweepEvery),
      targets: [new LambdaTarget(this.function, { retryAttempts: 0 })],
    });
  }
}
