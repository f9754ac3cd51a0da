/**
 * Builds /view-frame.html, the document code views run in (decision 0048): the frame runtime
 * (React, the `dogu` SDK, the message bridge) bundled by esbuild into one inline classic script,
 * with the frame's CSP as a meta tag (the servers also send it as a header). One self-contained
 * file: a sandboxed frame has an opaque origin, so it could not load module scripts from /assets
 * without CORS headers, and needs none this way. Chart.js is not in it: `frameLibrariesPlugin`
 * makes it a chunk of the console's, whose text the console sends to a frame that draws a chart.
 */
import { build } from 'esbuild';
import type { Plugin } from 'vite';
import { frameCsp } from './src/screens/views/frame/protocol.ts';

const entry = new URL('./src/screens/views/frame/frame-main.tsx', import.meta.url).pathname;
const chartEntry = new URL('./src/screens/views/frame/chart-library.ts', import.meta.url).pathname;

const styles = `
:root { font: 14px/1.45 system-ui, sans-serif; color: #1d2433; }
body { margin: 0; padding: 8px; }
.dg-table { border-collapse: collapse; width: 100%; }
.dg-table th, .dg-table td { border-bottom: 1px solid #e3e6ec; padding: 4px 8px; text-align: left; }
.dg-table th { background: #f5f6f8; font-weight: 600; }
.dg-click { cursor: pointer; } .dg-click:hover { background: #eef3ff; }
.dg-detail { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
.dg-detail div { display: contents; } .dg-detail dt { font-weight: 600; } .dg-detail dd { margin: 0; }
.dg-button { font: inherit; padding: 5px 12px; border-radius: 6px; border: 1px solid #c9ced8; background: #fff; cursor: pointer; }
.dg-primary { background: #2f5bea; color: #fff; border-color: #2f5bea; }
.dg-danger { background: #c62f3c; color: #fff; border-color: #c62f3c; }
.dg-stack { display: flex; gap: 8px; } .dg-column { flex-direction: column; } .dg-row { flex-direction: row; align-items: center; }
.dg-field { display: flex; flex-direction: column; gap: 2px; } .dg-field input { font: inherit; padding: 4px 6px; }
.dg-muted { color: #667085; }
.dg-error { color: #b42318; white-space: pre-wrap; }
.dg-small { padding: 3px 8px; font-size: 13px; }
.dg-field input, .dg-field select { font: inherit; padding: 4px 6px; max-width: 100%; box-sizing: border-box; }
fieldset.dg-field { border: 0; padding: 0; margin: 0; min-width: 0; } .dg-field legend { padding: 0; }
.dg-range { flex-flow: row wrap; align-items: center; } .dg-range legend { width: 100%; }
.dg-choices { flex-flow: row wrap; gap: 4px 12px; } .dg-choices legend { width: 100%; }
.dg-check { display: inline-flex; gap: 6px; align-items: center; }
.dg-switch input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.dg-switch-track { width: 30px; height: 16px; border-radius: 8px; background: #c9ced8; position: relative; flex: none; }
.dg-switch-track::after { content: ''; position: absolute; top: 2px; left: 2px; width: 12px; height: 12px; border-radius: 50%; background: #fff; }
.dg-switch input:checked + .dg-switch-track { background: #2f5bea; } .dg-switch input:checked + .dg-switch-track::after { left: 16px; }
.dg-switch input:focus-visible + .dg-switch-track { outline: 2px solid #2f5bea; outline-offset: 2px; }
.dg-table-wrap { overflow-x: auto; }
.dg-selected, .dg-selected:hover { background: #dfe8ff; } .dg-select-cell { width: 1%; }
.dg-table-bar { display: flex; flex-wrap: wrap; gap: 8px; justify-content: space-between; align-items: center; margin-top: 6px; }
.dg-pager { display: inline-flex; gap: 8px; align-items: center; }
.dg-chart { margin: 0; } .dg-chart-canvas { position: relative; }
.dg-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.dg-backdrop { position: fixed; inset: 0; background: rgba(16, 24, 40, .45); display: flex; align-items: flex-start; justify-content: center; padding: 16px; z-index: 10; }
.dg-overlay { background: #fff; border-radius: 8px; padding: 16px; width: min(520px, 100%); box-sizing: border-box; display: flex; flex-direction: column; gap: 12px; outline: none; }
.dg-drawer { position: absolute; top: 0; right: 0; bottom: 0; width: min(380px, 100%); border-radius: 0; overflow-y: auto; }
.dg-overlay-title { font-size: 16px; margin: 0; } .dg-overlay-footer { display: flex; justify-content: flex-end; gap: 8px; }
:focus-visible { outline: 2px solid #2f5bea; outline-offset: 1px; }
`;

/** One classic script (an IIFE) from an entry, minified for production. */
async function bundle(entryPoint: string): Promise<string> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * Chart.js for code views, not in the frame document (decision 0225): the module
 * `virtual:dogu-frame-chart` is its code as a string, which the console imports on demand
 * (code/frame-libraries.ts), so Vite makes it a hashed chunk of its own that only a view with a
 * chart makes the console fetch. The frame gets the text by message and runs it from a blob: URL.
 */
export function frameLibrariesPlugin(): Plugin {
  const id = 'virtual:dogu-frame-chart';
  const resolved = `\0${id}`;
  return {
    name: 'dogu-frame-libraries',
    resolveId: (source) => (source === id ? resolved : undefined),
    async load(loaded) {
      if (loaded !== resolved) return undefined;
      return `export default ${JSON.stringify(await bundle(chartEntry))};`;
    },
  };
}

export async function buildViewFrame(): Promise<string> {
  const script = (await bundle(entry)).replace(/<\/script/gi, '<\\/script');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${frameCsp}">
<meta name="referrer" content="no-referrer">
<title>Dogu view</title>
<style>${styles}</style>
</head>
<body>
<div id="root"></div>
<script>${script}</script>
</body>
</html>
`;
}
