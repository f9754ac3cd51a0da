/**
 * `npm start`'s prestart, second half: bundles the embedded runtime (local/main.ts and everything it
 * imports from local/, shared/ and functions/) into plain JavaScript under `.dogu/build/runtime/`, so
 * a start loads a few prebuilt files instead of compiling ~400 TypeScript modules through tsx's
 * loader hooks (decision 0071). Built only when its sources changed, like the console
 * (scripts/build-console.ts): the hash covers those folders, the lockfile and this script.
 *
 * The bundle keeps the source tree's behaviour:
 * - Dependencies stay external: Node loads them from node_modules as it does without the bundle, so
 *   packages that find their own files (PGlite's WebAssembly and data, QuickJS's WebAssembly,
 *   dynalite's per-action modules) and CommonJS interop is Node's own, as without the bundle.
 * - The `import()`s by convention (each handler, each connector kind's runtime.ts) stay lazy: esbuild
 *   turns each template import into one chunk per matching file, loaded on first use.
 * - `import.meta.url` keeps naming the module's source file, so files read beside the sources
 *   (demo media, the demo gRPC proto, web/dist) are found in the repository, not beside the bundle.
 *   Worker threads are the exception: a `new URL('./x.mjs', import.meta.url)` that names a worker
 *   listed below points at that worker's own bundle entry instead (no TypeScript loader needed).
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Message, Plugin } from 'esbuild';

/** What the bundle is built from, below the repository root. */
const sourceDirs = ['local', 'shared', 'functions'];
const sourceFiles = ['package-lock.json', 'tsconfig.json', 'scripts/build-runtime.ts'];
/**
 * Names the current build: its sources' hash, which is also its folder's name (scripts/start.mjs
 * reads it). Written last, so only a finished build is ever named.
 */
const currentFileName = 'current';
/**
 * Builds kept: a running `npm start` loads chunks on first use, so a rebuild for a second start must
 * not delete the files of the first one.
 */
const buildsKept = 3;

/**
 * Worker threads: the file the sources start (`new URL(<file>, import.meta.url)`) → the module the
 * bundle's entry of the same name is built from.
 */
const workers: Record<string, string> = {
  'local/dynalite-worker.mjs': 'local/dynalite-worker.mjs',
  'local/sqlite/checkpoint-worker.mjs': 'local/sqlite/checkpoint-worker.mjs',
  // The source tree's entry registers tsx before importing the TypeScript worker; the bundle's is it.
  'shared/adapters/sandbox/sandbox-worker-entry.mjs': 'shared/adapters/sandbox/sandbox-worker.ts',
};

/** Where prestart builds (`.dogu/` holds the default data directory too, and is git-ignored). */
export const defaultRuntimeBuildDir = (root: string) => join(root, '.dogu', 'build', 'runtime');

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.name === 'node_modules') return [];
      return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
    }),
  );
  return nested.flat();
}

