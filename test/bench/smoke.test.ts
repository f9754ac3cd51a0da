/**
 * Every bench, shortened to a few seconds (`npm run bench -- --smoke`), so the benches never rot:
 * each must run to its end with no failed request. No numbers are checked (issue 20: targets live in
 * the benches, never in tests). The n8n peer is not part of a smoke (bench/lib/smoke.ts).
 * The scheduler's smoke waits for a minute boundary: its own file, so it overlaps with this one.
 */
import { describe, expect, it } from 'vitest';
import { runBenchSmoke } from './smoke-runner.ts';

describe('bench smoke', () => {
  it('runs execution, mysql, bridge, http, token-exchange, batch, console and startup to their end without a failed request', async () => {
    const benches = ['execution', 'mysql', 'bridge', 'http', 'token-exchange', 'batch', 'console', 'startup'];
    const { exitCode, output, results } = await runBenchSmoke(benches);
    expect(exitCode, output.slice(-4000)).toBe(0);
    for (const bench of benches) {
      const result = results[bench];
      expect(result, `${bench}: no result written`).toBeDefined();
      expect(result!.errors, bench).toBe(0);
      expect(result!.phases.length, bench).toBeGreaterThan(0);
      expect(output).toContain(`== ${bench}: `);
    }
    // The memory row: the runtime's resident memory at the end of its throughput phase.
    const doguThroughput = results.execution!.phases.find(
      (p) => p.name === 'throughput' && p.subject === 'dogu',
    );
    expect(doguThroughput?.rssMb).toBeGreaterThan(0);
    expect(results.execution!.phases.some((p) => p.name === 'memory')).toBe(true);
  }, 300_000);
});
