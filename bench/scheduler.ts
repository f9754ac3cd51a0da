/**
 * Bench `scheduler`: how late do scheduled runs of the embedded runtime start with 10,000 active cron
 * jobs? An in-process embedded runtime (the real LocalScheduler, store and job path) on a scratch
 * PostgreSQL database gets 10,000 running jobs written straight to the store and armed in its
 * scheduler; a few hundred are due at each of the next two whole minutes, the rest hours later.
 * Lateness = observed time - scheduled time, measured twice per run: when the delivery callback
 * begins (the scheduler's own delay) and the run's `startedAt` (what users see; includes waiting
 * behind the scheduler's bounded delivery concurrency and the run's store writes).
 *
 * Baseline, same instants, same run: a separate bare Node process arming one plain `setTimeout` per
 * due job for the same instants: the timer floor of this machine under the same load. A separate
 * process, because timers in this one would queue behind the scheduler's own work.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type LocalRuntime, startLocalRuntime } from '../local/runtime.ts';
import { ensureLocalAdmin } from '../shared/domain/local-login.ts';
import type { CronJob } from '../shared/domain/scheduling/model.ts';
import type { SchedulingStore } from '../shared/domain/scheduling/ports.ts';
import { createScratchDatabase, serverVersion } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, type Phase } from './lib/report.ts';
import { sized } from './lib/smoke.ts';
import { round3, roundSummary, summarizeLatencies } from './lib/stats.ts';
import { withTeardown } from './lib/teardown.ts';

export const title = 'lateness of scheduled runs with 10,000 active cron jobs vs bare setTimeout';

const parameters = {
  activeJobs: sized(10_000, 40),
  /** Jobs due at each of the two measured minute boundaries. */
  dueAtEachBoundary: sized(300, 5),
  boundaries: sized(2, 1),
  action: 'demo/development/list-orders',
  arguments: { status: 'shipped', limit: 5 },
  /** The scheduler's default: deliveries running at once, more wait in order. */
  deliveryConcurrency: 64,
  targets: { p99LatenessMs: 50 },
};

/** Precise wall-clock milliseconds (Date.now() has 1 ms steps). */
const wallNow = () => performance.timeOrigin + performance.now();

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    const postgres = await serverVersion();
    const database = await createScratchDatabase('dogu_bench_sched');
    defer(() => database.drop(), `dropped database ${database.name}`);
    const dataDir = await mkdtemp(join(tmpdir(), 'dogu-bench-sched-'));
    defer(() => rm(dataDir, { recursive: true, force: true }));
    const runtime = await startLocalRuntime({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      demoDbPort: 0,
      devIdpPort: 0,
      demoDatabaseUrl: database.url,
    });
    defer(() => runtime.close(), 'stopped the runtime');

    const deliveryBegins = recordDeliveryBegins(runtime);
    const { boundaries, due } = await createJobs(runtime);
    progress(
      `armed ${runtime.scheduling.scheduler.size} jobs; due: ${boundaries.map((b) => b.toISOString())}`,
    );

    const floor = startTimerFloor(due.map((d) => d.at));
    const lastDue = boundaries.at(-1)!.getTime();
    progress(`waiting ${((lastDue - Date.now()) / 1000).toFixed(0)} s for the boundaries`);
    await waitUntil(() => deliveryBegins.size >= due.length, lastDue + 60_000 - Date.now());
    await waitForRunsToFinish(runtime.services.schedules, due);
    const floorLateness = await floor;

    const beginLateness: number[] = [];
    const startedLateness: number[] = [];
    const errorSamples = new Set<string>();
    let errors = 0;
    for (const { jobId, at } of due) {
      const run = await runtime.services.schedules.getCronRun(jobId, at.toISOString());
      const begun = deliveryBegins.get(jobId);
      if (!run?.startedAt || run.status !== 'completed' || begun === undefined) {
        errors++;
        errorSamples.add(`${jobId}: ${run ? `${run.status} ${run.reason ?? ''}` : 'no run'}`);
        continue;
      }
      beginLateness.push(begun - at.getTime());
      startedLateness.push(new Date(run.startedAt).getTime() - at.getTime());
    }
    const phases = [
      phase('setTimeout floor (own process)', floorLateness, 0, []),
      phase('scheduler: delivery begins', beginLateness, errors, [...errorSamples].slice(0, 5)),
      phase('scheduler: run startedAt', startedLateness, errors, [...errorSamples].slice(0, 5)),
    ];
    const [floorPhase, beginPhase, startedPhase] = phases as [Phase, Phase, Phase];
    const ratio = (a: number, b: number) => round3(a / Math.max(b, 0.001));
    return {
      bench: 'scheduler',
      title,
      startedAt,
      finishedAt: new Date().toISOString(),
      parameters,
      environment: { postgres, database: database.name },
      phases,
      checks: [
        check('p99 lateness, run startedAt', startedPhase.latencyMs.p99, 'ms', {
          comparison: '<=',
          value: parameters.targets.p99LatenessMs,
        }),
        check('p50 lateness, run startedAt', startedPhase.latencyMs.p50, 'ms'),
        check('p99 lateness, delivery begins', beginPhase.latencyMs.p99, 'ms', {
          comparison: '<=',
          value: parameters.targets.p99LatenessMs,
        }),
        check('p50 lateness, delivery begins', beginPhase.latencyMs.p50, 'ms'),
        check('p99 lateness, setTimeout floor', floorPhase.latencyMs.p99, 'ms'),
        check(
          'p99 ratio, startedAt / floor',
          ratio(startedPhase.latencyMs.p99, floorPhase.latencyMs.p99),
          'x',
        ),
        check(
          'p99 ratio, delivery begins / floor',
          ratio(beginPhase.latencyMs.p99, floorPhase.latencyMs.p99),
          'x',
        ),
      ],
      errors,
      notes: [
        'lateness = observed wall-clock time - scheduled time; "requests" = runs measured; req/s not applicable',
        'startedAt is stored with millisecond resolution; the other sides are sub-millisecond',
      ],
    };
  });
}

