/**
 * `npm start`'s prestart (scripts/prestart.ts), first half: builds the console (web/dist) only when its sources changed since the
 * last build, so a start does not wait for Vite every time. The hash covers every file under
 * web/ except the build itself, and the lockfile (a dependency upgrade rebuilds too).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const hashFileName = '.source-hash';

async function filesUnder(dir: string, skip: (path: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (skip(path)) return [];
      return entry.isDirectory() ? filesUnder(path, skip) : entry.isFile() ? [path] : [];
    }),
  );
  return nested.flat();
}

/** The hash of what the console is built from, below `root` (the repository). */
export async function consoleSourceHash(root: string): Promise<string> {
  const web = join(root, 'web');
  const dist = join(web, 'dist');
  const files = await filesUnder(web, (path) => path === dist || path.endsWith('node_modules'));
  files.push(join(root, 'package-lock.json'));
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)).catch(() => Buffer.alloc(0)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True when web/dist is missing or was built from other sources. */
export async function consoleBuildNeeded(root: string): Promise<boolean> {
  const built = await readFile(join(root, 'web', 'dist', hashFileName), 'utf8').catch(() => '');
  return built.trim() !== (await consoleSourceHash(root));
}

export async function recordConsoleBuild(root: string): Promise<void> {
  await writeFile(join(root, 'web', 'dist', hashFileName), `${await consoleSourceHash(root)}\n`);
}

/** Builds web/dist with Vite when its sources changed since the last build. */
export async function buildConsoleIfChanged(root: string): Promise<void> {
  if (!(await consoleBuildNeeded(root))) return;
  const { build } = await import('vite');
  await build({ configFile: join(root, 'web', 'vite.config.ts'), logLevel: 'warn' });
  await recordConsoleBuild(root);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildConsoleIfChanged(new URL('..', import.meta.url).pathname);
}
