/**
 * Builds /view-frame.html, the document code views run in (decision 0048): the frame runtime
 * (React, the `dogu` SDK, the message bridge) bundled by esbuild into one inline classic script,
 * with the frame's CSP as a meta tag (the servers also send it as a header). One self-contained
 * file: a sandboxed frame has an opaque origin, so it could not load module scripts from /assets
 * without CORS headers, and needs none this way.
 */
import { build } from 'esbuild';
import { frameCsp } from './src/screens/views/frame/protocol.ts';

const entry = new URL('./src/screens/views/frame/frame-main.tsx', import.meta.url).pathname;

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
`;

export async function buildViewFrame(): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
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
