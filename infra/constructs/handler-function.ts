/** One Lambda function for one handler module `functions/<handler>.ts`, bundled locally by esbuild. */
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { handlerEntry, lockFilePath, repoRoot } from '../paths.ts';

export interface HandlerFunctionProps {
  /** Module name from the route table, e.g. 'execute-action'. */
  handler: string;
  timeout: Duration;
  environment: Record<string, string>;
  /** Keep logs after the stack is deleted (production). */
  retainLogs: boolean;
}

/** The bundle is ESM; some dependencies still call `require`, which ESM lacks. */
const requireShim = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export class HandlerFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);

    // An explicit log group (instead of the deprecated logRetention custom resource) so the
    // retention is plain CloudFormation and the group is removed or kept with the stack.
    const logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    this.function = new NodejsFunction(this, 'Function', {
      entry: handlerEntry(props.handler),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      // Graviton: cheaper per GB-second, and nothing here is native code.
      architecture: Architecture.ARM_64,
      // Memory buys CPU on Lambda; 1 GB keeps cold starts and JSON work quick.
      memorySize: 1024,
      timeout: props.timeout,
      environment: props.environment,
      logGroup,
      projectRoot: repoRoot,
      depsLockFilePath: lockFilePath,
      bundling: {
        // Never Docker: synth must work offline and in CI without a daemon. esbuild comes from
        // node_modules (CDK finds the package and runs it through npx).
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: true,
        // Only problems: the per-bundle size summary is noise in `cdk synth` and `npm test`.
        logLevel: LogLevel.WARNING,
        banner: requireShim,
        // The SDK is bundled, not taken from the runtime, so Lambda runs the versions we pin
        // and test. pg-native is pg's optional native binding, which we do not use.
        externalModules: ['pg-native'],
      },
    });
  }
}
