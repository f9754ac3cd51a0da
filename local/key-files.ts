/**
 * The embedded runtime's two keys: `secrets-key` encrypts secrets and secret connection fields,
 * `signing-key` signs login tokens. A key kept in the data directory is copied with every backup of
 * the data it protects, so each may come from elsewhere (docs/security.md):
 * DOGU_SECRETS_KEY / DOGU_SIGNING_KEY (32 bytes in base64), or DOGU_SECRETS_KEY_FILE /
 * DOGU_SIGNING_KEY_FILE (a file, made on first start when missing). Without either, the key file in
 * the data directory is used (and made), with a warning at every start.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { logger } from '../shared/commons/logger.ts';

export type KeyName = 'secrets-key' | 'signing-key';

const keyBytes = 32;

export const keyVariables = (name: KeyName) => {
  const prefix = name === 'secrets-key' ? 'DOGU_SECRETS_KEY' : 'DOGU_SIGNING_KEY';
  return { value: prefix, file: `${prefix}_FILE` };
};

export async function loadKey(
  dataDir: string,
  name: KeyName,
  env: Record<string, string | undefined> = process.env,
): Promise<Uint8Array> {
  const variables = keyVariables(name);
  const inDataDir = join(dataDir, name);
  const given = env[variables.value]?.trim();
  if (given) {
    const key = decodeKey(given, variables.value);
    const leftover = await readKeyIfPresent(inDataDir);
    if (leftover && !Buffer.from(leftover).equals(Buffer.from(key))) {
      throw new Error(
        `${variables.value} differs from ${inDataDir}, the key the data so far was protected with. ` +
          'Use that key (or remove the file if the data directory is new).',
      );
    }
    if (leftover)
      warnInside(name, inDataDir, `a copy of ${variables.value} is still in the data directory: remove it`);
    return key;
  }
  const path = resolve(env[variables.file]?.trim() || inDataDir);
  if (isInside(dataDir, path)) {
    warnInside(
      name,
      path,
      `the key lies beside the data it protects; set ${variables.value} or ${variables.file} to a path outside ${dataDir}`,
    );
  }
  await createIfMissing(path);
  await keepPrivate(path);
  return decodeKey((await readFile(path, 'utf8')).trim(), path);
}

function decodeKey(text: string, where: string): Uint8Array {
  const key = Buffer.from(text, 'base64');
  if (key.length !== keyBytes) {
    throw new Error(
      `${where} must hold ${keyBytes} random bytes in base64 (for example: openssl rand -base64 32).`,
    );
  }
  return key;
}

async function readKeyIfPresent(path: string): Promise<Uint8Array | undefined> {
  try {
    return decodeKey((await readFile(path, 'utf8')).trim(), path);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** 32 random bytes made on first start, readable only by this user. Back them up, apart from the data. */
async function createIfMissing(path: string): Promise<void> {
  try {
    await writeFile(path, randomBytes(keyBytes).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
}

/** A key file others can read (made by an older version, or copied) is narrowed to its owner. */
async function keepPrivate(path: string): Promise<void> {
  const { mode } = await stat(path);
  if ((mode & 0o077) === 0) return;
  await chmod(path, 0o600);
  logger.warn('a key file was readable by others; its mode is now 0600', { file: path });
}

/** The data directory holds the store's files (made with the default umask): others may not enter it. */
export async function keepDataDirPrivate(dataDir: string): Promise<void> {
  const { mode } = await stat(dataDir);
  if ((mode & 0o077) === 0) return;
  await chmod(dataDir, 0o700);
  logger.warn('the data directory was open to others; its mode is now 0700', { dir: dataDir });
}

const isInside = (dir: string, path: string) => {
  const offset = relative(resolve(dir), resolve(path));
  return offset !== '' && !offset.startsWith('..') && !isAbsolute(offset);
};

function warnInside(name: KeyName, path: string, advice: string): void {
  logger.warn(`${name} is kept inside the data directory: ${advice} (docs/security.md)`, { file: path });
}