/** The hash of what the runtime bundle is built from, below `root` (the repository). */
export async function runtimeSourceHash(root: string): Promise<string> {
  const files = (await Promise.all(sourceDirs.map((dir) => filesUnder(join(root, dir))))).flat();
  files.push(...sourceFiles.map((file) => join(root, file)));
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)).catch(() => Buffer.alloc(0)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The entry of the current build in `buildDir` (what scripts/start.mjs runs), if there is one. */
export async function currentRuntimeEntry(buildDir: string): Promise<string | undefined> {
  const hash = (await readFile(join(buildDir, currentFileName), 'utf8').catch(() => '')).trim();
  return hash ? join(buildDir, hash, 'main.mjs') : undefined;
}

/** True when `buildDir` has no finished build of the current sources. */
export async function runtimeBuildNeeded(
  root: string,
  buildDir = defaultRuntimeBuildDir(root),
): Promise<boolean> {
  const built = (await readFile(join(buildDir, currentFileName), 'utf8').catch(() => '')).trim();
  if (built !== (await runtimeSourceHash(root))) return true;
  return !(await stat(join(buildDir, built, 'main.mjs')).catch(() => undefined));
}

/**
 * Builds the bundle into `buildDir/<hash>/` and then names it current. A build that fails leaves no
 * current build (scripts/start.mjs then runs the sources with tsx) and throws.
 */
export async function buildRuntime(root: string, buildDir = defaultRuntimeBuildDir(root)): Promise<string> {
  const hash = await runtimeSourceHash(root);
  const outDir = join(buildDir, hash);
  // Built beside its place and renamed into it: a second `npm start` building at the same time
  // never runs or deletes a half-written build.
  await mkdir(buildDir, { recursive: true });
  await rm(join(buildDir, currentFileName), { force: true });
  const writing = await mkdtemp(`${outDir}.`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: {
      main: join(root, 'local', 'main.ts'),
      ...Object.fromEntries(
        Object.entries(workers).map(([started, source]) => [workerName(started), join(root, source)]),
      ),
    },
    outdir: writing,
    bundle: true,
    splitting: true,
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    // Stack traces name the sources with --enable-source-maps; the sources are in the repository.
    sourcemap: true,
    sourcesContent: false,
    absWorkingDir: root,
    // The same folder depth as `outDir`, so the paths relative to the bundle hold after the rename.
    plugins: [sourceRelativeUrls(root, writing)],
    // The caller says what failed, in one line (scripts/prestart.ts).
    logLevel: 'silent',
  }).catch(async (error: { errors?: Message[]; message: string }) => {
    await rm(writing, { recursive: true, force: true });
    throw new Error(error.errors?.[0] ? describeProblem(error.errors[0]) : error.message);
  });
  // A folder already there is a finished build of the same sources (another start's), maybe running.
  await rename(writing, outDir).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    await rm(writing, { recursive: true, force: true });
  });
  const pending = `${writing}.${currentFileName}`;
  await writeFile(pending, `${hash}\n`);
  await rename(pending, join(buildDir, currentFileName));
  await removeOldBuilds(buildDir);
  return join(outDir, 'main.mjs');
}

function describeProblem({ text, location }: Message): string {
  return location ? `${location.file}:${location.line}:${location.column}: ${text}` : text;
}

async function removeOldBuilds(buildDir: string): Promise<void> {
  const entries = await readdir(buildDir, { withFileTypes: true });
  const builds = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && /^[0-9a-f]{64}$/.test(entry.name))
      .map(async (entry) => {
        const path = join(buildDir, entry.name);
        // Another start may be removing it at the same moment.
        return { path, mtimeMs: (await stat(path).catch(() => undefined))?.mtimeMs ?? 0 };
      }),
  );
  builds.sort((a, b) => b.mtimeMs - a.mtimeMs);
  await Promise.all(builds.slice(buildsKept).map(({ path }) => rm(path, { recursive: true, force: true })));
}

const workerName = (started: string) =>
  started
    .split('/')
    .at(-1)!
    .replace(/\.m?[jt]s$/, '');

/**
 * Rewrites `import.meta.url` in the repository's own modules to the URL of their source file,
 * computed from the bundle file's own URL (every output file sits in `outDir`), so a moved checkout
 * still works; and the URL of a listed worker to its bundle entry beside the bundle file.
 */
function sourceRelativeUrls(root: string, outDir: string): Plugin {
  const workerFiles = new Map(
    Object.keys(workers).map((started) => [join(root, started), workerName(started)]),
  );
  return {
    name: 'source-relative-urls',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
        if (args.path.includes('/node_modules/') || !args.path.startsWith(root)) return undefined;
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rewritten = text
          .replace(
            /new URL\((['"])(\.{1,2}\/[^'"]+)\1,\s*import\.meta\.url\)/g,
            (whole, _quote, path: string) => {
              const worker = workerFiles.get(resolve(dirname(args.path), path));
              return worker ? `new URL(${JSON.stringify(`./${worker}.mjs`)}, __doguBundleFileUrl)` : whole;
            },
          )
          .replaceAll('import.meta.url', '__doguSourceFileUrl');
        const fromBundle = relative(outDir, args.path).split('\\').join('/');
        // On the first line, so the source map's line numbers still match.
        const prelude = `const __doguBundleFileUrl = import.meta.url; const __doguSourceFileUrl = new URL(${JSON.stringify(fromBundle)}, import.meta.url).href; `;
        return { contents: prelude + rewritten, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/** Builds when the sources changed; resolves to the entry `npm start` runs. */
export async function buildRuntimeIfChanged(root: string, buildDir = defaultRuntimeBuildDir(root)) {
  if (await runtimeBuildNeeded(root, buildDir)) return buildRuntime(root, buildDir);
  return (await currentRuntimeEntry(buildDir))!;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildRuntimeIfChanged(new URL('..', import.meta.url).pathname);
}
