/**
 * Files a data source keeps per environment as versions (a gRPC data source's protosets, spec
 * 2.10): the bytes in the blob store, one record per version in the store. The data source uses
 * the latest version unless its connection names one (the kind's pin field).
 */
import type { PrincipalKind } from '../model.ts';
import type { BlobStore } from '../ports.ts';

export interface FileVersion {
  id: string;
  projectId: string;
  dataSourceId: string;
  environmentId: string;
  /** What the file is (the kind's file name, e.g. "protoset"). */
  fileKind: string;
  /** Optional name given at upload; the upload time also identifies a version. */
  name?: string;
  uploadedAt: string;
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** What the kind found in the file when it was uploaded (e.g. the services of a protoset). */
  description: Record<string, unknown>;
  /** Who uploaded it: a member from the console or CLI login, or an upload token. */
  uploadedBy: { kind: PrincipalKind | 'upload_token'; id: string; email?: string; name?: string };
}

export interface FileVersionStore {
  /** AlreadyExistsError when a version with this id exists. */
  createFileVersion(version: FileVersion): Promise<void>;
  getFileVersion(
    projectId: string,
    dataSourceId: string,
    environmentId: string,
    versionId: string,
  ): Promise<FileVersion | undefined>;
  /** Newest first. */
  listFileVersions(projectId: string, dataSourceId: string, environmentId: string): Promise<FileVersion[]>;
  /** False when there was nothing to delete. */
  deleteFileVersion(
    projectId: string,
    dataSourceId: string,
    environmentId: string,
    versionId: string,
  ): Promise<boolean>;
}

/** A project's upload token as stored: only the hash of its secret part. */
export interface UploadToken {
  id: string;
  projectId: string;
  name: string;
  /** The first characters of the token, so people can tell tokens apart. */
  prefix: string;
  /** Lower-case hex SHA-256 of the token's secret part. */
  secretHash: string;
  createdAt: string;
  createdBy: { id: string; email: string };
  rotatedAt?: string;
  lastUsedAt?: string;
}

export interface UploadTokenStore {
  /** AlreadyExistsError when the id is taken. */
  createUploadToken(token: UploadToken): Promise<void>;
  /** Replaces the token's record (rotation); false when it does not exist (revoked meanwhile). */
  replaceUploadToken(token: UploadToken): Promise<boolean>;
  getUploadToken(projectId: string, tokenId: string): Promise<UploadToken | undefined>;
  /** The token of this id in any project (read consistently: a rotated secret stops at once). */
  findUploadToken(tokenId: string): Promise<UploadToken | undefined>;
  listUploadTokens(projectId: string): Promise<UploadToken[]>;
  deleteUploadToken(projectId: string, tokenId: string): Promise<boolean>;
  /** Best effort: notes when the token was last used. */
  touchUploadToken(projectId: string, tokenId: string, at: string): Promise<void>;
}

/** Where uploaded files live: the blob store, the version records and the upload tokens. */
export interface FileStorage {
  blobs: BlobStore;
  versions: FileVersionStore;
  uploadTokens: UploadTokenStore;
}

/** The blob of a version: built from ids only, so no user text reaches a file path or S3 key. */
export const blobKeyOf = (v: Pick<FileVersion, 'projectId' | 'dataSourceId' | 'environmentId' | 'id'>) =>
  `files/${encodeKeySegment(v.projectId)}/${encodeKeySegment(v.dataSourceId)}/${encodeKeySegment(v.environmentId)}/${encodeKeySegment(v.id)}`;

/** Ids are restricted already; this keeps any other character out of keys all the same. */
function encodeKeySegment(id: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(id) ? id : `_${Buffer.from(id, 'utf8').toString('hex')}`;
}
