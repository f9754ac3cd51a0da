/**
 * The shape every comparison bench shares: one subject (Dogu) against a
 * baseline (the same work done directly), optionally with reference subjects
 * for information (e.g. the "http floor"). All subjects get the same phases
 * in one run, interleaved phase by phase, so slow drift of the machine hits
 * them alike; the checks then compare the `latency` and `throughput` rows.
 */
import { type LoadLimit, type RequestFn, runLoad } from './load.ts';
import { progress } from './progress.ts';
import { type Check, check, errorsIn, type Phase } from './report.ts';
import { sized } from './smoke.ts';
import { round3 } from './stats.ts';

export interface Subject {
  /** The `subject` of its phase rows, e.g. 'raw pg'. */
  name: string;
  /** How the check names call it, e.g. 'raw' for 'raw pg'; defaults to `name`. */
  label?: string;
  /** One request; throws when the answer is wrong. */
  request: RequestFn;
  /**
   * At most this many requests in each phase limited by a request count (warm-up, latency): for a
   * side so slow that the full count would take minutes (the n8n peer). Throughput phases are timed.
   */
  maxRequests?: number;
  /** Awaited after each of its phases, before the next side is measured (e.g. until its server is idle). */
  settle?: () => Promise<void>;
  /** The resident memory of the process serving it (MB), recorded at the end of its throughput phase. */
  rssMb?: () => number | undefined;
}

/**
 * Request counts, concurrency and targets. A type alias, not an interface,
 * so it spreads into a report's `parameters` (a JSON index signature).
 */
export type PhasePlan = {
  warmUpSequentialRequests: number;
  warmUpConcurrentRequests: number;
  latencyConcurrency: number;
  latencyRequests: number;
  throughputConcurrency: number;
  throughputDurationMs: number;
  targets: { addedP50LatencyMs: number; throughputRatioPercent: number };
};

/** What every bench uses, so their results read side by side. The targets are the issues'. */
export const standardPhases: PhasePlan = {
  warmUpSequentialRequests: sized(200, 5),
  warmUpConcurrentRequests: sized(1_000, 32),
  latencyConcurrency: 1,
  latencyRequests: sized(2_000, 10),
  throughputConcurrency: 32,
  throughputDurationMs: sized(5_000, 300),
  targets: { addedP50LatencyMs: 2, throughputRatioPercent: 40 },
};

export interface Comparison {
  phases: Phase[];
  checks: Check[];
  /** Failed requests over all phases, warm-up included. */
  errors: number;
}

/**
 * Measures, in each phase, the baseline first, then the references in the
 * order given, then the subject. Warm-up first (JIT, pool connections, the
 * database's caches), then latency at `latencyConcurrency`, then throughput
 * at `throughputConcurrency`.
 *
 * Checks, in this order: added p50 (target), added p99 (info) and throughput
 * ratio (target) of the subject against the baseline; then per reference
 * (info): the subject's added p50 and throughput ratio against it, and its
 * own throughput ratio against the baseline.
 */
export async function compareSubjects(options: {
  subject: Subject;
  baseline: Subject;
  references?: readonly Subject[];
  phases: PhasePlan;
}): Promise<Comparison> {
  const { subject, baseline, references = [], phases: plan } = options;
  const phases = await measure([baseline, ...references, subject], plan);
  return {
    phases,
    checks: checks(phases, { subject, baseline, references, targets: plan.targets }),
    errors: errorsIn(phases),
  };
}

async function measure(subjects: readonly Subject[], p: PhasePlan): Promise<Phase[]> {
  const oneAtATime = (requests: number) => ({ concurrency: p.latencyConcurrency, limit: { requests } });
  const concurrent = (limit: LoadLimit) => ({ concurrency: p.throughputConcurrency, limit });
  const plan: [name: string, load: { concurrency: number; limit: LoadLimit }][] = [
    ['warm-up', oneAtATime(p.warmUpSequentialRequests)],
    ['warm-up', concurrent({ requests: p.warmUpConcurrentRequests })],
    ['latency', oneAtATime(p.latencyRequests)],
    ['throughput', concurrent({ durationMs: p.throughputDurationMs })],
  ];
  const phases: Phase[] = [];
  for (const [name, load] of plan) {
    for (const subject of subjects) {
      progress(`${name}: ${subject.name} at concurrency ${load.concurrency}`);
      const limit =
        'requests' in load.limit && subject.maxRequests !== undefined
          ? { requests: Math.min(load.limit.requests, subject.maxRequests) }
          : load.limit;
      const result = await runLoad(subject.request, { ...load, limit });
      if (result.errors > 0) progress(`  ${result.errors} error(s), e.g. ${result.errorSamples[0]}`);
      const rssMb = name === 'throughput' ? subject.rssMb?.() : undefined;
      phases.push({ name, subject: subject.name, ...result, ...(rssMb === undefined ? {} : { rssMb }) });
      await subject.settle?.();
    }
  }
  return phases;
}

function checks(
  phases: readonly Phase[],
  roles: {
    subject: Subject;
    baseline: Subject;
    references: readonly Subject[];
    targets: PhasePlan['targets'];
  },
): Check[] {
  const find = (name: string, of: Subject) => {
    const phase = phases.find((p) => p.name === name && p.subject === of.name);
    if (!phase) throw new Error(`No ${name} phase for ${of.name}.`);
    return phase;
  };
  const p50 = (of: Subject) => find('latency', of).latencyMs.p50;
  const p99 = (of: Subject) => find('latency', of).latencyMs.p99;
  const perSecond = (of: Subject) => find('throughput', of).requestsPerSecond;
  const percentOf = (part: Subject, whole: Subject) => round3((perSecond(part) / perSecond(whole)) * 100);
  const label = (of: Subject) => of.label ?? of.name;
  const { subject: s, baseline: b, targets } = roles;
  return [
    // The targets: the subject against doing the same work yourself.
    check(`added p50 latency (${label(s)} - ${label(b)})`, round3(p50(s) - p50(b)), 'ms', {
      comparison: '<=',
      value: targets.addedP50LatencyMs,
    }),
    check(`added p99 latency (${label(s)} - ${label(b)})`, round3(p99(s) - p99(b)), 'ms'),
    check(`throughput ratio (${label(s)} / ${label(b)})`, percentOf(s, b), '%', {
      comparison: '>=',
      value: targets.throughputRatioPercent,
    }),
    // Information: the same against each reference, and the reference against the baseline.
    ...roles.references.flatMap((r) => [
      check(`added p50 latency (${label(s)} - ${label(r)})`, round3(p50(s) - p50(r)), 'ms'),
      check(`throughput ratio (${label(s)} / ${label(r)})`, percentOf(s, r), '%'),
      check(`throughput ratio (${label(r)} / ${label(b)})`, percentOf(r, b), '%'),
    ]),
  ];
}
