/**
 * The `dogu` CLI for test files that run it dozens of times: cli/main.ts bundled once per test file
 * by esbuild (packages stay external, as bin.js loads them) and run by plain node. Through bin.js
 * every run first has tsx load the CLI's ~100 TypeScript modules through its loader thread: about
 * 0.8 s of CPU per run against 0.4 s, which made the config-file tests the slowest of the suite
 * after the browser ones. Same source, same process per command; cli.test.ts, sso-login.test.ts and
 * config-file.test.ts keep running bin.js itself, so the real entry point stays proven.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll } from 'vitest';
import { type RunResult, repoRoot, run } from './process.ts';

let bundle: Promise<string> | undefined;

function cliBundle(): Promise<string> {
  bundle ??= (async () => {
    // Inside the repository, so the bundle's imports of packages resolve to its node_modules.
    const dir = join(repoRoot, 'node_modules', '.cache', 'dogu-test-cli');
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, `cli-${process.pid}-${randomUUID()}.mjs`);
    await build({
      entryPoints: [join(repoRoot, 'cli', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      packages: 'external',
      outfile,
      logLevel: 'warning',
    });
    return outfile;
  })();
  return bundle;
}

// Registered when a test file imports this module, so the file's bundle goes with the file's end
// (a fork worker is stopped without its process' exit event).
afterAll(async () => {
  if (bundle) await rm(await bundle, { force: true });
});

/** Runs `dogu <args>` as its own process, with `env` over this process's environment. */
export async function runCli(args: string[], env: Record<string, string>): Promise<RunResult> {
  return run(process.execPath, [await cliBundle(), ...args], env);
}
