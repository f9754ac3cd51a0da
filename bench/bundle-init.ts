/**
 * `npm run bench:bundles`: bundles every Lambda function as `cdk synth` does, then imports each
 * bundle in fresh Node processes and reports its size and times (the median and the fastest of
 * several runs): module init (index.mjs: what Lambda's init phase loads), the same with
 * NODE_OPTIONS=--enable-source-maps (which the stack sets), and every chunk of the bundle (an upper
 * bound of what the first requests load: service groups and connector runtimes load on first use).
 * Prints a Markdown table for docs/deploy.md. Options: `--runs N` (default 7).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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
  for (const [, resource] of Object.entries(template.Resources)) {
    const path = resource.Metadata?.['aws:cdk:path'] ?? '';
    const match = /\/(?:Handler-)?([a-z-]+)\/Function\/Resource$/.exec(path);
    if (resource.Type !== 'AWS::Lambda::Function' || !match) continue;
    rows.push(measure(match[1]!, join(outdir, resource.Metadata!['aws:asset:path']!)));
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
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
