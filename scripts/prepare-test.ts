/**
 * Run by `npm test` (as `pretest`): makes a fresh Debian machine ready for the tests, so the README's
 * `npm ci && npm test` is all a newcomer (or CI) types. Installs Debian's Chromium and the CJK fonts
 * when Chromium is missing, starts PostgreSQL and MariaDB when they are stopped and waits until they
 * answer. When it cannot (not root, a server not installed), it says exactly what to run and fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface PrepareOptions {
  /** Environment for the commands run (PATH decides which apt-get, pg_isready ... are used). */
  env: NodeJS.ProcessEnv;
  chromiumPath: string;
  /** A file of Debian's `fonts-noto-cjk`: Japanese screenshots need it. */
  cjkFontPath: string;
  /** Debian's PostgreSQL clusters live under /etc/postgresql/<version>/main. */
  postgresConfigDir: string;
  mariadbdPath: string;
  isRoot: boolean;
  waitSeconds: number;
  pollMilliseconds: number;
  log: (line: string) => void;
}

export const defaultPrepareOptions: PrepareOptions = {
  env: process.env,
  chromiumPath: '/usr/bin/chromium',
  cjkFontPath: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  postgresConfigDir: '/etc/postgresql',
  mariadbdPath: '/usr/sbin/mariadbd',
  isRoot: process.getuid?.() === 0,
  waitSeconds: 60,
  pollMilliseconds: 1000,
  log: (line) => console.error(`prepare-test: ${line}`),
};

/** Thrown with the instructions a person has to follow; nothing else is wrong. */
export class PrepareError extends Error {}

export async function prepareTestMachine(options: PrepareOptions): Promise<void> {
  const problems: string[] = [];
  for (const step of [installChromium, startPostgres, startMariadb]) {
    const problem = await step(options);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) throw new PrepareError(problems.join('\n'));
}

function succeeds(options: PrepareOptions, command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { env: options.env, stdio: 'ignore' });
  return result.status === 0;
}

function runLoud(options: PrepareOptions, command: string, args: string[]): boolean {
  options.log(`running ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { env: options.env, stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}

async function waitUntil(
  options: PrepareOptions,
  name: string,
  ready: () => boolean,
): Promise<string | null> {
  const deadline = Date.now() + options.waitSeconds * 1000;
  while (Date.now() < deadline) {
    if (ready()) return null;
    await new Promise((resolve) => setTimeout(resolve, options.pollMilliseconds));
  }
  return ready() ? null : `${name} was started but did not answer within ${options.waitSeconds} s.`;
}

async function installChromium(options: PrepareOptions): Promise<string | null> {
  const missing = [
    ...(existsSync(options.chromiumPath) ? [] : ['chromium']),
    ...(existsSync(options.cjkFontPath) ? [] : ['fonts-noto-cjk']),
  ];
  if (missing.length === 0) return null;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  const why =
    "the console's end-to-end tests drive Debian's Chromium; Japanese screenshots need the CJK fonts";
  if (!options.isRoot) return `${missing.join(' and ')} missing (${why}). Run as root: ${command}`;
  options.log(`installing ${missing.join(' and ')} (${why})`);
  const env = { ...options.env, DEBIAN_FRONTEND: 'noninteractive' };
  const installed =
    runLoud({ ...options, env }, 'apt-get', ['update']) &&
    runLoud({ ...options, env }, 'apt-get', ['install', '-y', '--no-install-recommends', ...missing]);
  if (!installed || !existsSync(options.chromiumPath) || !existsSync(options.cjkFontPath)) {
    return `Installing ${missing.join(' and ')} failed; run as root: ${command}`;
  }
  return null;
}

function postgresReady(options: PrepareOptions): boolean {
  return succeeds(options, 'pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']);
}

function postgresVersion(options: PrepareOptions): string | undefined {
  if (!existsSync(options.postgresConfigDir)) return undefined;
  return readdirSync(options.postgresConfigDir)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0];
}

async function startPostgres(options: PrepareOptions): Promise<string | null> {
  if (postgresReady(options)) return null;
  const version = postgresVersion(options);
  if (!version) {
    return 'PostgreSQL is not installed; run as root: apt-get update && apt-get install -y postgresql (trust auth for 127.0.0.1, see README)';
  }
  const args = ['--skip-systemctl-redirect', version, 'main', 'start'];
  if (!options.isRoot) {
    return `PostgreSQL on 127.0.0.1:5432 is stopped; run as root: pg_ctlcluster ${args.join(' ')}`;
  }
  options.log('PostgreSQL on 127.0.0.1:5432 is stopped; starting it');
  runLoud(options, 'pg_ctlcluster', args);
  return waitUntil(options, 'PostgreSQL', () => postgresReady(options));
}

function mariadbReady(options: PrepareOptions): boolean {
  return succeeds(options, 'mariadb-admin', [
    'ping',
    '-h',
    '127.0.0.1',
    '-P',
    '3306',
    '-u',
    'root',
    '--silent',
  ]);
}

async function startMariadb(options: PrepareOptions): Promise<string | null> {
  if (mariadbReady(options)) return null;
  if (!existsSync(options.mariadbdPath)) {
    return 'MariaDB is not installed; run as root: apt-get update && apt-get install -y mariadb-server';
  }
  const args = ['--start', '--oknodo', '--background', '--exec', options.mariadbdPath];
  if (!options.isRoot) {
    return `MariaDB on 127.0.0.1:3306 is stopped; run as root: start-stop-daemon ${args.join(' ')}`;
  }
  options.log('MariaDB on 127.0.0.1:3306 is stopped; starting it');
  runLoud(options, 'start-stop-daemon', args);
  return waitUntil(options, 'MariaDB', () => mariadbReady(options));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  prepareTestMachine(defaultPrepareOptions).catch((error: unknown) => {
    if (error instanceof PrepareError) {
      console.error(`prepare-test: the tests cannot run yet:\n${error.message}`);
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  });
}
