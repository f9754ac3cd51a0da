/**
 * Bundles the handler modules `functions/<handler>.ts` for Lambda with esbuild, in process: ESM with
 * code splitting, so what a handler imports lazily (each data-source kind's runtime and driver,
 * the SDK clients of a service group) is a chunk of its own, loaded on first use
 * (docs/decisions/0022). NodejsFunction cannot split: it always passes `--outfile`.
 *
 * One esbuild run per function: a run with several entries keeps the code of a module that any
 * of them uses, which put code of other handlers (even the code that runs actions) into every
 * bundle of the run.
 */
import { join } from 'node:path';
import { AssetHashType, type AssetOptions, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { buildSync } from 'esbuild';
import { functionsDir, repoRoot } from '../paths.ts';

/** The bundle is ESM; some dependencies still call `require`, which ESM lacks. */
const requireShim = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** The file Lambda loads: `index.handler`. */
export const handlerFile = 'index.mjs';

function buildHandler(handler: string, outputDir: string): void {
  buildSync({
    entryPoints: { index: join(functionsDir, `${handler}.ts`) },
    outdir: outputDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    platform: 'node',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    // Stack traces name our sources (NODE_OPTIONS=--enable-source-maps); the sources themselves
    // are not needed for that, and would triple the maps' size.
    sourcemap: true,
    sourcesContent: false,
    banner: { js: requireShim },
    // The SDK is bundled, not taken from the runtime, so Lambda runs the versions we pin and
    // test. pg-native is pg's optional native binding, which we do not use.
    external: ['pg-native'],
    // The SDK's browser user-agent parser: dead code on Lambda (infra/bundling/no-browser-user-agent.ts).
    alias: { bowser: './infra/bundling/no-browser-user-agent.ts' },
    absWorkingDir: repoRoot,
    // Only problems: a size summary per bundle is noise in `cdk synth` and `npm test`.
    logLevel: 'warning',
  });
}

export function bundleHandler(handler: string): Code {
  return Code.fromAsset(repoRoot, handlerAssetOptions(handler));
}

/** The asset of one handler's bundle (the repository, bundled): a Lambda's code or a build's source. */
export function handlerAssetOptions(handler: string): AssetOptions {
  return {
    // The hash of what is deployed, so an unchanged bundle is not uploaded again.
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never Docker: synth must work offline and in CI without a daemon.
      image: DockerImage.fromRegistry('dummy'),
      // Never run (local bundling always succeeds), but CDK keys its bundling cache on these
      // options, not on `tryBundle`: without the handler here every function got the first bundle.
      command: ['bundle', handler],
      local: {
        tryBundle(outputDir: string) {
          buildHandler(handler, outputDir);
          return true;
        },
      },
    },
  };
}
