import { performance } from 'node:perf_hooks';

const begin = performance.now();

/** Progress goes to stderr, so stdout carries only the result tables and can be piped. */
export function progress(message: string): void {
  const seconds = ((performance.now() - begin) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[${seconds}s] ${message}\n`);
}
