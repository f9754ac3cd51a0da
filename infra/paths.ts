/** Absolute paths the stack needs, resolved from this file so `cdk synth` and vitest agree. */
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The lock file pins the versions esbuild bundles; CDK also uses it to pick npm. */
export const lockFilePath = fileURLToPath(new URL('../package-lock.json', import.meta.url));

/** `functions/<handler>.ts`, the module that exports the route's `handler`. */
export const handlerEntry = (handler: string) =>
  fileURLToPath(new URL(`../functions/${handler}.ts`, import.meta.url));

/** `functions/`, the handler modules (one Lambda function each). */
export const functionsDir = fileURLToPath(new URL('../functions', import.meta.url));
