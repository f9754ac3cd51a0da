/** Summaries of latency samples; every bench reports the same fields so results compare across benches. */

export interface LatencySummary {
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * Nearest-rank percentile of already sorted samples: always a value that was
 * really observed, so a p99 of 2,000 samples is the 1,980th, not an interpolation.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarizeLatencies(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    min: sorted[0] ?? Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
  };
}

/** Rounds for the report: microsecond resolution is plenty and keeps the JSON readable. */
export const round3 = (value: number) => Math.round(value * 1000) / 1000;

export function roundSummary(summary: LatencySummary): LatencySummary {
  return {
    min: round3(summary.min),
    p50: round3(summary.p50),
    p90: round3(summary.p90),
    p99: round3(summary.p99),
    max: round3(summary.max),
    mean: round3(summary.mean),
  };
}
