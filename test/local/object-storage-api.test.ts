/**
 * Object storage end to end through the local HTTP API: an S3 data source saved (secret write-only,
 * malformed role ARN refused), storage actions checked at save time and run with a file argument,
 * and an OIDC data source whose "check the trust" trades the runtime's own ID token at a local STS
 * that verifies it against the runtime's JWKS route.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { type S3Server, startS3Server } from '../connectors/s3/s3-server.ts';
import { apiClient } from '../support/api.ts';
import { startHttpServer, type TestServer } from '../support/http-server.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let s3: S3Server;
let sts: TestServer;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let refuse = false;
const claims: Record<string, unknown>[] = [];
const base = '/api/v1/projects/demo';

beforeAll(async () => {
  dir = await tempDir('object-storage-api');
  s3 = await startS3Server(['demo-files']);
  sts = await startHttpServer((request, response) => {
    const form = new URLSearchParams(request.body.toString());
    const jwks = createRemoteJWKSet(new URL(`${runtime.url}/idp/jwks`));
    jwtVerify(form.get('WebIdentityToken') ?? '', jwks, {
      issuer: `${runtime.url}/idp`,
      audience: 'dogu-storage',
    }).then(
      ({ payload }) => {
        claims.push(payload);
        response.writeHead(refuse ? 403 : 200, { 'content-type': 'text/xml' });
        response.end(
          refuse
            ? '<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>Not authorized to perform sts:AssumeRoleWithWebIdentity</Message></Error><RequestId>1</RequestId></ErrorResponse>'
            : `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>S3RVER</AccessKeyId><SecretAccessKey>S3RVER</SecretAccessKey><SessionToken>session</SessionToken><Expiration>${new Date(Date.now() + 3600_000).toISOString()}</Expiration></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`,
        );
      },
      (error: Error) => {
        response.writeHead(400, { 'content-type': 'text/xml' });
        response.end(
          `<ErrorResponse><Error><Code>InvalidIdentityToken</Code><Message>${error.message}</Message></Error></ErrorResponse>`,
        );
      },
    );
  });
  runtime = await startTestRuntime(dir.path);
  api = apiClient(runtime, await loginToken(runtime));
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([s3?.stop(), sts?.close()]);
});

const keysSource = () => ({
  id: 'files',
  name: 'Files',
  kind: 's3',
  environments: {
    development: {
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      endpoint: s3.endpoint,
      forcePathStyle: true,
    },
  },
});

describe('object storage through the API', () => {
  it('is described among the connector kinds', async () => {
    const kinds = await api.get('/api/v1/connector-kinds');
    const byKind = Object.fromEntries(kinds.body.data.map((k: { kind: string }) => [k.kind, k]));
    expect(byKind.s3).toMatchObject({ actionKind: 'storage', secretFields: ['secretAccessKey'] });
    expect(byKind.gcs).toMatchObject({ actionKind: 'storage', secretFields: ['serviceAccountKey'] });
  });

  it('saves an S3 data source without returning its secret, and refuses a malformed role ARN', async () => {
    const saved = await api.put(`${base}/data-sources/files`, keysSource());
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.environments.development).toMatchObject({
      hasSecretAccessKey: true,
      authentication: 'keys',
    });
    expect(JSON.stringify(saved.body)).not.toContain('"secretAccessKey"');
    const bad = await api.put(`${base}/data-sources/bad`, {
      ...keysSource(),
      id: 'bad',
      environments: { development: { region: 'us-east-1', authentication: 'oidc', roleArn: 'role/dogu' } },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toContain('must be an IAM role ARN');
  });

  it('refuses a GCS data source whose key, provider or service account is malformed', async () => {
    const bad = await api.put(`${base}/data-sources/archive`, {
      id: 'archive',
      name: 'Archive',
      kind: 'gcs',
      environments: {
        development: { serviceAccountKey: '{"type":"user"}' },
        production: {
          authentication: 'workload-identity',
          provider: 'projects/1/pools/p',
          serviceAccount: 'someone@gmail.com',
        },
      },
    });
    expect(bad.status).toBe(422);
    const details = Object.fromEntries(
      (bad.body.errors as { pointer: string; detail: string }[]).map((e) => [e.pointer, e.detail]),
    );
    expect(details['#/environments/development/serviceAccountKey']).toMatch(
      /must be a service account JSON key/,
    );
    expect(details['#/environments/production/provider']).toMatch(/must be projects\/<project number>/);
    expect(details['#/environments/production/serviceAccount']).toMatch(/iam\.gserviceaccount\.com/);
    expect(JSON.stringify(bad.body)).not.toContain('"type\\":\\"user');
  });

  it('checks storage actions at save time', async () => {
    const noFile = await api.put(`${base}/actions/upload`, {
      id: 'upload',
      name: 'Upload',
      kind: 'storage',
      dataSourceId: 'files',
      operation: 'upload',
      bucket: 'demo-files',
      objectKey: 'in/{{ name }}',
      parameters: [{ name: 'name', kind: 'text', required: true }],
    });
    expect(noFile.status).toBe(422);
    expect(JSON.stringify(noFile.body.errors)).toContain('an upload needs the file parameter');
    const badMethod = await api.put(`${base}/actions/sign`, {
      id: 'sign',
      name: 'Sign',
      kind: 'storage',
      dataSourceId: 'files',
      operation: 'signed-url',
      bucket: 'demo-files',
      objectKey: 'a',
      method: 'DELETE',
    });
    expect(badMethod.status).toBe(422);
    expect(JSON.stringify(badMethod.body.errors)).toContain('must be GET or PUT');
  });

  it('uploads a file argument and downloads it through executions', async () => {
    const upload = await api.put(`${base}/actions/upload`, {
      id: 'upload',
      name: 'Upload',
      kind: 'storage',
      dataSourceId: 'files',
      operation: 'upload',
      bucket: 'demo-files',
      objectKey: 'in/{{ name }}',
      fileParameter: 'content',
      parameters: [
        { name: 'name', kind: 'text', required: true },
        { name: 'content', kind: 'file', required: true },
      ],
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const download = await api.put(`${base}/actions/download`, {
      id: 'download',
      name: 'Download',
      kind: 'storage',
      dataSourceId: 'files',
      operation: 'download',
      bucket: 'demo-files',
      objectKey: 'in/{{ name }}',
      parameters: [{ name: 'name', kind: 'text', required: true }],
    });
    expect(download.status, JSON.stringify(download.body)).toBe(201);

    const uploaded = await api.execute('upload', {
      name: 'hello.txt',
      content: {
        name: 'hello.txt',
        contentType: 'text/plain',
        contentBase64: Buffer.from('hi there').toString('base64'),
      },
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.results[0].rows[0]).toMatchObject({ objectKey: 'in/hello.txt', size: 8 });
    const missing = await api.execute('upload', { name: 'x.txt' });
    expect(missing.status).toBe(422);

    const downloaded = await api.execute('download', { name: 'hello.txt' });
    expect(downloaded.body.results[0]).toMatchObject({ status: 'succeeded', value: 'hi there' });
    const climbing = await api.execute('download', { name: '../other/secret.txt' });
    expect(climbing.status).toBe(422);
    expect(climbing.body.detail).toBe(
      "Download: The object key 'in/../other/secret.txt' contains a '.' or '..' segment: a key cannot climb out of its folder.",
    );
  });

  it('checks the trust of an OIDC data source with the runtime’s own token', async () => {
    const saved = await api.put(`${base}/data-sources/federated`, {
      id: 'federated',
      name: 'Federated files',
      kind: 's3',
      environments: {
        development: {
          region: 'ap-northeast-1',
          authentication: 'oidc',
          audience: 'dogu-storage',
          roleArn: 'arn:aws:iam::123456789012:role/dogu-demo',
          endpoint: s3.endpoint,
          forcePathStyle: true,
          stsEndpoint: sts.url,
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const path = `${base}/data-sources/federated/environments/development/test-connection`;
    const ok = await api.post(path, {});
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ ok: true });
    expect(claims.at(-1)).toMatchObject({
      sub: 'project:demo:environment:development',
      aud: 'dogu-storage',
      project_id: 'demo',
      environment_id: 'development',
      tenant_subdomain: 'local',
    });
    // A run trades a token too (the credentials are then kept for the environment).
    const listAction = await api.put(`${base}/actions/federated-list`, {
      id: 'federated-list',
      name: 'Federated list',
      kind: 'storage',
      dataSourceId: 'federated',
      operation: 'list',
      bucket: 'demo-files',
    });
    expect(listAction.status, JSON.stringify(listAction.body)).toBe(201);
    const exchanges = claims.length;
    const listed = await api.execute('federated-list', {});
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.results[0]).toMatchObject({ status: 'succeeded' });
    expect(claims.length).toBe(exchanges + 1);
    expect(claims.at(-1)).toMatchObject({ sub: 'project:demo:environment:development' });
    refuse = true;
    const refused = await api.post(path, {});
    expect(refused.body.ok).toBe(false);
    expect(refused.body.error.message).toMatch(/^Step 2 \(AWS STS AssumeRoleWithWebIdentity\): AccessDenied/);
    refuse = false;
  });
});
