/**
 * What every bench hands back to the runner: enough to print a table and to
 * write a JSON file that can be compared with an older run months later
 * (which machine, which commit, which parameters).
 */
import type { LoadResult } from './load.ts';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface Phase extends LoadResult {
  /** What was measured, e.g. 'latency' or 'throughput'. */
  name: string;
  /** Who served it, e.g. 'dogu' or 'raw pg'. */
  subject: string;
  /** Resident memory of the serving process at the end of the phase (MB), where measured. */
  rssMb?: number;
  /** The highest resident memory sampled during the phase (MB), where measured. */
  peakRssMb?: number;
}

export interface Target {
  /** The value must be at most (`<=`) or at least (`>=`) this. */
  comparison: '<=' | '>=';
  value: number;
}

export interface Check {
  name: string;
  value: number;
  unit: string;
  /** Without a target the check is informational. */
  target?: Target;
  met?: boolean;
}

export interface BenchReport {
  bench: string;
  title: string;
  startedAt: string;
  finishedAt: string;
  parameters: { [key: string]: Json };
  /** Facts about the setup learned at run time, e.g. the PostgreSQL version. */
  environment: { [key: string]: Json };
  phases: Phase[];
  checks: Check[];
  /** Requests that failed over all phases, warm-up included; non-zero makes the run invalid. */
  errors: number;
  notes: string[];
}

export function check(name: string, value: number, unit: string, target?: Target): Check {
  if (!target) return { name, value, unit };
  const met = target.comparison === '<=' ? value <= target.value : value >= target.value;
  return { name, value, unit, target, met };
}

export function errorsIn(phases: readonly LoadResult[]): number {
  return phases.reduce((total, phase) => total + phase.errors, 0);
}
