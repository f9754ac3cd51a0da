/**
 * Bench `console`: what a user of the console waits for. (1) The initial JavaScript of the built
 * app, gzip-compressed as served (target ≤ 250 KB). (2) In Debian's Chromium against a real
 * embedded runtime (demo data source on the machine's PostgreSQL): from the Run click to the first
 * rows of a 100,000-row result painted (target ≤ 1 s), split into the API call and the rendering;
 * then a scroll from the first row to the last, with the long tasks it causes (target: none over
 * 200 ms).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../infra/paths.ts';
import { buildConsoleOnce, login, startConsole } from '../test/e2e/support/browser.ts';
import { createTestDatabase } from '../test/support/postgres.ts';
import { loginToken } from '../test/support/runtime.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, type Phase } from './lib/report.ts';
import { sized } from './lib/smoke.ts';
import { roundSummary, summarizeLatencies } from './lib/stats.ts';
import { withTeardown } from './lib/teardown.ts';

export const title = 'console: initial JS size, 100,000-row result render and scroll in Chromium';

const rowCount = sized(100_000, 1_000);
const runs = sized(5, 1);
const actionId = 'bench-rows';

/** Small rows keep 100,000 of them under the 5 MB result limit (about 3 MB of JSON). */
const benchAction = {
  id: actionId,
  name: 'Bench: many rows',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  parameters: [{ name: 'n', kind: 'number', label: 'Rows', integer: true, min: 1, default: rowCount }],
  statements: [
    {
      title: 'Rows',
      sql: "SELECT g AS id, g % 97 AS bucket, 'r' || g AS label FROM generate_series(1, {{ n }}) AS g",
    },
  ],
};

/**
 * The scripts index.html loads at once (entry plus module preloads): raw, gzip-compressed, and as the
 * runtime serves them to a browser accepting brotli (the build's .br copies). Plus all scripts of the
 * build, every screen's chunk included, for the split's effect.
 */
async function consoleJsSizes() {
  const dist = join(repoRoot, 'web', 'dist');
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  let bytes = 0;
  let rawBytes = 0;
  let brotliBytes = 0;
  for (const file of files) {
    const content = await readFile(join(dist, file));
    rawBytes += content.length;
    bytes += gzipSync(content, { level: 9 }).length;
    brotliBytes += (await readFile(join(dist, `${file}.br`)).catch(() => content)).length;
  }
  const all = (await readdir(join(dist, 'assets'))).filter((name) => name.endsWith('.js'));
  let allRawBytes = 0;
  for (const name of all) allRawBytes += (await stat(join(dist, 'assets', name))).size;
  return { bytes, rawBytes, brotliBytes, files, chunks: all.length, allRawBytes };
}

interface RenderSample {
  clickToPaintMs: number;
  apiMs: number;
  renderMs: number;
  rowsInDom: number;
  scrollMs: number;
  longTasksOver200: number;
  longestTaskMs: number;
}

/** Runs in the page: timestamps from the Run click to the first painted rows, and long tasks. */
const instrument = `(() => {
  window.__bench = { longTasks: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: false });
  document.addEventListener('click', (event) => {
    if (event.target.closest('button[type=submit]')) window.__bench.clickAt = performance.now();
  }, true);
  window.__bench.painted = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (window.__bench.clickAt === undefined || !document.querySelector('.data-table tbody tr')) return;
      observer.disconnect();
      // The frame after the rows are in the DOM is the one that shows them.
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
})()`;

const collect = `(async () => {
  const paintedAt = await window.__bench.painted;
  const call = performance.getEntriesByType('resource').filter((e) => e.name.includes('/executions')).at(-1);
  return {
    clickAt: window.__bench.clickAt,
    paintedAt,
    responseEnd: call ? call.responseEnd : NaN,
    rowsInDom: document.querySelectorAll('.data-table tbody tr').length,
  };
})()`;

