/**
 * No two files of the house import each other, directly or around a longer loop (docs/architecture.md,
 * "Ports and adapters"). The graph is the TypeScript compiler's own reading of both projects (the
 * service and the console), type-only imports included: a type import ties two files as much as any.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCircles, importGraph } from '../support/import-graph.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const houseFolders = ['shared', 'functions', 'local', 'cli', 'infra', 'bench', 'scripts', 'web/src'];

describe('import circles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'dogu-circles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('finds a two-file circle, type-only imports included, and a longer loop', () => {
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          allowImportingTsExtensions: true,
          noEmit: true,
        },
        include: ['src'],
      }),
    );
    const files: Record<string, string> = {
      'a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'b.ts': "import type { A } from './c.ts';\nexport const b = 1;\nexport type B = A;\n",
      'c.ts': "import { b } from './b.ts';\nexport type A = typeof b;\n",
      'd.ts': "export const d = async () => (await import('./e.ts')).e;\n",
      'e.ts': "import { d } from './d.ts';\nexport const e = d;\n",
      'f.ts': "import { a } from './a.ts';\nexport const f = a;\n",
    };
    mkdirSync(join(scratch, 'src'), { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(scratch, 'src', name), text);
    }
    const graph = importGraph(scratch, ['tsconfig.json'], ['src']);
    expect(graph.get('src/f.ts')).toEqual(new Set(['src/a.ts']));
    expect(importCircles(graph)).toEqual([
      ['src/b.ts', 'src/c.ts'],
      ['src/d.ts', 'src/e.ts'],
    ]);
  });

  it('finds every file of a longer loop as one circle', () => {
    const graph = new Map([
      ['x', new Set(['y'])],
      ['y', new Set(['z'])],
      ['z', new Set(['x', 'w'])],
      ['w', new Set<string>()],
    ]);
    expect(importCircles(graph)).toEqual([['x', 'y', 'z']]);
  });

  it('the service, the CLI, the stack and the console have none', { timeout: 180_000 }, () => {
    const graph = importGraph(root, ['tsconfig.json', 'web/tsconfig.json'], houseFolders);
    // The whole house was read: every folder has files, and files import each other.
    for (const folder of houseFolders) {
      expect(
        [...graph.keys()].some((file) => file.startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
    }
    expect([...graph.values()].reduce((edges, targets) => edges + targets.size, 0)).toBeGreaterThan(2000);
    expect(importCircles(graph)).toEqual([]);
  });
});
