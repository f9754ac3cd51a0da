/**
 * The sweeper of abandoned work (decision 0056, functions/sweep-abandoned-work.ts): every five minutes
 * it ends executions, cron runs and jobs whose worker died; the state machines' Catch steps invoke it
 * with the failed job or batch. Ending a run twice writes the same outcome, so overlapping sweeps do no harm.
 */
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { DataTable } from './data-table.ts';
import { HandlerFunction } from './handler-function.ts';
import type { SigningKey } from './signing-key.ts';

export const sweepEvery = Duration.minutes(5);

export interface AbandonedWorkSweeperProps {
  environment: Record<string, string>;
  dataTable: DataTable;
  signingKey: SigningKey;
  retainLogs: boolean;
}

export class AbandonedWorkSweeper extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: AbandonedWorkSweeperProps) {
    super(scope, id);
    this.function = new HandlerFunction(this, 'Worker', {
      handler: 'sweep-abandoned-work',
      timeout: Duration.minutes(2),
      environment: props.environment,
      retainLogs: props.retainLogs,
    }).function;
    props.dataTable.table.grantReadWriteData(this.function);
    props.dataTable.encryptionKey.grantEncryptDecrypt(this.function);
    props.signingKey.secret.grantRead(this.function);
    new Rule(this, 'Every5Minutes', {
      schedule: Schedule.rate(sweepEvery),
      targets: [new LambdaTarget(this.function, { retryAttempts: 0 })],
    });
  }
}
