/**
 * File versions and the upload API (spec 2.10, 4.3) against a real embedded runtime, with a test
 * kind that keeps files as the gRPC kind keeps protosets (test/support/file-connector.ts).
 */
import { readdir } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { connectors } from '../../shared/connectors/index.ts';
import { putDataSource } from '../../shared/domain/manage/data-sources.ts';
import { apiClient } from '../support/api.ts';
import {
  sampleFile,
  sampleFileConnector,
  sampleFileLimit,
  sampleFileRuntime,
} from '../support/file-connector.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const project = 'demo';
const env = 'development';
const dataSourceId = 'sample-ds';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let api: ReturnType<typeof apiClient>;
let login: string;
let uploadToken: string;
let uploadTokenId: string;

function form(params: unknown, file?: Uint8Array, filename = 'api.protoset') {
  const body = new FormData();
  body.append('params', typeof params === 'string' ? params : JSON.stringify(params));
  if (file) body.append('file', new Blob([file]), filename);
  return body;
}

/** `null`: no token header at all. */
async function upload(body: FormData, token: string | null = uploadToken) {
  const response = await fetch(`${runtime.url}/v1/upload_protoset`, {
    method: 'POST',
    headers: token === null ? {} : { 'X-Service-Grpc-Api-Access-Token': token },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: text ? JSON.parse(text) : undefined,
  };
}

const filesPath = (ds = dataSourceId, environment = env) =>
  `/api/v1/projects/${project}/data-sources/${ds}/environments/${environment}`;

async function blobFiles(): Promise<string[]> {
  const root = join(dir.path, 'blobs', 'files', project, dataSourceId, env);
  return readdir(root).catch(() => []);
}

beforeAll(async () => {
  dir = await tempDir('protoset');
  runtime = await startTestRuntime(dir.path, {
    connectors: [...connectors, sampleFileConnector],
    connectorRuntimes: { 'sample-files': sampleFileRuntime },
  });
  login = await loginToken(runtime);
  api = apiClient(runtime, login);
  const now = new Date().toISOString();
  // The test kind is not in the request schemas (those come from the registry): stored directly.
  await runtime.services.store.putDataSource({
    projectId: project,
    id: dataSourceId,
    name: 'Sample files',
    kind: 'sample-files',
    environments: { development: {}, production: {} },
    createdAt: now,
    updatedAt: now,
  });
  await runtime.services.store.putAction({
    projectId: project,
    id: 'read-sample',
    name: 'Read the sample',
    kind: 'sample-read',
    dataSourceId,
    parameters: [],
    version: 1,
    createdAt: now,
    updatedAt: now,
  });
  const created = await api.post(`/api/v1/projects/${project}/upload-tokens`, { name: 'CI' });
  expect(created.status).toBe(201);
  uploadToken = created.body.token;
  uploadTokenId = created.body.id;
});

afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

describe('upload tokens', () => {
  it('shows a token once; the list has its name, prefix and times but never the token or its hash', async () => {
    expect(uploadToken).toMatch(/^dogu_[A-Za-z0-9_-]{43}\.ut_[0-9a-f]{32}$/);
    const listed = await api.get(`/api/v1/projects/${project}/upload-tokens`);
    expect(listed.status).toBe(200);
    const [shown] = listed.body.data.filter((t: { id: string }) => t.id === uploadTokenId);
    expect(shown).toMatchObject({ name: 'CI', prefix: uploadToken.slice(0, 11), lastUsedAt: null });
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(uploadToken.slice(5, 48));
    expect(text).not.toContain('secretHash');
  });

  it('refuses a bad name and other people', async () => {
    const bad = await api.post(`/api/v1/projects/${project}/upload-tokens`, { name: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe('#/name');
  });
});

describe('POST /v1/upload_protoset', () => {
  it('keeps an upload as a version and the data source follows the latest', async () => {
    const first = await upload(
      form({ environmentId: env, resourceId: dataSourceId, name: 'v1' }, sampleFile('Orders')),
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      name: 'v1',
      dataSourceId,
      environmentId: env,
      size: sampleFile('Orders').byteLength,
      services: ['Orders'],
    });
    expect(first.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    const second = await upload(
      form({ environmentId: env, resourceId: dataSourceId }, sampleFile('Orders', 'Users')),
    );
    expect(second.status).toBe(201);
    expect(second.body.name).toBeNull();

    const listed = await api.get(`${filesPath()}/file-versions`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((v: { id: string }) => v.id)).toEqual([
      second.body.versionId,
      first.body.versionId,
    ]);
    expect(listed.body).toMatchObject({ pinnedVersionId: null, activeVersionId: second.body.versionId });
    expect(listed.body.data[0].description).toEqual({ services: ['Orders', 'Users'] });
    expect(listed.body.data[0].uploadedBy).toEqual({ kind: 'upload_token', id: uploadTokenId, name: 'CI' });
    // The other environment has versions of its own: none.
    expect((await api.get(`${filesPath(dataSourceId, 'production')}/file-versions`)).body.data).toEqual([]);

    const run = await api.execute('read-sample', {});
    expect(run.status).toBe(200);
    expect(run.body.results[0].rows[0]).toEqual({
      versionId: second.body.versionId,
      text: 'SAMPLE\nservice Orders\nservice Users',
    });
    const tokens = await api.get(`/api/v1/projects/${project}/upload-tokens`);
    expect(tokens.body.data.find((t: { id: string }) => t.id === uploadTokenId).lastUsedAt).toEqual(
      expect.any(String),
    );
  });

  it('pins a version, refuses deleting it, and follows the latest again after unpinning', async () => {
    const versions = (await api.get(`${filesPath()}/file-versions`)).body.data as { id: string }[];
    const oldest = versions.at(-1)!.id;
    const pinned = await api.put(`${filesPath()}/file-pin`, { versionId: oldest });
    expect(pinned.status).toBe(200);
    expect(
      (await api.get(`/api/v1/projects/${project}/data-sources/${dataSourceId}`)).body.environments[env],
    ).toEqual({
      sampleVersionId: oldest,
    });
    expect((await api.execute('read-sample', {})).body.results[0].rows[0].versionId).toBe(oldest);
    const refused = await api.delete(`${filesPath()}/file-versions/${oldest}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('state_conflict');
    expect((await api.put(`${filesPath()}/file-pin`, { versionId: 'fv_nope' })).status).toBe(404);

    expect((await api.put(`${filesPath()}/file-pin`, { versionId: null })).status).toBe(200);
    expect((await api.execute('read-sample', {})).body.results[0].rows[0].versionId).toBe(versions[0]!.id);
    const before = await blobFiles();
    expect((await api.delete(`${filesPath()}/file-versions/${oldest}`)).status).toBe(204);
    expect(await blobFiles()).toEqual(before.filter((f) => f !== oldest));
    expect((await api.delete(`${filesPath()}/file-versions/${oldest}`)).status).toBe(404);
  });

  it('answers every missing, unknown or malformed token with the same 401', async () => {
    const body = () => form({ environmentId: env, resourceId: dataSourceId }, sampleFile('A'));
    const wrongSecret = `dogu_${'A'.repeat(43)}.${uploadTokenId}`;
    const answers = [
      await upload(body(), null),
      await upload(body(), ''),
      await upload(body(), 'not-a-token'),
      await upload(body(), wrongSecret),
      await upload(body(), `Bearer ${uploadToken}`),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.contentType).toContain('application/problem+json');
      const { instance: _instance, ...rest } = answer.body;
      const { instance: _first, ...first } = answers[0]!.body;
      expect(rest).toEqual(first);
    }
  });

  it('refuses a data source or environment that is not in the token’s project, and kinds without files', async () => {
    await runtime.services.store.createProject({
      id: 'other',
      name: 'Other',
      createdAt: new Date().toISOString(),
    });
    await runtime.services.store.createEnvironment({
      projectId: 'other',
      id: 'staging',
      name: 'Staging',
      createdAt: new Date().toISOString(),
    });
    await runtime.services.store.putDataSource({
      projectId: 'other',
      id: 'other-ds',
      name: 'Other',
      kind: 'sample-files',
      environments: { staging: {} },
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    const file = sampleFile('A');
    const otherProject = await upload(form({ environmentId: 'staging', resourceId: 'other-ds' }, file));
    expect(otherProject.status).toBe(404);
    expect(otherProject.body.detail).toContain("Data source 'other-ds'");
    const noEnvironment = await upload(form({ environmentId: 'staging', resourceId: dataSourceId }, file));
    expect(noEnvironment.status).toBe(404);
    expect(noEnvironment.body.detail).toContain("Environment 'staging'");
    const noFiles = await upload(form({ environmentId: env, resourceId: 'demo-postgres' }, file));
    expect(noFiles.status).toBe(422);
    expect(noFiles.body.errors[0].pointer).toBe('#/resourceId');
    const badParams = await upload(form({ environmentId: 7 }, file));
    expect(badParams.status).toBe(422);
    expect(badParams.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/params/environmentId',
      '#/params/resourceId',
    ]);
    expect((await upload(form('{not json', file))).status).toBe(422);
    const noFile = await upload(form({ environmentId: env, resourceId: dataSourceId }));
    expect(noFile.status).toBe(400);
    const json = await fetch(`${runtime.url}/v1/upload_protoset`, {
      method: 'POST',
      headers: { 'X-Service-Grpc-Api-Access-Token': uploadToken, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
  });

  it('stores nothing of an empty or corrupt file (no blob, no record)', async () => {
    const blobsBefore = await blobFiles();
    const versionsBefore = (await api.get(`${filesPath()}/file-versions`)).body.data;
    const corrupt = await upload(
      form({ environmentId: env, resourceId: dataSourceId }, new TextEncoder().encode('\u0000\u0001garbage')),
    );
    expect(corrupt.status).toBe(422);
    expect(corrupt.body.detail).toContain('not a sample file');
    const empty = await upload(form({ environmentId: env, resourceId: dataSourceId }, new Uint8Array()));
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toContain('empty');
    expect(await blobFiles()).toEqual(blobsBefore);
    expect((await api.get(`${filesPath()}/file-versions`)).body.data).toEqual(versionsBefore);
  });

  it('refuses a file over the limit with 413 and answers the next request on the same connection', async () => {
    const blobsBefore = await blobFiles();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets: Socket[] = [];
    const send = async (body: FormData) => {
      const prepared = new Request('http://x/', { method: 'POST', body });
      const bytes = Buffer.from(await prepared.arrayBuffer());
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${runtime.url}/v1/upload_protoset`,
          {
            method: 'POST',
            agent,
            headers: {
              'content-type': prepared.headers.get('content-type')!,
              'content-length': String(bytes.length),
              'x-service-grpc-api-access-token': uploadToken,
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          },
        );
        req.on('socket', (s) => sockets.push(s));
        req.on('error', reject);
        req.end(bytes);
      });
    };
    const big = new Uint8Array(sampleFileLimit + 1).fill(65);
    const tooLarge = await send(form({ environmentId: env, resourceId: dataSourceId }, big));
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).code).toBe('payload_too_large');
    const next = await send(form({ environmentId: env, resourceId: dataSourceId }, sampleFile('After')));
    expect(next.status).toBe(201);
    expect(sockets).toHaveLength(2);
    expect(sockets[1]).toBe(sockets[0]);
    agent.destroy();
    expect((await blobFiles()).length).toBe(blobsBefore.length + 1);
  });

  it('stops accepting a rotated token at once and a revoked one', async () => {
    const rotated = await api.post(`/api/v1/projects/${project}/upload-tokens/${uploadTokenId}/rotate`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(uploadToken);
    const body = () => form({ environmentId: env, resourceId: dataSourceId }, sampleFile('R'));
    expect((await upload(body(), uploadToken)).status).toBe(401);
    expect((await upload(body(), rotated.body.token)).status).toBe(201);
    expect((await api.delete(`/api/v1/projects/${project}/upload-tokens/${uploadTokenId}`)).status).toBe(204);
    expect((await upload(body(), rotated.body.token)).status).toBe(401);
    expect((await api.get(`/api/v1/projects/${project}/upload-tokens`)).body.data).toEqual([]);
    uploadToken = rotated.body.token;
  });

  it('audits uploads and token changes without the token', async () => {
    const { entries } = await runtime.services.audit.list({ projectId: project, limit: 1000 });
    const events = entries.map((e) => e.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'upload_token.create',
        'upload_token.rotate',
        'upload_token.revoke',
        'file_version.upload',
        'file_version.pin',
        'file_version.delete',
      ]),
    );
    const upload = entries.find((e) => e.event === 'file_version.upload' && e.outcome === 'succeeded')!;
    expect(upload.actor).toMatchObject({ kind: 'upload_token', id: uploadTokenId });
    expect(JSON.stringify(entries)).not.toContain(uploadToken.slice(5, 48));
  });
});

