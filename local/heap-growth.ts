/**
 * Imported first by the embedded runtime's entry (local/main.ts), before anything allocates much:
 * V8 grows a heap after each full collection by a factor it picks from the collection's speed, up
 * to 4× what survived. Under many clients the runtime's main heap and its store worker's heap then
 * keep hundreds of MB of garbage between collections, which the process keeps as resident memory.
 * A fixed, smaller factor keeps the heaps near what is live (decision 0257). Set before the worker
 * threads start, so their heaps take it too. A `--heap-growing-percent` given on the command line
 * or in NODE_OPTIONS wins.
 */
import { setFlagsFromString } from 'node:v8';

export const heapGrowingPercent = 25;

const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((flag) =>
  /^--heap[-_]growing[-_]percent\b/.test(flag),
);
if (!given) setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
