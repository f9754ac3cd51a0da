/** The console's build: `vite build --config web/vite.config.ts` writes web/dist (served at `/`). */
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildViewFrame } from './view-frame.ts';

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

export default defineConfig({
  root,
  base: '/',
  plugins: [react(), viewFrame()],
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
