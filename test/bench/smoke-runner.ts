/** Runs `bench/run.ts --smoke <names>` as `npm run bench` would, and reads the results it wrote. */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot, smokeResultsDir } from '../../bench/lib/paths.ts';
import type { BenchReport } from '../../bench/lib/report.ts';

export async function runBenchSmoke(names: string[]): Promise<{
  exitCode: number | null;
  output: string;
  results: Record<string, BenchReport | undefined>;
}> {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', ...names], {
    cwd: repoRoot,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) =>
    child.on('close', (code, signal) => {
      // A signal ends the bench with no code: say which, since nothing else in the output will.
      if (signal) output += `\n[the bench process ended by ${signal}]`;
      resolve(code);
    }),
  );
  const results: Record<string, BenchReport | undefined> = {};
  for (const name of names) {
    try {
      const report = JSON.parse(
        await readFile(join(smokeResultsDir, `latest-${name}.json`), 'utf8'),
      ) as BenchReport;
      // Only a result of this run counts, not one left by an earlier smoke.
      if (Date.parse(report.startedAt) >= startedAt - 1000) results[name] = report;
    } catch {
      results[name] = undefined;
    }
  }
  return { exitCode, output, results };
}
