/**
 * Load drivers shared by the benches: a closed loop of N workers, each firing
 * its next request as soon as the previous one answers. One worker gives
 * unloaded latency; many give throughput (and latency under load).
 */
import { performance } from 'node:perf_hooks';
import { type LatencySummary, round3, roundSummary, summarizeLatencies } from './stats.ts';

/** One request; it throws when the answer is wrong, so failures are counted, never hidden. */
export type RequestFn = () => Promise<void>;

export interface LoadResult {
  concurrency: number;
  requests: number;
  errors: number;
  /** A few distinct error messages, so a failing run says why. */
  errorSamples: string[];
  elapsedMs: number;
  requestsPerSecond: number;
  /** Over successful requests only. */
  latencyMs: LatencySummary;
}

export type LoadLimit = { requests: number } | { durationMs: number } | { stop: () => boolean };

const maxErrorSamples = 5;

export async function runLoad(
  request: RequestFn,
  options: { concurrency: number; limit: LoadLimit },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorSamples = new Set<string>();
  let started = 0;
  let errors = 0;
  const begin = performance.now();
  const hasBudget = budgetOf(options.limit, begin);

  const worker = async () => {
    while (hasBudget(started)) {
      started++;
      const t0 = performance.now();
      try {
        await request();
        latencies.push(performance.now() - t0);
      } catch (error) {
        errors++;
        if (errorSamples.size < maxErrorSamples) errorSamples.add(describe(error));
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));

  // Throughput counts every request until the last one answered: a worker's
  // final request may end after the deadline, and it did real work.
  const elapsedMs = performance.now() - begin;
  return {
    concurrency: options.concurrency,
    requests: started,
    errors,
    errorSamples: [...errorSamples],
    elapsedMs: round3(elapsedMs),
    requestsPerSecond: Math.round((latencies.length / elapsedMs) * 1000 * 10) / 10,
    latencyMs: roundSummary(summarizeLatencies(latencies)),
  };
}

function budgetOf(limit: LoadLimit, begin: number): (started: number) => boolean {
  if ('requests' in limit) return (started) => started < limit.requests;
  if ('stop' in limit) return () => !limit.stop();
  const deadline = begin + limit.durationMs;
  return () => performance.now() < deadline;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
