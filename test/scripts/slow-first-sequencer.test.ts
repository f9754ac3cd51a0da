/** The sequencer that starts known-slow test files first, and its list naming files that exist. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { repoRoot } from '../support/process.ts';
import SlowFirstSequencer, { knownSlowFiles } from '../support/slow-first-sequencer.ts';

/** Just enough of Vitest for BaseSequencer.sort without a results cache (as in CI). */
const ctx = {
  config: { root: repoRoot },
  cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
} as unknown as Vitest;
const project = { name: '', config: { root: repoRoot, isolate: true, sequence: { groupOrder: 0 } } };
const spec = (path: string) => ({ project, moduleId: join(repoRoot, path) }) as unknown as TestSpecification;

describe('slow-first sequencer', () => {
  it('puts the known-slow files first, slowest first, and keeps the order of the rest', async () => {
    const files = [
      'test/domain/dates.test.ts',
      'test/cli/config-apply.test.ts',
      'test/http/csv.test.ts',
      'test/local/scheduling-faults-cron.test.ts',
      'test/e2e/accessibility.test.ts',
    ];
    const sorted = await new SlowFirstSequencer(ctx).sort(files.map(spec));
    expect(sorted.map((s) => s.moduleId.slice(repoRoot.length))).toEqual([
      'test/local/scheduling-faults-cron.test.ts',
      'test/e2e/accessibility.test.ts',
      'test/cli/config-apply.test.ts',
      'test/domain/dates.test.ts',
      'test/http/csv.test.ts',
    ]);
  });

  it('names only files that exist (a renamed file would silently lose its place)', () => {
    expect(Object.keys(knownSlowFiles).filter((path) => !existsSync(join(repoRoot, path)))).toEqual([]);
  });
});
