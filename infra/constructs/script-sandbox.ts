/**
 * The script sandbox function (decision 0039): QuickJS for JavaScript actions and transformers in a
 * function of its own. Its role grants nothing (not even logs), its environment holds nothing of
 * Dogu's, and only the functions that run actions may invoke it.
 */
import { Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, type Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';
import { handlerEntry, lockFilePath, repoRoot } from '../paths.ts';

/** Where the bundle keeps the interpreter (the function reads it from QUICKJS_WASM_PATH). */
const wasmFile = 'quickjs.wasm';

export class ScriptSandbox extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Dogu script sandbox: grants nothing',
    });
    this.function = new NodejsFunction(this, 'Function', {
      entry: handlerEntry('script-sandbox'),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // A script may hold 64 MiB; the rest is the interpreter and Node. Memory also buys CPU.
      memorySize: 512,
      // One invocation runs at most until the script's next actions.run or its time limit; a
      // script of an asynchronous job may run up to the job's limit.
      timeout: Duration.minutes(15),
      role,
      environment: { QUICKJS_WASM_PATH: `/var/task/${wasmFile}` },
      projectRoot: repoRoot,
      depsLockFilePath: lockFilePath,
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        minify: true,
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) => [
            `cp "${inputDir}/node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm" "${outputDir}/${wasmFile}"`,
          ],
        },
      },
    });
    acknowledge(
      this.function,
      'L1',
      'nodejs22.x is the runtime the sandbox is built and tested for (esbuild target node22).',
    );
  }

  /** Lets an action-running function invoke the sandbox and tells it the sandbox's name. */
  allowInvoke(fn: LambdaFunction): void {
    this.function.grantInvoke(fn);
    fn.addEnvironment('DOGU_SANDBOX_FUNCTION', this.function.functionName);
  }
}
