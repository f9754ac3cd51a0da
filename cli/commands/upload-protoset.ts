/**
 * `dogu upload-protoset`: a protoset for one gRPC data source environment. With
 * DOGU_GRPC_API_ACCESS_TOKEN set (CI) it calls the upload API (spec 4.3); otherwise it uploads as
 * the logged-in user through the management API.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { callApi } from '../api-client.ts';
import { accessToken } from './print-access-token.ts';

export const uploadTokenEnv = 'DOGU_GRPC_API_ACCESS_TOKEN';

export interface UploadProtosetOptions {
  baseUrl: string;
  project: string;
  dataSource: string;
  environment: string;
  name?: string;
  file: string;
  env: NodeJS.ProcessEnv;
}

export async function uploadProtoset(options: UploadProtosetOptions): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readFile(options.file);
  } catch (error) {
    throw new Error(`Cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`);
  }
  const token = options.env[uploadTokenEnv]?.trim();
  if (token) {
    const body = new FormData();
    body.append(
      'params',
      JSON.stringify({
        environmentId: options.environment,
        resourceId: options.dataSource,
        ...(options.name ? { name: options.name } : {}),
      }),
    );
    body.append('file', new Blob([new Uint8Array(bytes)]), basename(options.file));
    return callApi(new URL('/v1/upload_protoset', options.baseUrl).toString(), {
      method: 'POST',
      headers: { 'x-service-grpc-api-access-token': token },
      body,
    });
  }
  const { token: login } = await accessToken();
  const path = [
    'api/v1/projects',
    options.project,
    'data-sources',
    options.dataSource,
    'environments',
    options.environment,
  ]
    .map((segment, i) => (i % 2 === 0 ? segment : encodeURIComponent(segment)))
    .join('/');
  return callApi(new URL(`/${path}/file-versions`, options.baseUrl).toString(), {
    method: 'POST',
    headers: { authorization: `Bearer ${login}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      ...(options.name ? { name: options.name } : {}),
      contentBase64: bytes.toString('base64'),
    }),
  });
}
