/** The console's build: `vite build --config web/vite.config.ts` writes web/dist (served at `/`). */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildViewFrame, frameLibrariesPlugin } from './view-frame.ts';

const root = new URL('.', import.meta.url).pathname;

/** web/dist/view-frame.html: the sandboxed document code views run in (web/view-frame.ts). */
function viewFrame(): Plugin {
  return {
    name: 'dogu-view-frame',
    apply: 'build',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'view-frame.html', source: await buildViewFrame() });
    },
  };
}

/** Text files worth compressing, from this size up (smaller ones gain less than the header costs). */
const compressible = /\.(js|mjs|css|html|svg|json|txt)$/;
const minCompressBytes = 1024;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside every compressible file of
 * the build, once at build time, so the embedded runtime serves compressed files without compressing
 * per request (local/static-console.ts picks one by Accept-Encoding). Decision 0067.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'dogu-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await readdir(outDir, { recursive: true });
      await Promise.all(
        files
          .filter((file) => compressible.test(file))
          .map(async (file) => {
            const path = join(outDir, file);
            const bytes = await readFile(path);
            if (bytes.length < minCompressBytes) return;
            const [br, gz] = await Promise.all([
              promisify(brotliCompress)(bytes, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: 11,
                  [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              promisify(gzip)(bytes, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
          }),
      );
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  plugins: [react(), viewFrame(), frameLibrariesPlugin(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed names under assets/ are cached for a year by the servers; index.html never is.
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // `npx vite --config web/vite.config.ts` during development: the API stays on the runtime.
    proxy: Object.fromEntries(
      ['/api', '/public', '/auth', '/idp', '/openapi.json', '/local', '/demo-api'].map((prefix) => [
        prefix,
        { target: 'http://127.0.0.1:8787', changeOrigin: false },
      ]),
    ),
  },
});
