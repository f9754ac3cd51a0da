/**
 * The context `cdk synth` reads from cdk.json (its pinned feature flags): infra tests synthesize with
 * it, so what they check is what deploys.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../infra/paths.ts';

export const cdkJsonContext: Record<string, unknown> =
  (JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> })
    .context ?? {};
