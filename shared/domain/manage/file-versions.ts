/**
 * A data source's uploaded files per environment (protoset versions, spec 2.10), managed like the
 * data source itself (right `manage_data_sources`): list, upload from the console, delete, pin.
 */
import { DoguError, notFound } from '../errors.ts';
import type { FileVersion } from '../files/model.ts';
import {
  checkVersionName,
  deleteFileVersion as deleteVersion,
  type FileDeps,
  fileKindOf,
  keepFileVersion,
  pinnedVersionOf,
} from '../files/versions.ts';
import type { DataSource, Principal } from '../model.ts';
import type { Store } from '../ports.ts';
import { authorize, requireEnvironment } from './access.ts';

export type FileManageDeps = FileDeps & { store: Store };

interface Target {
  projectId: string;
  dataSourceId: string;
  environmentId: string;
}

async function load(deps: FileManageDeps, principal: Principal, target: Target) {
  await authorize(deps.store, principal, target.projectId, 'manage_data_sources');
  const dataSource = await deps.store.getDataSource(target.projectId, target.dataSourceId);
  if (!dataSource) throw notFound('Data source', target.dataSourceId);
  await requireEnvironment(deps.store, target.projectId, target.environmentId);
  return { dataSource, fileKind: fileKindOf(deps.engines, dataSource, '#/dataSourceId') };
}

export function presentFileVersion(version: FileVersion) {
  const { projectId: _p, ...shown } = version;
  return { ...shown, name: version.name ?? null };
}

export async function listFileVersions(deps: FileManageDeps, principal: Principal, target: Target) {
  const { dataSource, fileKind } = await load(deps, principal, target);
  const versions = await deps.files.versions.listFileVersions(
    target.projectId,
    target.dataSourceId,
    target.environmentId,
  );
  const pinned = pinnedVersionOf(dataSource, target.environmentId, fileKind.pinField);
  return {
    fileKind: { name: fileKind.name, maxBytes: fileKind.maxBytes, pinField: fileKind.pinField },
    pinnedVersionId: pinned ?? null,
    /** The version engines use: the pinned one, else the latest. */
    activeVersionId: pinned ?? versions[0]?.id ?? null,
    data: versions.map(presentFileVersion),
  };
}

export async function uploadFileVersion(
  deps: FileManageDeps,
  principal: Principal,
  target: Target,
  input: { name?: unknown; bytes: Uint8Array },
) {
  const { dataSource } = await load(deps, principal, target);
  const name = checkVersionName(input.name, '#/name');
  const version = await keepFileVersion(deps, {
    dataSource,
    environmentId: target.environmentId,
    ...(name ? { name } : {}),
    bytes: input.bytes,
    uploadedBy: { kind: principal.kind, id: principal.id, email: principal.email },
  });
  return presentFileVersion(version);
}

export async function deleteFileVersion(
  deps: FileManageDeps,
  principal: Principal,
  target: Target & { versionId: string },
) {
  const { dataSource } = await load(deps, principal, target);
  if (!(await deleteVersion(deps, dataSource, target.environmentId, target.versionId)))
    throw notFound('File version', target.versionId);
}

/** Pins one version for the environment (null: follow the latest) in the data source's connection. */
export async function pinFileVersion(
  deps: FileManageDeps,
  principal: Principal,
  target: Target,
  versionId: string | null,
) {
  const { dataSource, fileKind } = await load(deps, principal, target);
  const connection = dataSource.environments[target.environmentId];
  if (!connection) {
    throw new DoguError(
      'not_found',
      `Data source '${target.dataSourceId}' has no connection settings for environment '${target.environmentId}'.`,
    );
  }
  if (versionId !== null) {
    const version = await deps.files.versions.getFileVersion(
      target.projectId,
      target.dataSourceId,
      target.environmentId,
      versionId,
    );
    if (!version) throw notFound('File version', versionId);
  }
  const { [fileKind.pinField]: _previous, ...rest } = connection;
  const updated: DataSource = {
    ...dataSource,
    environments: {
      ...dataSource.environments,
      [target.environmentId]: versionId === null ? rest : { ...rest, [fileKind.pinField]: versionId },
    },
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.store.putDataSource(updated);
  return { pinnedVersionId: versionId };
}