describe('console upload and connection test', () => {
  it('uploads base64 JSON, checks it the same way, and hands the files to a connection test', async () => {
    const fresh = 'production';
    const before = await api.post(`${filesPath(dataSourceId, fresh)}/test-connection`, {});
    expect(before.body).toMatchObject({ ok: false, error: { message: 'No sample file has been uploaded.' } });
    const uploaded = await api.post(`${filesPath(dataSourceId, fresh)}/file-versions`, {
      name: 'from console',
      contentBase64: Buffer.from(sampleFile('Console')).toString('base64'),
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ name: 'from console', description: { services: ['Console'] } });
    expect(uploaded.body.uploadedBy.kind).toBe('user');
    const corrupt = await api.post(`${filesPath(dataSourceId, fresh)}/file-versions`, {
      contentBase64: Buffer.from('nope').toString('base64'),
    });
    expect(corrupt.status).toBe(422);
    expect(
      (await api.post(`${filesPath(dataSourceId, fresh)}/file-versions`, { contentBase64: '%%%' })).status,
    ).toBe(422);
    const after = await api.post(`${filesPath(dataSourceId, fresh)}/test-connection`, {});
    expect(after.body.ok).toBe(true);
    expect((await api.get(`${filesPath('demo-postgres')}/file-versions`)).status).toBe(422);
    expect((await api.get(`${filesPath('missing')}/file-versions`)).status).toBe(404);
  });
});

