/** The facts that make two runs comparable (or explain why they are not). */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { repoRoot } from './paths.ts';

// A type alias, not an interface: only aliases are assignable to the JSON index signature.
export type MachineInfo = {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  platform: string;
  arch: string;
  node: string;
  /** Taken before the bench starts: above ~half the CPU count, something else was competing. */
  loadAverage1m: number;
  gitCommit: string | null;
  gitDirty: boolean | null;
};

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
    node: process.version,
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
    ...gitRevision(),
  };
}

/** The commit measured, and whether the work tree had changes (then the commit is only a hint). */
function gitRevision(): Pick<MachineInfo, 'gitCommit' | 'gitDirty'> {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    return { gitCommit: git('rev-parse', 'HEAD'), gitDirty: git('status', '--porcelain') !== '' };
  } catch {
    return { gitCommit: null, gitDirty: null };
  }
}
