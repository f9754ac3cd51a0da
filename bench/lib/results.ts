/**
 * Writes a run to bench/results/<bench>-<timestamp>.json (history) and
 * latest-<bench>.json (a fixed name for scripts and quick diffs).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resultsDir as realResultsDir, smokeResultsDir } from './paths.ts';
import type { BenchReport, Json } from './report.ts';
import { smoke } from './smoke.ts';

const resultsDir = smoke ? smokeResultsDir : realResultsDir;

export interface ResultFile extends BenchReport {
  machine: { [key: string]: Json };
}

/** Returns the paths written. */
export async function writeResults(result: ResultFile): Promise<string[]> {
  await mkdir(resultsDir, { recursive: true });
  // ISO 8601 with '-' for ':' so the name is valid on every file system.
  const stamp = result.startedAt.replaceAll(':', '-');
  const text = `${JSON.stringify(result, null, 2)}\n`;
  const paths = [
    join(resultsDir, `${result.bench}-${stamp}.json`),
    join(resultsDir, `latest-${result.bench}.json`),
  ];
  for (const path of paths) await writeFile(path, text);
  return paths;
}
