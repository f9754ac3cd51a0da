import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrepareError, type PrepareOptions, prepareTestMachine } from '../../scripts/prepare-test.ts';

/**
 * The pretest step's decisions, against fake apt-get, pg_isready, pg_ctlcluster, mariadb-admin and
 * start-stop-daemon on PATH: each records its call; the servers "run" once their flag file exists.
 */
let dir: string;
let logged: string[];

function fakeCommand(name: string, body: string): void {
  const path = join(dir, 'bin', name);
  writeFileSync(path, `#!/bin/sh\necho "${name} $*" >> "${dir}/calls.log"\n${body}\n`);
  chmodSync(path, 0o755);
}

function calls(): string[] {
  try {
    return readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n');
  } catch {
    return [];
  }
}

function options(overrides: Partial<PrepareOptions> = {}): PrepareOptions {
  return {
    env: { PATH: join(dir, 'bin') },
    chromiumPath: join(dir, 'chromium'),
    cjkFontPath: join(dir, 'NotoSansCJK-Regular.ttc'),
    postgresConfigDir: join(dir, 'etc-postgresql'),
    mariadbdPath: join(dir, 'mariadbd'),
    isRoot: true,
    waitSeconds: 2,
    pollMilliseconds: 20,
    log: (line) => logged.push(line),
    ...overrides,
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dogu-prepare-'));
  logged = [];
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'etc-postgresql', '15'), { recursive: true });
  mkdirSync(join(dir, 'etc-postgresql', '16'), { recursive: true });
  writeFileSync(join(dir, 'mariadbd'), '');
  // Installs what it is asked for: chromium, fonts-noto-cjk or both.
  fakeCommand(
    'apt-get',
    [
      `case "$*" in *chromium*) : > "${dir}/chromium";; esac`,
      `case "$*" in *fonts-noto-cjk*) : > "${dir}/NotoSansCJK-Regular.ttc";; esac`,
      'exit 0',
    ].join('\n'),
  );
  fakeCommand('pg_isready', `[ -f "${dir}/pg-up" ]`);
  fakeCommand('pg_ctlcluster', `: > "${dir}/pg-up"`);
  fakeCommand('mariadb-admin', `[ -f "${dir}/maria-up" ]`);
  fakeCommand('start-stop-daemon', `: > "${dir}/maria-up"`);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('pretest: prepare the machine for npm test', () => {
  it('changes nothing when Chromium is installed and both databases answer', async () => {
    writeFileSync(join(dir, 'chromium'), '');
    writeFileSync(join(dir, 'NotoSansCJK-Regular.ttc'), '');
    writeFileSync(join(dir, 'pg-up'), '');
    writeFileSync(join(dir, 'maria-up'), '');
    await prepareTestMachine(options());
    expect(calls()).toEqual([
      'pg_isready -h 127.0.0.1 -p 5432 -q',
      'mariadb-admin ping -h 127.0.0.1 -P 3306 -u root --silent',
    ]);
  });

  it('as root installs Chromium and the CJK fonts and starts both stopped databases', async () => {
    await prepareTestMachine(options());
    const made = calls().filter((call) => !/^(pg_isready|mariadb-admin) /.test(call));
    expect(made).toEqual([
      'apt-get update',
      'apt-get install -y --no-install-recommends chromium fonts-noto-cjk',
      'pg_ctlcluster --skip-systemctl-redirect 16 main start',
      `start-stop-daemon --start --oknodo --background --exec ${join(dir, 'mariadbd')}`,
    ]);
    // Waited until each answered after starting it.
    expect(calls().at(-1)).toBe('mariadb-admin ping -h 127.0.0.1 -P 3306 -u root --silent');
  });

  it('without root changes nothing and says exactly what to run', async () => {
    const attempt = prepareTestMachine(options({ isRoot: false }));
    await expect(attempt).rejects.toBeInstanceOf(PrepareError);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).toContain('Run as root: apt-get update && apt-get install -y chromium fonts-noto-cjk');
    expect(message).toContain('run as root: pg_ctlcluster --skip-systemctl-redirect 16 main start');
    expect(message).toContain(
      `run as root: start-stop-daemon --start --oknodo --background --exec ${join(dir, 'mariadbd')}`,
    );
    expect(calls().filter((call) => /^(apt-get|pg_ctlcluster|start-stop-daemon) /.test(call))).toEqual([]);
  });

  it('installs only the fonts when Chromium is there but the CJK fonts are not', async () => {
    writeFileSync(join(dir, 'chromium'), '');
    writeFileSync(join(dir, 'pg-up'), '');
    writeFileSync(join(dir, 'maria-up'), '');
    await prepareTestMachine(options());
    expect(calls().filter((call) => call.startsWith('apt-get'))).toEqual([
      'apt-get update',
      'apt-get install -y --no-install-recommends fonts-noto-cjk',
    ]);
  });

  it('fails with the reason when a started database never answers', async () => {
    writeFileSync(join(dir, 'chromium'), '');
    writeFileSync(join(dir, 'NotoSansCJK-Regular.ttc'), '');
    writeFileSync(join(dir, 'maria-up'), '');
    fakeCommand('pg_ctlcluster', 'exit 0');
    await expect(prepareTestMachine(options({ waitSeconds: 0.2 }))).rejects.toThrow(
      'PostgreSQL was started but did not answer within 0.2 s.',
    );
  });
});