function phase(subject: string, samples: number[], errors: number, errorSamples: string[]): Phase {
  return {
    name: 'lateness',
    subject,
    concurrency: parameters.dueAtEachBoundary,
    requests: samples.length + errors,
    errors,
    errorSamples,
    elapsedMs: Number.NaN,
    requestsPerSecond: Number.NaN,
    latencyMs: roundSummary(summarizeLatencies(samples)),
  };
}

/**
 * The delivery callback's first step is reading the job (deliverCronRun), so the first read of each
 * job's record is when its delivery began. Only the bench's due jobs are ever read.
 */
function recordDeliveryBegins(runtime: LocalRuntime): Map<string, number> {
  const begins = new Map<string, number>();
  const store: SchedulingStore = runtime.services.schedules;
  const getCronJob = store.getCronJob.bind(store);
  store.getCronJob = (projectId, jobId) => {
    if (!begins.has(jobId)) begins.set(jobId, wallNow());
    return getCronJob(projectId, jobId);
  };
  return begins;
}

/**
 * 10,000 running jobs, each with a one-time cron expression in UTC: `dueAtEachBoundary` at each of the
 * next two whole minutes after setup, the rest spread over times 2-20 hours ahead.
 */
async function createJobs(runtime: LocalRuntime) {
  const { services } = runtime;
  const admin = await ensureLocalAdmin(services);
  const now = new Date().toISOString();
  const template = (id: string, at: Date): CronJob => ({
    id,
    projectId: 'demo',
    environmentId: 'development',
    name: id,
    schedule: { kind: 'cron', expression: cronAt(at) },
    timeZone: 'UTC',
    actionId: 'list-orders',
    arguments: parameters.arguments,
    executor: { kind: 'user', id: admin.id, email: admin.email },
    setBy: { id: admin.id, email: admin.email },
    state: 'running',
    overlap: 'allow',
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  const later = Array.from(
    { length: parameters.activeJobs - parameters.boundaries * parameters.dueAtEachBoundary },
    (_, i) => template(`cron_bench_later_${i}`, new Date(Date.now() + 2 * 3600_000 + (i % 1080) * 60_000)),
  );
  const t0 = performance.now();
  await inParallel(later, 32, (job) => services.schedules.saveCronJob(job, 0));
  progress(`saved ${later.length} later jobs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // The due jobs are written last, so their boundaries are the first whole minutes with room to arm them.
  const firstBoundary = Math.ceil((Date.now() + sized(20_000, 3_000)) / 60_000) * 60_000;
  const boundaries = Array.from(
    { length: parameters.boundaries },
    (_, i) => new Date(firstBoundary + i * 60_000),
  );
  const due = boundaries.flatMap((at, b) =>
    Array.from({ length: parameters.dueAtEachBoundary }, (_, i) => ({
      jobId: `cron_bench_due_${b}_${i}`,
      at,
    })),
  );
  const dueJobs = due.map(({ jobId, at }) => template(jobId, at));
  await inParallel(dueJobs, 32, (job) => services.schedules.saveCronJob(job, 0));
  const t1 = performance.now();
  for (const job of [...later, ...dueJobs]) await runtime.scheduling.scheduler.putCronJob(job);
  progress(`armed ${later.length + dueJobs.length} jobs in ${(performance.now() - t1).toFixed(0)} ms`);
  if (Date.now() > firstBoundary - 2_000)
    throw new Error('setup took too long: the first boundary has passed');
  return { boundaries, due };
}

/** EventBridge 6-field cron for one minute of one day (fires once a year, so once in the bench). */
function cronAt(at: Date): string {
  return `${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} ? *`;
}

async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const ok = await work(items[next++]!);
      if (ok === false) throw new Error('a bench job exists already');
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** A bare Node process with one setTimeout per instant; resolves with each timer's lateness in ms. */
async function startTimerFloor(instants: readonly Date[]): Promise<number[]> {
  const script = `
    const instants = JSON.parse(process.env.BENCH_INSTANTS);
    const { performance } = require('node:perf_hooks');
    const now = () => performance.timeOrigin + performance.now();
    const lateness = [];
    for (const at of instants) {
      setTimeout(() => {
        lateness.push(now() - at);
        if (lateness.length === instants.length) process.stdout.write(JSON.stringify(lateness));
      }, at - Date.now());
    }`;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BENCH_INSTANTS: JSON.stringify(instants.map((d) => d.getTime())) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`the setTimeout floor process exited with ${code}`);
  return JSON.parse(output) as number[];
}

async function waitUntil(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the scheduled deliveries');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function waitForRunsToFinish(store: SchedulingStore, due: readonly { jobId: string; at: Date }[]) {
  const deadline = Date.now() + 120_000;
  for (const { jobId, at } of due) {
    for (;;) {
      const run = await store.getCronRun(jobId, at.toISOString());
      if (run && run.status !== 'waiting' && run.status !== 'running') break;
      if (Date.now() > deadline) return; // counted as errors by the caller
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
