/**
 * Resident memory of a bench's server processes, read from /proc (Linux), so a
 * phase row can say what the process held at its end without asking it.
 */
import { readFileSync } from 'node:fs';

/** VmRSS of the process in MB, or undefined where /proc is not there (the row then stays empty). */
export function rssMbOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round((Number(kb) / 1024) * 10) / 10;
  } catch {
    return undefined;
  }
}

/** Samples the RSS every `everyMs` until stopped; `stop()` gives the peak. */
export function rssSampler(pid: number, everyMs = 250): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const now = rssMbOf(pid);
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** CPU time (user + system) the process has used so far, in ms, or undefined without /proc. */
function cpuMsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command; in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Waits until the process uses less than `maxShare` of a core over a second (at most `timeoutMs`):
 * a server still working off its backlog after its phase (n8n finishing its queued executions)
 * would otherwise take CPU from the next side measured.
 */
export async function untilQuiet(pid: number, maxShare = 0.1, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let before = cpuMsOf(pid);
  while (before !== undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = cpuMsOf(pid);
    if (after === undefined || after - before < maxShare * 1000) return;
    before = after;
  }
}
