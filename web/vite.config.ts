/** The console's build: `vite build --config web/vite.config.ts` writes web/dist (served at `/`). */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = new URL('.', import.meta.url).pathname;

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
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
