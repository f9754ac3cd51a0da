/** The embedded runtime's keys may live apart from the data; inside it they are private and a warning says so. */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { keepDataDirPrivate, loadKey } from '../../local/key-files.ts';
import { logger } from '../../shared/commons/logger.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
let dataDir: string;
let outside: string;
let n = 0;
beforeAll(async () => {
  root = await tempDir('keys');
});
afterAll(() => root?.remove());
afterEach(() => vi.restoreAllMocks());

async function freshDirs() {
  n += 1;
  dataDir = join(root.path, `data-${n}`);
  outside = join(root.path, `keys-${n}`);
  await mkdir(dataDir, { mode: 0o700 });
  await mkdir(outside, { mode: 0o700 });
}

const warnings = () => {
  const warn = vi.spyOn(logger, 'warn');
  return () => warn.mock.calls.map((call) => String(call[0]));
};
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('keys', () => {
  it('by default: made in the data directory with mode 0600, and a warning at every start', async () => {
    await freshDirs();
    const warned = warnings();
    const key = await loadKey(dataDir, 'secrets-key', {});
    expect(key).toHaveLength(32);
    expect(await modeOf(join(dataDir, 'secrets-key'))).toBe(0o600);
    expect(warned().some((w) => w.includes('secrets-key is kept inside the data directory'))).toBe(true);
    expect(Buffer.from(await loadKey(dataDir, 'secrets-key', {}))).toEqual(Buffer.from(key));
  });

  it('tightens the mode of a key file others can read', async () => {
    await freshDirs();
    const path = join(dataDir, 'signing-key');
    await writeFile(path, randomBytes(32).toString('base64'));
    await chmod(path, 0o644);
    await loadKey(dataDir, 'signing-key', {});
    expect(await modeOf(path)).toBe(0o600);
  });

  it('narrows a data directory others may enter', async () => {
    await freshDirs();
    await chmod(dataDir, 0o755);
    await keepDataDirPrivate(dataDir);
    expect(await modeOf(dataDir)).toBe(0o700);
  });

  it('from the environment: nothing is written to the data directory and nothing is warned', async () => {
    await freshDirs();
    const given = randomBytes(32);
    const warned = warnings();
    const key = await loadKey(dataDir, 'secrets-key', { DOGU_SECRETS_KEY: given.toString('base64') });
    expect(Buffer.from(key)).toEqual(given);
    await expect(stat(join(dataDir, 'secrets-key'))).rejects.toThrow(/ENOENT/);
    expect(warned()).toEqual([]);
    await expect(loadKey(dataDir, 'secrets-key', { DOGU_SECRETS_KEY: 'c2hvcnQ=' })).rejects.toThrow(
      /DOGU_SECRETS_KEY must hold 32 random bytes in base64/,
    );
  });

  it('from a key file outside the data directory: made there on first start, 0600, no warning', async () => {
    await freshDirs();
    const path = join(outside, 'dogu-signing-key');
    const warned = warnings();
    const key = await loadKey(dataDir, 'signing-key', { DOGU_SIGNING_KEY_FILE: path });
    expect(Buffer.from(key)).toEqual(Buffer.from((await readFile(path, 'utf8')).trim(), 'base64'));
    expect(await modeOf(path)).toBe(0o600);
    await expect(stat(join(dataDir, 'signing-key'))).rejects.toThrow(/ENOENT/);
    expect(warned()).toEqual([]);
  });

  it('refuses a key from the environment that differs from the one the data was protected with', async () => {
    await freshDirs();
    const old = await loadKey(dataDir, 'secrets-key', {});
    await expect(
      loadKey(dataDir, 'secrets-key', { DOGU_SECRETS_KEY: randomBytes(32).toString('base64') }),
    ).rejects.toThrow(/differs from/);
    const warned = warnings();
    const same = await loadKey(dataDir, 'secrets-key', {
      DOGU_SECRETS_KEY: Buffer.from(old).toString('base64'),
    });
    expect(Buffer.from(same)).toEqual(Buffer.from(old));
    expect(warned().some((w) => w.includes('still in the data directory'))).toBe(true);
  });

  it('the runtime takes both keys from the environment and keeps none in its data directory', async () => {
    await freshDirs();
    const keys = {
      DOGU_SECRETS_KEY: randomBytes(32).toString('base64'),
      DOGU_SIGNING_KEY_FILE: join(outside, 'signing'),
    };
    Object.assign(process.env, keys);
    try {
      const runtime = await startTestRuntime(dataDir);
      try {
        expect((await loginToken(runtime)).length).toBeGreaterThan(20);
      } finally {
        await runtime.close();
      }
    } finally {
      delete process.env.DOGU_SECRETS_KEY;
      delete process.env.DOGU_SIGNING_KEY_FILE;
    }
    await expect(stat(join(dataDir, 'secrets-key'))).rejects.toThrow(/ENOENT/);
    await expect(stat(join(dataDir, 'signing-key'))).rejects.toThrow(/ENOENT/);
    expect(await modeOf(keys.DOGU_SIGNING_KEY_FILE)).toBe(0o600);
  }, 120_000);
});
