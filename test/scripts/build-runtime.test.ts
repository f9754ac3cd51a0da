/**
 * `npm start`'s runtime bundle (scripts/build-runtime.ts, run by prestart) on a small repository of
 * its own: built when missing or when its sources changed, skipped otherwise; a failed build names
 * no bundle, and scripts/start.mjs (run as a real process) then starts the sources with tsx.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordConsoleBuild } from '../../scripts/build-console.ts';
import {
  buildRuntime,
  currentRuntimeEntry,
  defaultRuntimeBuildDir,
  runtimeBuildNeeded,
} from '../../scripts/build-runtime.ts';
import { repoRoot } from '../support/process.ts';

let root: string;
let buildDir: string;

// The entry prints where `import.meta.url` points: in the bundle it must still name the source file.
const mainSource = (word: string) =>
  `import { word } from '../shared/word.ts';\nconsole.log(word, '${word}', new URL('./data.txt', import.meta.url).pathname);\n`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dogu-runtime-build-'));
  for (const dir of ['local', 'shared', 'functions', 'scripts', 'web', 'test']) await mkdir(join(root, dir));
  await writeFile(join(root, 'local', 'main.ts'), mainSource('one'));
  await writeFile(join(root, 'shared', 'word.ts'), "export const word: string = 'hello';\n");
  await writeFile(join(root, 'functions', 'health.ts'), 'export const handler = () => 1;\n');
  await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
  await writeFile(join(root, 'tsconfig.json'), '{}\n');
  await writeFile(join(root, 'package.json'), '{"type":"module"}\n');
  // The worker entries the build names (here trivial ones).
  await writeFile(join(root, 'local', 'dynalite-worker.mjs'), 'export {};\n');
  await mkdir(join(root, 'local', 'sqlite'));
  await writeFile(join(root, 'local', 'sqlite', 'checkpoint-worker.mjs'), 'export {};\n');
  await mkdir(join(root, 'shared', 'adapters', 'sandbox'), { recursive: true });
  await writeFile(join(root, 'shared', 'adapters', 'sandbox', 'sandbox-worker.ts'), 'export {};\n');
  await copyFile(join(repoRoot, 'scripts', 'start.mjs'), join(root, 'scripts', 'start.mjs'));
  for (const script of ['build-runtime.ts', 'build-console.ts', 'prestart.ts'])
    await copyFile(join(repoRoot, 'scripts', script), join(root, 'scripts', script));
  await mkdir(join(root, 'web', 'dist'));
  // start.mjs's fallback imports tsx from the repository's dependencies.
  await symlink(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  buildDir = defaultRuntimeBuildDir(root);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const start = () =>
  spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });

describe('runtime bundle on npm start', () => {
  it('builds when there is none, runs it without tsx, and skips the build for the same sources', async () => {
    expect(await runtimeBuildNeeded(root)).toBe(true);
    expect(await currentRuntimeEntry(buildDir)).toBeUndefined();
    const entry = await buildRuntime(root);
    expect(await currentRuntimeEntry(buildDir)).toBe(entry);
    expect(await runtimeBuildNeeded(root)).toBe(false);
    const run = start();
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(`hello one ${join(root, 'local', 'data.txt')}`);
    // The bundle, not the sources: its entry holds the imported module.
    expect(await readFile(entry, 'utf8')).toContain('var word = "hello"');
  });

  it('builds again when a file under local/, shared/ or functions/, or the lockfile, changes', async () => {
    for (const [file, text] of [
      ['local/main.ts', mainSource('two')],
      ['shared/word.ts', "export const word: string = 'hi';\n"],
      ['functions/new-handler.ts', 'export const handler = () => 2;\n'],
      ['package-lock.json', '{"lockfileVersion":3,"packages":{}}\n'],
    ] as const) {
      await writeFile(join(root, file), text);
      expect(await runtimeBuildNeeded(root), file).toBe(true);
      await buildRuntime(root);
      expect(await runtimeBuildNeeded(root), file).toBe(false);
    }
    expect(start().stdout).toMatch(/^hi two /);
    // Earlier builds are kept for processes still running them, up to three.
    const builds = (await readdir(buildDir, { withFileTypes: true })).filter((entry) => entry.isDirectory());
    expect(builds.length).toBe(3);
  });

  it('two starts building at once both end with one finished build named current', async () => {
    await writeFile(join(root, 'shared', 'word.ts'), "export const word: string = 'both';\n");
    const [first, second] = await Promise.all([buildRuntime(root), buildRuntime(root)]);
    expect(first).toBe(second);
    expect(await currentRuntimeEntry(buildDir)).toBe(first);
    expect(start().stdout).toMatch(/^both /);
    expect((await readdir(buildDir)).filter((name) => name.includes('.'))).toEqual([]);
  });

  it('ignores files the bundle is not built from', async () => {
    await writeFile(join(root, 'web', 'notes.md'), 'not a runtime source\n');
    await writeFile(join(root, 'test', 'a.test.ts'), 'export {};\n');
    expect(await runtimeBuildNeeded(root)).toBe(false);
  });

  it('names no bundle after a failed build, and start.mjs runs the sources with tsx', async () => {
    await writeFile(join(root, 'local', 'main.ts'), `${mainSource('three')}export const broken = ;\n`);
    await expect(buildRuntime(root)).rejects.toThrow('local/main.ts:3:22: Unexpected ";"');
    expect(await currentRuntimeEntry(buildDir)).toBeUndefined();
    expect(await runtimeBuildNeeded(root)).toBe(true);
    // prestart itself: one line, and the start goes on (the console is built already here).
    await recordConsoleBuild(root);
    const prestart = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'prestart.ts')], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(prestart.status).toBe(0);
    expect(prestart.stderr).toBe(
      'Dogu: the runtime bundle could not be built (local/main.ts:3:22: Unexpected ";"); starting from the TypeScript sources with tsx instead.\n',
    );
    expect((await readdir(buildDir)).filter((name) => name.includes('.'))).toEqual([]); // no half-written build
    await writeFile(join(root, 'local', 'main.ts'), mainSource('three'));
    // Not built again: start.mjs falls back to the TypeScript sources.
    const run = start();
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(`both three ${join(root, 'local', 'data.txt')}`);
  });
});
