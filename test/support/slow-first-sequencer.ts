/**
 * Starts the test files known to be slow first. CI has no results cache, and without one Vitest
 * keeps the glob order: a 3-minute file that starts last leaves one worker busy alone while the
 * others have nothing left to take. Longest first keeps the workers' ends close together.
 *
 * The list: files that took over ~20 s in CI (seconds when the machine was quiet, roughly). Add a
 * file here when it joins them; order within the list matters, the numbers are only its key.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const knownSlowFiles: Record<string, number> = {
  'test/local/scheduling-faults-cron.test.ts': 180,
  'test/e2e/accessibility.test.ts': 120,
  // One test that runs seven benches in a child process; the scheduler's waits for a minute boundary.
  'test/bench/smoke.test.ts': 90,
  'test/bench/scheduler-smoke.test.ts': 120,
  'test/cli/config-cron-jobs.test.ts': 60,
  'test/cli/config-apply.test.ts': 60,
  'test/e2e/accounts.test.ts': 55,
  'test/e2e/action-screen.test.ts': 50,
  'test/local/accounts.test.ts': 45,
  'test/infra/dogu-stack.test.ts': 40,
  'test/infra/state-machines.test.ts': 40,
  'test/local/long-jobs.test.ts': 35,
  'test/e2e/views.test.ts': 35,
  'test/e2e/governance.test.ts': 35,
  'test/local/injection-corpus.test.ts': 30,
  'test/local/api-contract.test.ts': 35,
  'test/cli/config-notifications.test.ts': 25,
  'test/local/script-pool.test.ts': 25,
  'test/local/time-limits.test.ts': 25,
  'test/bridge/bridge-runtime.test.ts': 22,
  'test/local/object-storage-api.test.ts': 25,
  'test/local/input-hardening.test.ts': 20,
  'test/local/javascript-api.test.ts': 20,
  'test/e2e/time-zones.test.ts': 20,
  'test/e2e/safe-environments.test.ts': 30,
  'test/domain/audit-export.test.ts': 50,
  'test/local/main-process.test.ts': 45,
  'test/e2e/views-dashboard-from-scratch.test.ts': 40,
  'test/local/async-jobs-kill.test.ts': 32,
  'test/e2e/view-runs.test.ts': 30,
  'test/e2e/operations-dashboard.test.ts': 30,
  'test/e2e/code-view-sdk.test.ts': 25,
  'test/local/number-rule.test.ts': 22,
  'test/local/scheduling-faults-batch.test.ts': 20,
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const weight = (file: TestSpecification) =>
      knownSlowFiles[relative(file.project.config.root, file.moduleId).replaceAll('\\', '/')] ?? 0;
    // Array.prototype.sort is stable: files of equal weight keep the base sequencer's order.
    return base.sort((a, b) => weight(b) - weight(a));
  }
}
