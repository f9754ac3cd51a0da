/**
 * Keeping and reading a data source's file versions. Writing order: the blob first, then its
 * record; when the record cannot be written the blob is deleted again. A version is visible only
 * through its record, so no reader ever finds a record without its bytes.
 */
import { createHash } from 'node:crypto';
import { DoguError } from '../errors.ts';
import type { DataSource } from '../model.ts';
import type { ActionEngines, Clock, DataSourceFiles, IdGenerator } from '../ports.ts';
import { blobKeyOf, type FileStorage, type FileVersion } from './model.ts';

export interface FileDeps {
  files: FileStorage;
  engines: ActionEngines;
  clock: Clock;
  ids: IdGenerator;
}

export const maxVersionNameLength = 128;

/** The kind's file settings; 422 naming the data source when its kind keeps no files. */
export function fileKindOf(engines: ActionEngines, dataSource: DataSource, pointer = '#/resourceId') {
  const fileKind = engines.fileKind(dataSource.kind);
  if (!fileKind) {
    throw new DoguError(
      'argument_invalid',
      `Data source '${dataSource.id}' is a ${dataSource.kind} data source, which keeps no uploaded files.`,
      { errors: [{ pointer, detail: `a ${dataSource.kind} data source keeps no files` }] },
    );
  }
  return fileKind;
}

export function checkVersionName(name: unknown, pointer: string): string | undefined {
  if (name === undefined || name === null) return undefined;
  const fail = (detail: string) =>
    new DoguError('argument_invalid', `${pointer}: ${detail}`, { errors: [{ pointer, detail }] });
  if (typeof name !== 'string') throw fail('must be a string');
  const trimmed = name.trim();
  if (trimmed === '') return undefined;
  if (trimmed.length > maxVersionNameLength) throw fail(`must be at most ${maxVersionNameLength} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw fail('must not contain control characters');
  return trimmed;
}

export interface KeepFileInput {
  dataSource: DataSource;
  environmentId: string;
  name?: string;
  bytes: Uint8Array;
  /** The file was longer than `bytes` (cut at a parser's limit): too large whatever the kind. */
  truncated?: boolean;
  uploadedBy: FileVersion['uploadedBy'];
}

/** Checks and parses the file, then stores it as a new version: all of it, or nothing. */
export async function keepFileVersion(deps: FileDeps, input: KeepFileInput): Promise<FileVersion> {
  const { dataSource, bytes } = input;
  const fileKind = fileKindOf(deps.engines, dataSource);
  if (input.truncated || bytes.byteLength > fileKind.maxBytes) throw tooLarge(fileKind);
  if (bytes.byteLength === 0) {
    throw new DoguError('argument_invalid', `The ${fileKind.name} file is empty.`, {
      errors: [{ pointer: '#/file', detail: 'the file is empty' }],
    });
  }
  let description: Record<string, unknown>;
  try {
    description = await deps.engines.describeFile(dataSource.kind, bytes);
  } catch (error) {
    if (error instanceof DoguError) throw error;
    throw new DoguError('argument_invalid', `The file is not a valid ${fileKind.name}.`, {
      errors: [{ pointer: '#/file', detail: `not a valid ${fileKind.name}` }],
    });
  }
  const version: FileVersion = {
    id: deps.ids.next('fv'),
    projectId: dataSource.projectId,
    dataSourceId: dataSource.id,
    environmentId: input.environmentId,
    fileKind: fileKind.name,
    ...(input.name ? { name: input.name } : {}),
    uploadedAt: deps.clock.now().toISOString(),
    size: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    description,
    uploadedBy: input.uploadedBy,
  };
  const key = blobKeyOf(version);
  await deps.files.blobs.put(key, bytes);
  try {
    await deps.files.versions.createFileVersion(version);
  } catch (error) {
    await deps.files.blobs.delete(key).catch(() => {});
    throw error;
  }
  return version;
}

export const tooLarge = (fileKind: { name: string; maxBytes: number }) =>
  new DoguError(
    'payload_too_large',
    `The ${fileKind.name} file is larger than ${fileKind.maxBytes} bytes (${formatBytes(fileKind.maxBytes)}).`,
  );

const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;

/** The versions an engine reads for one data source environment. */
export function dataSourceFiles(
  files: FileStorage,
  dataSource: DataSource,
  environmentId: string,
): DataSourceFiles {
  const { projectId, id: dataSourceId } = dataSource;
  return {
    async read(versionId?: string) {
      let version: FileVersion | undefined;
      if (versionId) {
        version = await files.versions.getFileVersion(projectId, dataSourceId, environmentId, versionId);
        if (!version) {
          throw new DoguError(
            'data_source_error',
            `Data source '${dataSourceId}' names file version '${versionId}' for environment '${environmentId}', which does not exist.`,
          );
        }
      } else {
        [version] = await files.versions.listFileVersions(projectId, dataSourceId, environmentId);
        if (!version) return undefined;
      }
      const bytes = await files.blobs.get(blobKeyOf(version));
      if (!bytes) {
        throw new DoguError(
          'data_source_error',
          `The bytes of file version '${version.id}' of data source '${dataSourceId}' are missing.`,
        );
      }
      return { versionId: version.id, bytes };
    },
  };
}

/** The pinned version of one environment, or undefined when it follows the latest. */
export function pinnedVersionOf(dataSource: DataSource, environmentId: string, pinField: string) {
  const value = dataSource.environments[environmentId]?.[pinField];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Deletes a version's record, then its bytes; refuses the version an environment pins. */
export async function deleteFileVersion(
  deps: Pick<FileDeps, 'files' | 'engines'>,
  dataSource: DataSource,
  environmentId: string,
  versionId: string,
): Promise<boolean> {
  const fileKind = fileKindOf(deps.engines, dataSource);
  if (pinnedVersionOf(dataSource, environmentId, fileKind.pinField) === versionId) {
    throw new DoguError(
      'state_conflict',
      `Version '${versionId}' is pinned by data source '${dataSource.id}' in environment '${environmentId}'; unpin it first.`,
    );
  }
  const version = await deps.files.versions.getFileVersion(
    dataSource.projectId,
    dataSource.id,
    environmentId,
    versionId,
  );
  if (!version) return false;
  // The record goes first: a blob without a record is unreachable, never the other way round.
  await deps.files.versions.deleteFileVersion(dataSource.projectId, dataSource.id, environmentId, versionId);
  await deps.files.blobs.delete(blobKeyOf(version));
  return true;
}
