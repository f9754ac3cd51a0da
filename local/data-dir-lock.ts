/**
 * One Dogu process per data directory: LevelDB would refuse a second one with
 * an opaque error, so say plainly who holds it. A lock left by a process that
 * died (kill -9, power loss) is taken over.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, 'dogu.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(`The data directory ${dataDir} is in use by another Dogu process (pid ${holder}).`);
    }
    await rm(path, { force: true }); // stale: its process is gone
  }
  throw new Error(`Could not lock the data directory ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
