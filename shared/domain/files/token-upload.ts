/**
 * The protoset upload API (spec 4.3): a file for one data source environment of the upload
 * token's project, kept as a new version. Everything is checked before anything is stored.
 */
import * as z from 'zod';
import type { AuditLog, RequestOrigin } from '../audit.ts';
import { DoguError, notFound } from '../errors.ts';
import { parseExactJson } from '../exact-numbers.ts';
import type { DefinitionReader } from '../ports.ts';
import { readableIssues } from '../readable-issues.ts';
import type { UploadToken } from './model.ts';
import { checkVersionName, type FileDeps, keepFileVersion } from './versions.ts';

export interface TokenUploadDeps extends FileDeps {
  definitions: DefinitionReader;
  audit: AuditLog;
}

const paramsSchema = z.object({
  environmentId: z.string({ error: 'is required (a string)' }).min(1, 'must not be empty'),
  resourceId: z.string({ error: 'is required (a string: the data source id)' }).min(1, 'must not be empty'),
  name: z.string({ error: 'must be a string' }).nullish(),
});

/** The `params` part: a JSON object; 422 naming each bad field. */
export function parseUploadParams(text: string | undefined) {
  if (text === undefined) {
    throw new DoguError('argument_invalid', "The multipart part 'params' is missing.", {
      errors: [{ pointer: '#/params', detail: 'missing' }],
    });
  }
  const parsedJson = parseExactJson(text);
  if (!parsedJson.ok) {
    const { inexact } = parsedJson;
    throw new DoguError(
      'argument_invalid',
      inexact
        ? `#/params${inexact.pointer}: ${inexact.literal} ${inexact.problem}`
        : "The multipart part 'params' is not valid JSON.",
      {
        errors: [
          inexact
            ? { pointer: `#/params${inexact.pointer}`, detail: `${inexact.literal} ${inexact.problem}` }
            : { pointer: '#/params', detail: 'not valid JSON' },
        ],
      },
    );
  }
  const json = parsedJson.value;
  const parsed = paramsSchema.safeParse(json);
  if (!parsed.success) {
    const errors = readableIssues(parsed.error.issues, json, '#/params').map((error) =>
      error.pointer === '#/params' ? { pointer: error.pointer, detail: 'must be a JSON object' } : error,
    );
    throw new DoguError(
      'argument_invalid',
      errors.length === 1
        ? `${errors[0]!.pointer}: ${errors[0]!.detail}`
        : `${errors.length} params are invalid.`,
      { errors },
    );
  }
  return { ...parsed.data, name: checkVersionName(parsed.data.name, '#/params/name') };
}

export async function uploadWithToken(
  deps: TokenUploadDeps,
  input: {
    token: UploadToken;
    params: ReturnType<typeof parseUploadParams>;
    bytes: Uint8Array;
    /** The file was longer than the bytes read (cut at the parser's limit). */
    truncated?: boolean;
    origin: RequestOrigin;
  },
) {
  const { token, params } = input;
  const projectId = token.projectId;
  const record = async (outcome: 'succeeded' | 'failed', details: Record<string, unknown>) =>
    deps.audit.append({
      id: deps.ids.next('aud'),
      projectId,
      at: deps.clock.now().toISOString(),
      actor: { kind: 'upload_token', id: token.id, email: token.createdBy.email },
      origin: input.origin,
      event: 'file_version.upload',
      target: { type: 'data_source', id: params.resourceId },
      environmentId: params.environmentId,
      outcome,
      details: { tokenName: token.name, ...details },
    });
  let version: Awaited<ReturnType<typeof keepFileVersion>>;
  try {
    // A data source or environment of another project is as unknown as a missing one.
    const dataSource = await deps.definitions.getDataSource(projectId, params.resourceId);
    if (!dataSource) throw notFound('Data source', params.resourceId);
    const environment = await deps.definitions.getEnvironment(projectId, params.environmentId);
    if (!environment) throw notFound('Environment', params.environmentId);
    version = await keepFileVersion(deps, {
      dataSource,
      environmentId: environment.id,
      ...(params.name ? { name: params.name } : {}),
      bytes: input.bytes,
      ...(input.truncated ? { truncated: true } : {}),
      uploadedBy: { kind: 'upload_token', id: token.id, name: token.name },
    });
  } catch (error) {
    const code = error instanceof DoguError ? error.code : 'internal_error';
    await record('failed', { code }).catch(() => {});
    throw error;
  }
  // The version is kept: a lost audit entry must not turn the upload into a failure.
  await record('succeeded', { versionId: version.id, size: version.size, sha256: version.sha256 }).catch(
    () => {},
  );
  return version;
}
