/**
 * The console's build (web/vite.config.ts): one chunk per screen fetched on first use, so the first
 * page loads only the shell; Chart.js for code views outside the frame document (decision 0225);
 * dnd-kit in the views builder's chunk only (decision 0216); and a brotli and a gzip copy beside every compressible file, identical once decompressed
 * (decision 0067).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../infra/console-hosting.ts';

let dist: string;
let assets: string[];

beforeAll(() => {
  dist = ensureConsoleBuilt();
  assets = readdirSync(join(dist, 'assets'));
}, 180_000);

describe('console build', () => {
  it('splits the screens into chunks of their own that the first page does not load', () => {
    const scripts = assets.filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(20);
    const index = readFileSync(join(dist, 'index.html'), 'utf8');
    const initial = [...index.matchAll(/\/assets\/([^"]+\.js)/g)].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThan(0);
    for (const screen of ['ActionListScreen', 'ActionEditorScreen', 'CronJobListScreen', 'AuditLogScreen']) {
      const chunk = scripts.find((name) => name.startsWith(`${screen}-`));
      expect(chunk, screen).toBeDefined();
      expect(initial).not.toContain(chunk);
    }
    // The entry names the screen chunks (dynamic imports) rather than containing them.
    const entry = readFileSync(join(dist, 'assets', initial[0]!), 'utf8');
    expect(entry).toMatch(/ActionEditorScreen-[\w-]+\.js/);
  });

  it("keeps Chart.js out of the code-view frame's document: a chunk of its own the console sends on demand", () => {
    // Chart.js keeps its banner in the frame's bundle of it (decision 0225).
    const banner = 'Chart.js v';
    expect(readFileSync(join(dist, 'view-frame.html'), 'utf8')).not.toContain(banner);
    const holders = assets
      .filter((name) => name.endsWith('.js'))
      .filter((name) => readFileSync(join(dist, 'assets', name), 'utf8').includes(banner));
    expect(holders).toEqual([expect.stringMatching(/^_virtual_dogu-frame-chart-[\w-]+\.js$/)]);
  });

  it("keeps dnd-kit in the views builder's chunk only (decision 0216)", () => {
    // dnd-kit names its live region element; no other chunk, the view runtime's among them, holds it.
    const holders = assets
      .filter((name) => name.endsWith('.js'))
      .filter((name) => readFileSync(join(dist, 'assets', name), 'utf8').includes('DndLiveRegion'));
    expect(holders).toEqual([expect.stringMatching(/^ViewBuilderScreen-[\w-]+\.js$/)]);
  });

  it('writes .br and .gz copies of every compressible file over 1 KB, identical once decompressed', () => {
    const compressible = assets.filter((name) => /\.(js|css)$/.test(name));
    let compressed = 0;
    for (const name of compressible) {
      const original = readFileSync(join(dist, 'assets', name));
      if (original.length < 1024) continue;
      compressed++;
      const br = readFileSync(join(dist, 'assets', `${name}.br`));
      const gz = readFileSync(join(dist, 'assets', `${name}.gz`));
      expect(br.length, name).toBeLessThan(original.length);
      expect(brotliDecompressSync(br).equals(original), name).toBe(true);
      expect(gunzipSync(gz).equals(original), name).toBe(true);
    }
    expect(compressed).toBeGreaterThan(10);
  });
});
