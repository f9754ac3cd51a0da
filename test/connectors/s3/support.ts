/** Runs of object-storage actions for the S3 and GCS tests. */
import type { Action, DataSource, StatementResult } from '../../../shared/domain/model.ts';
import type { EngineRun } from '../../../shared/domain/ports.ts';

let counter = 0;

export interface StorageActionFields {
  operation: 'upload' | 'download' | 'list' | 'signed-url';
  bucket: string;
  objectKey?: string;
  fileParameter?: string;
  method?: 'GET' | 'PUT';
  expiresInSeconds?: number;
}

export function storageRun(
  kind: 's3' | 'gcs',
  connection: Record<string, unknown>,
  fields: StorageActionFields,
  values: Record<string, unknown> = {},
  extra: Partial<EngineRun> = {},
): EngineRun {
  counter += 1;
  const dataSource = {
    id: `${kind}-${counter}`,
    name: 'Files',
    kind,
    projectId: 'shop',
    createdAt: '',
    updatedAt: '',
    environments: { prod: connection },
  } as DataSource;
  return {
    action: {
      id: 'files',
      name: 'Files',
      kind: 'storage',
      parameters: fields.fileParameter ? [{ name: fields.fileParameter, kind: 'file', required: true }] : [],
      objectKey: '',
      method: 'GET',
      expiresInSeconds: 3600,
      ...fields,
    } as unknown as Action,
    dataSource,
    environmentId: 'prod',
    connection,
    key: `shop/${kind}-${counter}/prod`,
    values,
    signal: AbortSignal.timeout(20_000),
    deadlineAt: Date.now() + 20_000,
    callAction: async (): Promise<StatementResult[]> => [],
    ...extra,
  };
}

export const fileValue = (name: string, contentType: string, content: Uint8Array | string) => {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return { name, contentType, size: bytes.length, contentBase64: Buffer.from(bytes).toString('base64') };
};
