/**
 * `import { z } from 'zod'` makes esbuild keep zod's whole namespace, its 50 locales included
 * (450 KB in every Lambda bundle); `import * as z from 'zod'` lets it drop what is unused
 * (decision 0022). Checked over everything a Lambda bundles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('zod imports', () => {
  it('import zod as a namespace in every module a Lambda bundles', () => {
    const files = [...sourcesUnder(join(root, 'shared')), ...sourcesUnder(join(root, 'functions'))];
    expect(files.length).toBeGreaterThan(50);
    const named = files.filter((file) =>
      /^import \{[^}]*\bz\b[^}]*\} from 'zod';/m.test(readFileSync(file, 'utf8')),
    );
    expect(named.map((file) => relative(root, file))).toEqual([]);
  });
});