describe('the data source around its files', () => {
  it('keeps the pinned version when a save leaves it out, and deletes its files with it', async () => {
    const admin = await runtime.services.tokens.verify(login);
    const input = { id: 'gone-ds', name: 'Gone', kind: 'sample-files', environments: { development: {} } };
    await putDataSource(runtime.services, admin, project, input);
    const uploaded = await api.post(`${filesPath('gone-ds')}/file-versions`, {
      contentBase64: Buffer.from(sampleFile('Gone')).toString('base64'),
    });
    expect(uploaded.status).toBe(201);
    expect((await api.put(`${filesPath('gone-ds')}/file-pin`, { versionId: uploaded.body.id })).status).toBe(
      200,
    );
    const saved = await putDataSource(runtime.services, admin, project, input);
    expect(saved.dataSource.environments.development).toEqual({ sampleVersionId: uploaded.body.id });

    const blobDir = join(dir.path, 'blobs', 'files', project, 'gone-ds', env);
    expect(await readdir(blobDir)).toEqual([uploaded.body.id]);
    expect((await api.delete(`/api/v1/projects/${project}/data-sources/gone-ds`)).status).toBe(204);
    expect(await readdir(blobDir)).toEqual([]);
    expect(await runtime.services.files.versions.listFileVersions(project, 'gone-ds', env)).toEqual([]);
  });
});
