/**
 * `npm run bench [-- name...]`: runs the named benches (all without names),
 * prints a table per bench and writes its JSON to bench/results/.
 *
 * A bench is a module exporting `title` and `run(): Promise<BenchReport>`;
 * add it to `benches` below. The exit code is 1 when a bench failed or any
 * request in it failed (its numbers are then not trustworthy); missing a
 * target is reported in the table but is not a failure.
 */
import { cleanUpEverything } from './lib/cleanup.ts';
import { machineInfo } from './lib/machine.ts';
import { formatReport } from './lib/print.ts';
import { progress } from './lib/progress.ts';
import type { BenchReport } from './lib/report.ts';
import { writeResults } from './lib/results.ts';

interface BenchModule {
  title: string;
  run(): Promise<BenchReport>;
}

/** Loaded lazily, so running one bench does not import the others. */
const benches: Record<string, () => Promise<BenchModule>> = {
  execution: () => import('./execution.ts'),
  mysql: () => import('./mysql.ts'),
  bridge: () => import('./bridge.ts'),
  http: () => import('./http.ts'),
  'token-exchange': () => import('./token-exchange.ts'),
  scheduler: () => import('./scheduler.ts'),
  batch: () => import('./batch.ts'),
  console: () => import('./console.ts'),
  startup: () => import('./startup.ts'),
};

function selectedBenches(args: readonly string[]): string[] {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`usage: npm run bench [-- [--smoke] ${Object.keys(benches).join(' | ')} ...]`);
    process.exit(0);
  }
  const unknown = args.filter((name) => !(name in benches));
  if (unknown.length > 0) {
    console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${Object.keys(benches).join(', ')}.`);
    process.exit(2);
  }
  return args.length > 0 ? [...new Set(args)] : Object.keys(benches);
}

/**
 * Ctrl-C mid-run must still stop the runtime and drop the scratch database.
 * `on`, not `once`: Ctrl-C reaches this process twice, from the terminal and
 * relayed by the tsx CLI of `npm run bench`, and a second signal finding no
 * listener would end the process before the cleanup has run.
 */
function cleanUpOnSignals(): void {
  let cleaningUp = false;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      if (cleaningUp) return;
      cleaningUp = true;
      progress(`${signal}: cleaning up`);
      void cleanUpEverything().finally(() => process.exit(code));
    });
  }
}

async function runBench(name: string): Promise<boolean> {
  const bench = await benches[name]!();
  progress(`bench ${name}: ${bench.title}`);
  // Before the run: the load average then says whether something else was busy, not what we did.
  const machine = machineInfo();
  if (machine.loadAverage1m >= machine.cpus / 2) {
    progress(
      `warning: load average ${machine.loadAverage1m} on ${machine.cpus} CPUs before the start; ` +
        'if other work is still running, it skews the numbers',
    );
  }
  const report = await bench.run();
  const paths = await writeResults({ ...report, machine });
  console.log(`\n${formatReport(report)}\n`);
  for (const path of paths) console.log(`wrote ${path}`);
  return report.errors === 0;
}

async function main(): Promise<number> {
  // --smoke is read by bench/lib/smoke.ts; every other argument names a bench.
  const names = selectedBenches(process.argv.slice(2).filter((arg) => arg !== '--smoke'));
  cleanUpOnSignals();
  let failed = 0;
  for (const name of names) {
    try {
      if (!(await runBench(name))) failed++;
    } catch (error) {
      failed++;
      console.error(
        `bench ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`,
      );
      await cleanUpEverything();
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
