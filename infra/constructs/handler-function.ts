/** One Lambda function for one handler module `functions/<handler>.ts`, bundled locally by esbuild. */
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';
import { bundleHandler } from './handler-bundle.ts';

export interface HandlerFunctionProps {
  /** Module name from the route table, e.g. 'execute-action'. */
  handler: string;
  timeout: Duration;
  environment: Record<string, string>;
  /** Keep logs after the stack is deleted (production); for a log group of its own. */
  retainLogs: boolean;
  /** A role shared with other functions (the API functions share one: decision 0023). */
  role?: IRole;
  /** A log group shared with other functions; otherwise the function gets one of its own. */
  logGroup?: ILogGroup;
}

/** Log retention of every Dogu function. */
export const logRetention = RetentionDays.ONE_MONTH;

export class HandlerFunction extends Construct {
  readonly function: LambdaFunction;
  readonly logGroup: ILogGroup;
  /** The handler module this function runs (what it composes decides its role and network). */
  readonly handler: string;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);

    // An explicit log group (instead of the deprecated logRetention custom resource) so the
    // retention is plain CloudFormation and the group is removed or kept with the stack.
    const logGroup =
      props.logGroup ??
      new LogGroup(this, 'Logs', {
        retention: logRetention,
        removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });

    this.function = new LambdaFunction(this, 'Function', {
      code: bundleHandler(props.handler),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      // Graviton: cheaper per GB-second, and nothing here is native code.
      architecture: Architecture.ARM_64,
      // Memory buys CPU on Lambda; 1 GB keeps cold starts and JSON work quick.
      memorySize: 1024,
      timeout: props.timeout,
      environment: props.environment,
      logGroup,
      // X-Ray: a request's path through API Gateway, the function and its AWS calls (docs/deploy.md).
      tracing: Tracing.ACTIVE,
      ...(props.role ? { role: props.role } : {}),
    });
    this.logGroup = logGroup;
    this.handler = props.handler;
    acknowledge(
      this.function,
      'L1',
      'nodejs22.x is the runtime the bundles are built and tested for (esbuild target node22); moving to nodejs24.x is a deliberate upgrade with its own tests.',
    );
  }
}
