import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleBuildNeeded, consoleSourceHash, recordConsoleBuild } from '../../scripts/build-console.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'dogu-console-build-'));
  await mkdir(join(root, 'web', 'src'), { recursive: true });
  await mkdir(join(root, 'web', 'dist'), { recursive: true });
  await writeFile(join(root, 'web', 'src', 'main.tsx'), 'export const a = 1;\n');
  await writeFile(join(root, 'web', 'vite.config.ts'), 'export default {};\n');
  await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('console build on npm start', () => {
  it('builds when web/dist has no record, and not again for the same sources', async () => {
    expect(await consoleBuildNeeded(root)).toBe(true);
    await recordConsoleBuild(root);
    expect(await consoleBuildNeeded(root)).toBe(false);
  });

  it('builds again when a source, the Vite config or the lockfile changes', async () => {
    await recordConsoleBuild(root);
    for (const [file, text] of [
      ['web/src/main.tsx', 'export const a = 2;\n'],
      ['web/vite.config.ts', 'export default { base: "/" };\n'],
      ['package-lock.json', '{"lockfileVersion":3,"packages":{}}\n'],
      ['web/src/new-screen.tsx', 'export {};\n'],
    ] as const) {
      await writeFile(join(root, file), text);
      expect(await consoleBuildNeeded(root), file).toBe(true);
      await recordConsoleBuild(root);
    }
  });

  it('ignores what the build writes: a new file under web/dist changes nothing', async () => {
    const before = await consoleSourceHash(root);
    await writeFile(join(root, 'web', 'dist', 'index.html'), '<!doctype html>');
    expect(await consoleSourceHash(root)).toBe(before);
  });
});
