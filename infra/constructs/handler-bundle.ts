/**
 * Bundles the handler modules `functions/<handler>.ts` for Lambda with esbuild, in process: ESM with
 * code splitting, so what a handler imports lazily (each data-source kind's runtime and driver,
 * the SDK clients of a service group) is a chunk of its own, loaded on first use
 * (docs/decisions/0022). NodejsFunction cannot split: it always passes `--outfile`.
 *
 * The handlers are built in two esbuild runs (each module parsed once per run, not once per
 * function): those that compose the action engines, and the others. Within a run esbuild keeps
 * the code of a module that any of its entries uses, so the code that runs actions must never
 * share a run with a lean function. Each function's asset is then its entry, as `index.mjs`,
 * with the chunks it reaches.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { buildSync, type Metafile } from 'esbuild';
import { functionsDir, repoRoot } from '../paths.ts';

/** The bundle is ESM; some dependencies still call `require`, which ESM lacks. */
const requireShim = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** The file Lambda loads: `index.handler`. */
export const handlerFile = 'index.mjs';

interface SharedBuild {
  dir: string;
  metafile: Metafile;
}

/** A handler runs actions when its module composes the action engines (docs/decisions/0022). */
export function composesActionEngines(handler: string): boolean {
  return readFileSync(join(functionsDir, `${handler}.ts`), 'utf8').includes('/groups/action-engines.ts');
}

const builds = new Map<boolean, SharedBuild>();

function buildHandlers(actionEngines: boolean): SharedBuild {
  const dir = mkdtempSync(join(tmpdir(), 'dogu-handlers-'));
  const entries = readdirSync(functionsDir).filter(
    (file) => file.endsWith('.ts') && composesActionEngines(basename(file, '.ts')) === actionEngines,
  );
  const { metafile } = buildSync({
    entryPoints: Object.fromEntries(entries.map((file) => [basename(file, '.ts'), join(functionsDir, file)])),
    outdir: dir,
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
    absWorkingDir: repoRoot,
    metafile: true,
    // Only problems: a size summary per bundle is noise in `cdk synth` and `npm test`.
    logLevel: 'warning',
  });
  return { dir, metafile };
}

/**
 * Output files (names in the build directory) the entry loads, statically or lazily; the entry
 * itself only when one of them imports it (it is deployed as index.mjs).
 */
function reachableFrom(build: SharedBuild, entry: string): Set<string> {
  const outputs = build.metafile.outputs;
  const key = (file: string) => Object.keys(outputs).find((o) => o === file || o.endsWith(`/${file}`));
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const imported of outputs[output]?.imports ?? []) {
      if (!imported.external) visit(imported.path);
    }
  };
  const start = key(entry);
  if (!start) throw new Error(`esbuild made no ${entry}: is functions/${basename(entry, '.mjs')}.ts there?`);
  visit(start);
  const importedBack = [...seen].some((o) => outputs[o]?.imports.some((i) => i.path === start));
  if (!importedBack) seen.delete(start);
  return new Set([...seen].map((output) => basename(output)));
}

export function bundleHandler(handler: string): Code {
  return Code.fromAsset(repoRoot, {
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
          const runsActions = composesActionEngines(handler);
          const shared = builds.get(runsActions) ?? buildHandlers(runsActions);
          builds.set(runsActions, shared);
          const entry = `${handler}.mjs`;
          for (const file of reachableFrom(shared, entry)) {
            copyFileSync(join(shared.dir, file), join(outputDir, file));
            const map = join(shared.dir, `${file}.map`);
            if (existsSync(map)) copyFileSync(map, join(outputDir, `${file}.map`));
          }
          // Lambda loads index.mjs; its source map comment still names the entry's map.
          copyFileSync(join(shared.dir, entry), join(outputDir, handlerFile));
          return true;
        },
      },
    },
  });
}
