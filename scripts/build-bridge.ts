/**
 * Bundles the bridge agent (cli/bridge/main.ts with jose and zod) into one ES module,
 * `.dogu/build/bridge/bridge.mjs`, which plain Node runs without node_modules: the container image
 * copies this one file (infra/bridge/Dockerfile). Usage: node --import tsx scripts/build-bridge.ts [outDir]
 */
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

export async function buildBridge(outDir = join(root, '.dogu', 'build', 'bridge')): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const outfile = join(outDir, 'bridge.mjs');
  await build({
    entryPoints: [join(root, 'cli', 'bridge', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    sourcemap: false,
    legalComments: 'linked',
    // Some bundled packages still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outfile = await buildBridge(process.argv[2] ? resolve(process.argv[2]) : undefined);
  process.stdout.write(`Wrote ${outfile} (${Math.round((await stat(outfile)).size / 1024)} KiB)\n`);
}
