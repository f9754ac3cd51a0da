/**
 * `npm run bench:bundles`: bundles every Lambda function as `cdk synth` does, then imports each
 * bundle in fresh Node processes and reports its size and times (the median and the fastest of
 * several runs): module init (index.mjs: what Lambda's init phase loads), the same with
 * NODE_OPTIONS=--enable-source-maps (which the stack sets), and every chunk of the bundle (an upper
 * bound of what the first requests load: service groups and connector runtimes load on first use).
 * Then, for the execute-action function, each connector runtime chunk: its size with the chunks
 * only it brings (what its first run loads beyond index.mjs) and the time of that first load
 * (importing the chunk and creating the runtime, after index.mjs). Prints Markdown tables for
 * docs/deploy.md. Options: `--runs N` (default 7), `--only NAME` (one function's row; still bundles all).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import { DoguStack } from '../infra/dogu-stack.ts';

interface Row {
  name: string;
  files: number;
  jsBytes: number;
  mapBytes: number;
  init: Timing;
  initWithMaps: Timing;
  everything: Timing;
}

interface Timing {
  median: number;
  fastest: number;
}

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7;
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;

/** Imports the modules in a fresh process, in order, and prints how long that took (ms). */
const probe = `const t = performance.now(); for (const m of process.argv.slice(1)) await import(m); console.log(performance.now() - t);`;

function timeImports(modules: string[], sourceMaps: boolean): Timing {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(
      process.execPath,
      [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', probe, ...modules],
      // As on Lambda: no credentials are needed to load a module; nothing is called.
      { env: { PATH: process.env.PATH, AWS_REGION: 'ap-northeast-1', POWERTOOLS_LOG_LEVEL: 'WARN' } },
    );
    samples.push(Number(out.toString().trim()));
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, fastest: samples[0]! };
}

function measure(name: string, dir: string): Row {
  const files = readdirSync(dir);
  const size = (predicate: (f: string) => boolean) =>
    files.filter(predicate).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  const url = (f: string) => pathToFileURL(join(dir, f)).href;
  const chunks = files.filter((f) => f.endsWith('.mjs') && f !== 'index.mjs').map(url);
  return {
    name,
    files: files.filter((f) => f.endsWith('.mjs')).length,
    jsBytes: size((f) => f.endsWith('.mjs')),
    mapBytes: size((f) => f.endsWith('.map')),
    init: timeImports([url('index.mjs')], false),
    initWithMaps: timeImports([url('index.mjs')], true),
    everything: timeImports([url('index.mjs'), ...chunks], false),
  };
}

/** Loads index.mjs, then times importing one runtime chunk and creating its runtime (ms). */
// SQL kinds' createRuntime takes pool settings from their caller: for them only the import counts.
const firstRunProbe = `await import(process.argv[1]); const t = performance.now(); const m = await import(process.argv[2]); try { await m.createRuntime?.()?.close?.(); } catch {} console.log(performance.now() - t);`;

/** The chunks a module imports statically, transitively (esbuild's `from"./x.mjs"` and `import"./x.mjs"`). */
function staticClosure(dir: string, start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dir, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.mjs)"/g)) visit(m[1]!);
  };
  visit(start);
  return seen;
}

interface KindRow {
  kind: string;
  bytes: number;
  firstRun: Timing;
}

function measureKinds(dir: string): KindRow[] {
  const files = readdirSync(dir);
  const base = staticClosure(dir, 'index.mjs');
  const url = (f: string) => pathToFileURL(join(dir, f)).href;
  const rows: KindRow[] = [];
  for (const chunk of files.filter((f) => /^runtime-[A-Z0-9]+\.mjs$/.test(f))) {
    // The source map names the runtime's folder: shared/connectors/<kind>/runtime.ts.
    const map = JSON.parse(readFileSync(join(dir, `${chunk}.map`), 'utf8')) as { sources: string[] };
    const kind = map.sources
      .map((source) => /connectors\/([a-z0-9-]+)\/runtime\.ts$/.exec(source)?.[1])
      .find(Boolean);
    const own = [...staticClosure(dir, chunk)].filter((f) => !base.has(f));
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const out = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', firstRunProbe, url('index.mjs'), url(chunk)],
        { env: { PATH: process.env.PATH, AWS_REGION: 'ap-northeast-1', POWERTOOLS_LOG_LEVEL: 'WARN' } },
      );
      samples.push(Number(out.toString().trim().split('\n').pop()));
    }
    samples.sort((a, b) => a - b);
    rows.push({
      kind: kind ?? chunk,
      bytes: own.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0),
      firstRun: { median: samples[Math.floor(samples.length / 2)]!, fastest: samples[0]! },
    });
  }
  return rows.sort((a, b) => a.kind.localeCompare(b.kind));
}

const outdir = mkdtempSync(join(tmpdir(), 'dogu-bundles-'));
try {
  const app = new App({
    outdir,
    context: {
      'aws:cdk:bundling-stacks': ['**'],
      'aws:cdk:enable-asset-metadata': true,
      'aws:cdk:enable-path-metadata': true,
    },
  });
  const stack = new DoguStack(app, 'Dogu-bench', {
    stage: 'bench',
    env: { account: '123456789012', region: 'ap-northeast-1' },
  });
  const template = app.synth().getStackByName(stack.stackName).template as {
    Resources: Record<string, { Type: string; Metadata?: Record<string, string> }>;
  };
  const rows: Row[] = [];
  let executeAction: string | undefined;
  for (const [, resource] of Object.entries(template.Resources)) {
    const path = resource.Metadata?.['aws:cdk:path'] ?? '';
    const match = /\/(?:Handler-)?([a-z-]+)\/Function\/Resource$/.exec(path);
    if (resource.Type !== 'AWS::Lambda::Function' || !match) continue;
    const dir = join(outdir, resource.Metadata!['aws:asset:path']!);
    if (match[1] === 'execute-action') executeAction = dir;
    if (!only || only === match[1]) rows.push(measure(match[1]!, dir));
  }
  rows.sort((a, b) => a.name.localeCompare(b.name));
  const kib = (bytes: number) => `${Math.round(bytes / 1024)}`;
  const ms = (t: Timing) => `${t.median.toFixed(0)} (${t.fastest.toFixed(0)})`;
  console.log(`Node ${process.version}, ${runs} runs each: median (fastest) in ms.\n`);
  console.log('| Function | JS (KiB) | Files | Maps (KiB) | Init | Init with source maps | All chunks |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${kib(r.jsBytes)} | ${r.files} | ${kib(r.mapBytes)} | ${ms(r.init)} | ${ms(r.initWithMaps)} | ${ms(r.everything)} |`,
    );
  }
  if (executeAction) {
    console.log(
      '\nConnector runtimes in execute-action: the chunks a kind’s first run loads beyond index.mjs, and the time to load them and create the runtime.\n',
    );
    console.log('| Kind | Chunks (KiB) | First run (ms) |');
    console.log('| --- | ---: | ---: |');
    for (const k of measureKinds(executeAction))
      console.log(`| ${k.kind} | ${kib(k.bytes)} | ${ms(k.firstRun)} |`);
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