/** Scrolls the result from the first row to the last over 60 frames, as a fast fling would. */
const scrollToEnd = `(async () => {
  const scroller = document.querySelector('.data-table');
  window.__bench.longTasks = [];
  const begin = performance.now();
  const steps = 60;
  for (let i = 1; i <= steps; i++) {
    scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) * i / steps;
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  const last = [...document.querySelectorAll('.data-table tbody tr')].at(-1);
  return {
    scrollMs: performance.now() - begin,
    longTasks: window.__bench.longTasks,
    lastRowIndex: Number(last?.getAttribute('aria-rowindex')),
  };
})()`;

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    progress('building the console');
    await buildConsoleOnce();
    const size = await consoleJsSizes();

    const database = await createTestDatabase('dogu_bench_console');
    defer(() => database.drop(), 'dropped the scratch database');
    progress('starting the runtime and Chromium');
    const app = await startConsole({ demoDatabaseUrl: database.url });
    defer(() => app.close(), 'stopped the runtime and Chromium');

    const token = await loginToken(app.runtime);
    const saved = await fetch(`${app.url}/api/v1/projects/demo/actions/${actionId}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(benchAction),
    });
    if (!saved.ok) throw new Error(`saving the bench action failed: ${saved.status} ${await saved.text()}`);

    const page = await app.newPage();
    await login(page);
    const samples: RenderSample[] = [];
    for (let i = 0; i <= runs; i++) {
      await page.goto(`/p/demo/e/development/actions/${actionId}`);
      await page.getByRole('button', { name: 'Run', exact: true }).waitFor();
      await page.evaluate(instrument);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const timing = await page.evaluate<{
        clickAt: number;
        paintedAt: number;
        responseEnd: number;
        rowsInDom: number;
      }>(collect);
      const rowText = await page.locator('.statement-header').first().textContent();
      if (
        !rowText?.includes(rowCount.toLocaleString('en-US').replaceAll(',', '')) &&
        !rowText?.includes(String(rowCount))
      ) {
        throw new Error(`expected ${rowCount} rows, the screen says: ${rowText}`);
      }
      const scroll = await page.evaluate<{ scrollMs: number; longTasks: number[]; lastRowIndex: number }>(
        scrollToEnd,
      );
      if (scroll.lastRowIndex !== rowCount + 1)
        throw new Error(`scrolled to row ${scroll.lastRowIndex - 1}, not ${rowCount}`);
      const sample: RenderSample = {
        clickToPaintMs: timing.paintedAt - timing.clickAt,
        apiMs: timing.responseEnd - timing.clickAt,
        renderMs: timing.paintedAt - timing.responseEnd,
        rowsInDom: timing.rowsInDom,
        scrollMs: scroll.scrollMs,
        longTasksOver200: scroll.longTasks.filter((d) => d > 200).length,
        longestTaskMs: Math.max(0, ...scroll.longTasks),
      };
      // The first run warms the runtime, the pool and the browser's caches.
      if (i === 0) progress(`warm-up: ${sample.clickToPaintMs.toFixed(0)} ms click to paint`);
      else {
        samples.push(sample);
        progress(
          `run ${i}: ${sample.clickToPaintMs.toFixed(0)} ms (API ${sample.apiMs.toFixed(0)} ms, render ${sample.renderMs.toFixed(0)} ms)`,
        );
      }
    }

    const phase = (name: string, values: number[]): Phase => ({
      name,
      subject: 'chromium',
      concurrency: 1,
      requests: values.length,
      errors: 0,
      errorSamples: [],
      elapsedMs: values.reduce((a, b) => a + b, 0),
      requestsPerSecond: 0,
      latencyMs: roundSummary(summarizeLatencies(values)),
    });
    const clickToPaint = samples.map((s) => s.clickToPaintMs);
    const median = (values: number[]) => summarizeLatencies(values).p50;
    return {
      bench: 'console',
      title,
      startedAt,
      finishedAt: new Date().toISOString(),
      parameters: { rows: rowCount, runs, columns: 3, chromium: '/usr/bin/chromium (headless)' },
      environment: {
        initialJsFiles: size.files,
        initialJsGzipBytes: size.bytes,
        initialJsRawBytes: size.rawBytes,
        initialJsBrotliBytes: size.brotliBytes,
        jsChunks: size.chunks,
        allJsRawBytes: size.allRawBytes,
      },
      phases: [
        phase('run click → rows painted', clickToPaint),
        phase(
          '  of which API call',
          samples.map((s) => s.apiMs),
        ),
        phase(
          '  of which rendering',
          samples.map((s) => s.renderMs),
        ),
        phase(
          'scroll first → last row',
          samples.map((s) => s.scrollMs),
        ),
      ],
      checks: [
        check('initial JS (gzip)', Math.round(size.bytes / 102.4) / 10, 'KB', {
          comparison: '<=',
          value: 250,
        }),
        check('initial JS (brotli, as served)', Math.round(size.brotliBytes / 102.4) / 10, 'KB'),
        check('initial JS (uncompressed)', Math.round(size.rawBytes / 102.4) / 10, 'KB'),
        check('JS chunks in the build', size.chunks, 'files'),
        check('all JS of the build (uncompressed)', Math.round(size.allRawBytes / 102.4) / 10, 'KB'),
        check('100,000 rows: click → painted (median)', Math.round(median(clickToPaint)), 'ms', {
          comparison: '<=',
          value: 1000,
        }),
        check('100,000 rows: click → painted (worst)', Math.round(Math.max(...clickToPaint)), 'ms'),
        check(
          'rows in the DOM after the first paint (max)',
          Math.max(...samples.map((s) => s.rowsInDom)),
          'rows',
        ),
        check(
          'long tasks > 200 ms while scrolling',
          samples.reduce((n, s) => n + s.longTasksOver200, 0),
          'tasks',
          {
            comparison: '<=',
            value: 0,
          },
        ),
        check(
          'longest task while scrolling',
          Math.round(Math.max(...samples.map((s) => s.longestTaskMs))),
          'ms',
        ),
      ],
      errors: 0,
      notes: [
        'Click → painted covers the whole wait: the request, the query on PostgreSQL, about 3 MB of JSON, parsing and the first frame with rows.',
        'Long tasks are Chromium PerformanceObserver "longtask" entries (> 50 ms) recorded during the scroll.',
      ],
    };
  });
}
