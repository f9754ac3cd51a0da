/**
 * The embedded demo database's initdb, done once per machine instead of once per runtime start.
 * initdb in PGlite's WebAssembly took ~5.8 s of CPU (opening the finished directory: 0.4 s), and
 * most test files start a runtime of their own. The template is made by the product's own code
 * (`startEmbeddedDemoDatabase` on an empty directory, so initdb with the runtime's options) and
 * copied into a data directory before the runtime starts there; the runtime then finds
 * `PG_VERSION`, skips initdb as on any restart, and applies its demo schema itself as on a first
 * start. The cache key has PGlite's version and the demo database's sources, so a change to either
 * makes a new template.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmbeddedDemoDatabase } from '../../local/demo-database.ts';
import { repoRoot } from './process.ts';

/** Where `startLocalRuntime` keeps the demo database inside its data directory (local/runtime.ts). */
export const demoDatabaseDirName = 'demo-postgres';

function templateKey(): string {
  const hash = createHash('sha256');
  // The package's own manifest (its exports do not include package.json) and the sources that make it.
  for (const file of [
    'node_modules/@electric-sql/pglite/package.json',
    'local/demo-database.ts',
    'local/demo-database-initdb.mjs',
  ]) {
    hash.update(readFileSync(join(repoRoot, file)));
  }
  return hash.digest('hex').slice(0, 20);
}

let template: Promise<string> | undefined;

function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = join(repoRoot, 'node_modules', '.cache', 'dogu-test-pglite', templateKey());
    if (existsSync(join(dir, 'PG_VERSION'))) return dir;
    // Made beside its place and renamed into it: test files starting at once may each make one;
    // the first rename wins and the others go.
    const making = `${dir}.${process.pid}-${randomUUID()}`;
    await mkdir(making, { recursive: true });
    const database = await startEmbeddedDemoDatabase(making, 0);
    await database.close();
    await rename(making, dir).catch(async (error) => {
      if (!existsSync(join(dir, 'PG_VERSION'))) throw error;
      await rm(making, { recursive: true, force: true });
    });
    return dir;
  })();
  return template;
}

/**
 * Puts a finished, empty demo database into `dataDir` (as its initdb would leave it), unless the
 * directory has one already (a restart on the same data directory keeps its data).
 */
export async function seedDemoDatabaseDir(dataDir: string): Promise<void> {
  const target = join(dataDir, demoDatabaseDirName);
  if (existsSync(target)) return;
  await cp(await pgliteTemplate(), target, { recursive: true, errorOnExist: true, force: false });
}
