import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../shared/adapters/blobs/local-blob-store.ts';
import { createActionEngines } from '../../shared/connectors/engines.ts';
import type { FileVersion, FileVersionStore } from '../../shared/domain/files/model.ts';
import { dataSourceFiles, keepFileVersion } from '../../shared/domain/files/versions.ts';
import type { DataSource } from '../../shared/domain/model.ts';
import { sampleFile, sampleFileConnector } from '../support/file-connector.ts';
import { tempDir } from '../support/runtime.ts';

const dataSource: DataSource = {
  projectId: 'p',
  id: 'ds',
  name: 'Sample',
  kind: 'sample-files',
  environments: { dev: {} },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/** Versions kept in memory; `failWrites` makes the record write fail as a store outage would. */
function versionStore(failWrites: boolean): FileVersionStore & { records: FileVersion[] } {
  const records: FileVersion[] = [];
  return {
    records,
    async createFileVersion(v) {
      if (failWrites) throw new Error('store unavailable');
      records.push(v);
    },
    async getFileVersion(_p, _d, _e, id) {
      return records.find((r) => r.id === id);
    },
    async listFileVersions() {
      return [...records].reverse();
    },
    async deleteFileVersion(_p, _d, _e, id) {
      const i = records.findIndex((r) => r.id === id);
      if (i >= 0) records.splice(i, 1);
      return i >= 0;
    },
  };
}

describe('keepFileVersion', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('file-versions');
  });
  afterAll(() => dir.remove());
  const engines = createActionEngines({ poolSize: 1 }, { connectors: [sampleFileConnector] });
  let n = 0;
  const deps = (blobs: LocalBlobStore, versions: FileVersionStore) => ({
    files: { blobs, versions, uploadTokens: undefined as never },
    engines,
    clock: { now: () => new Date('2026-11-26T00:00:00Z') },
    ids: { next: (prefix: string) => `${prefix}_${String(++n).padStart(4, '0')}` },
  });

  it('deletes the blob again when the record cannot be written: nothing is half stored', async () => {
    const blobs = new LocalBlobStore(join(dir.path, 'a'));
    const versions = versionStore(true);
    await expect(
      keepFileVersion(deps(blobs, versions), {
        dataSource,
        environmentId: 'dev',
        bytes: sampleFile('A'),
        uploadedBy: { kind: 'user', id: 'u' },
      }),
    ).rejects.toThrow('store unavailable');
    expect(await readdir(join(dir.path, 'a', 'files', 'p', 'ds', 'dev'))).toEqual([]);
  });

  it('stores blob and record, and reads the latest or a given version', async () => {
    const blobs = new LocalBlobStore(join(dir.path, 'b'));
    const versions = versionStore(false);
    const input = { dataSource, environmentId: 'dev', uploadedBy: { kind: 'user' as const, id: 'u' } };
    const first = await keepFileVersion(deps(blobs, versions), { ...input, bytes: sampleFile('A') });
    const second = await keepFileVersion(deps(blobs, versions), { ...input, bytes: sampleFile('B') });
    expect(first).toMatchObject({ size: 16, description: { services: ['A'] }, fileKind: 'sample' });
    const files = dataSourceFiles({ blobs, versions, uploadTokens: undefined as never }, dataSource, 'dev');
    expect((await files.read())?.versionId).toBe(second.id);
    expect(new TextDecoder().decode((await files.read(first.id))?.bytes)).toBe('SAMPLE\nservice A');
    await expect(files.read('fv_gone')).rejects.toThrow("names file version 'fv_gone'");
    const otherEnvironment = dataSourceFiles(
      { blobs, versions: versionStore(false), uploadTokens: undefined as never },
      dataSource,
      'dev',
    );
    expect(await otherEnvironment.read()).toBeUndefined();
  });
});
