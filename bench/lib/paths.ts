import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** bench/results: *.json there is gitignored, so results never end up in a commit by accident. */
export const resultsDir = resolve(repoRoot, 'bench', 'results');

/** A smoke run's results go here (bench/results/smoke), never over the real runs' latest-*.json. */
export const smokeResultsDir = resolve(resultsDir, 'smoke');
