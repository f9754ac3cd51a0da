/** Uploaded file versions of a data source environment (protosets) and upload tokens: shapes and paths. */
import { api, pathOf } from '../../api/client.ts';
import type { components } from '../../api/openapi.gen.ts';

type Schemas = components['schemas'];

export type FileVersion = Schemas['FileVersion'];
export type FileVersionList = Schemas['FileVersionList'];
export type UploadToken = Schemas['UploadToken'];
export type NewUploadToken = Schemas['NewUploadToken'];

const environmentPath = (projectId: string, dataSourceId: string, environmentId: string) =>
  pathOf`/api/v1/projects/${projectId}/data-sources/${dataSourceId}/environments/${environmentId}`;

export const filePaths = {
  versions: (p: string, d: string, e: string) => `${environmentPath(p, d, e)}/file-versions`,
  version: (p: string, d: string, e: string, v: string) =>
    `${environmentPath(p, d, e)}/file-versions/${encodeURIComponent(v)}`,
  pin: (p: string, d: string, e: string) => `${environmentPath(p, d, e)}/file-pin`,
  uploadTokens: (p: string) => pathOf`/api/v1/projects/${p}/upload-tokens`,
  uploadToken: (p: string, id: string) => pathOf`/api/v1/projects/${p}/upload-tokens/${id}`,
  rotate: (p: string, id: string) => pathOf`/api/v1/projects/${p}/upload-tokens/${id}/rotate`,
};

/** The console uploads JSON with the file base64-encoded (docs/api.md). */
export async function uploadFileVersion(path: string, file: Blob, name: string): Promise<FileVersion> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return api.post<FileVersion>(path, {
    ...(name.trim() ? { name: name.trim() } : {}),
    contentBase64: btoa(binary),
  });
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024
    ? `${(n / 1024 / 1024).toFixed(1)} MB`
    : n >= 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${n} B`;
