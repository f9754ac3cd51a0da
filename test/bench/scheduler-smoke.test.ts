/**
 * The scheduler bench as a smoke (40 jobs, 5 due at the next minute boundary at least 3 s ahead):
 * cron runs whole minutes, so this waits 3–63 s, mostly idle; its own file lets it overlap with the
 * other smokes (smoke.test.ts). No numbers are checked.
 */
import { describe, expect, it } from 'vitest';
import { runBenchSmoke } from './smoke-runner.ts';

describe('bench smoke: scheduler', () => {
  it('arms the jobs and measures every due run', async () => {
    const { exitCode, output, results } = await runBenchSmoke(['scheduler']);
    expect(exitCode, output.slice(-4000)).toBe(0);
    expect(results.scheduler?.errors).toBe(0);
    expect(results.scheduler?.phases.find((p) => p.subject === 'scheduler: run startedAt')?.requests).toBe(5);
  }, 300_000);
});
