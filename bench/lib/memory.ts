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
