/**
 * Blobs of the embedded runtime: one file per key under `<dataDir>/blobs`, readable only by this
 * user. A write goes to a temporary file that is renamed over the target, so a crash leaves either
 * the old file or the new one, never part of one.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobStore } from '../../domain/ports.ts';
import { checkBlobKey } from './key.ts';

const partialSuffix = '.partial';

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return join(this.root, ...checkBlobKey(key).split('/'));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const temporary = `${target}.${randomBytes(6).toString('hex')}${partialSuffix}`;
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } catch (error) {
      await file.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await file.close();
    try {
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /**
   * Removes temporary files a crash left mid-write. Only at start: one process owns the data
   * directory (its lock), so no write is under way then.
   */
  async removeLeftovers(): Promise<number> {
    let entries: string[];
    try {
      entries = await readdir(this.root, { recursive: true });
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return 0;
      throw error;
    }
    const leftovers = entries.filter((entry) => entry.endsWith(partialSuffix));
    for (const entry of leftovers) await rm(join(this.root, entry), { force: true });
    return leftovers.length;
  }
}
