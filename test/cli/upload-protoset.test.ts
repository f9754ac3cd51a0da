/** `dogu upload-protoset` as a subprocess against a running embedded runtime, with a token and logged in. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { connectors } from '../../shared/connectors/index.ts';
import { apiClient } from '../support/api.ts';
import { sampleFile, sampleFileConnector, sampleFileRuntime } from '../support/file-connector.ts';
import { run } from '../support/process.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
let token: string;
const dogu = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['cli/bin.js', ...args], {
    HOME: home.path,
    DOGU_URL: runtime.url,
    DOGU_GRPC_API_ACCESS_TOKEN: '',
    ...env,
  });

beforeAll(async () => {
  dataDir = await tempDir('cli-upload-data');
  home = await tempDir('cli-upload-home');
  runtime = await startTestRuntime(dataDir.path, {
    connectors: [...connectors, sampleFileConnector],
    connectorRuntimes: { 'sample-files': sampleFileRuntime },
  });
  const now = new Date().toISOString();
  await runtime.services.store.putDataSource({
    projectId: 'demo',
    id: 'sample-ds',
    name: 'Sample',
    kind: 'sample-files',
    environments: { development: {} },
    createdAt: now,
    updatedAt: now,
  });
  const api = apiClient(runtime, await loginToken(runtime));
  token = (await api.post('/api/v1/projects/demo/upload-tokens', { name: 'CI' })).body.token;
  await writeFile(join(home.path, 'good.protoset'), sampleFile('Orders'));
  await writeFile(join(home.path, 'bad.protoset'), 'not a protoset');
});
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dataDir?.remove(), home?.remove()]);
});

const target = ['--data-source', 'sample-ds', '--environment', 'development'];

// Each test starts the CLI as a process several times (a few seconds each on a loaded 2-core
// machine: four of them outran 30 s).
describe('dogu upload-protoset', { timeout: 120_000 }, () => {
  it('uploads with the token from DOGU_GRPC_API_ACCESS_TOKEN and prints the version', async () => {
    const result = await dogu(
      { DOGU_GRPC_API_ACCESS_TOKEN: token },
      'upload-protoset',
      ...target,
      '--name',
      'ci-1',
      join(home.path, 'good.protoset'),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'ci-1', services: ['Orders'], size: 21 });
  });

  it('says what is wrong with a corrupt file, a bad token and missing options', async () => {
    const corrupt = await dogu(
      { DOGU_GRPC_API_ACCESS_TOKEN: token },
      'upload-protoset',
      ...target,
      join(home.path, 'bad.protoset'),
    );
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain('422 The file is not a sample file');
    // The right token id with another secret: one character of the secret changed, to a different one
    // whatever it was (replacing it by a fixed character is the real token when it already was that).
    const [, secret, id] = /^dogu_([^.]+)\.(.+)$/.exec(token)!;
    const wrongSecret = `${secret![0] === 'A' ? 'B' : 'A'}${secret!.slice(1)}`;
    expect(wrongSecret).not.toBe(secret);
    const refused = await dogu(
      { DOGU_GRPC_API_ACCESS_TOKEN: `dogu_${wrongSecret}.${id}` },
      'upload-protoset',
      ...target,
      join(home.path, 'good.protoset'),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('401 A valid upload token is required');
    const missing = await dogu({}, 'upload-protoset', join(home.path, 'good.protoset'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--data-source <id> --environment <id>');
    const noFile = await dogu(
      { DOGU_GRPC_API_ACCESS_TOKEN: token },
      'upload-protoset',
      ...target,
      'nope.protoset',
    );
    expect(noFile.stderr).toContain('Cannot read nope.protoset: ENOENT');
  });

  it('uploads as the logged-in user without a token', async () => {
    expect((await dogu({}, 'login')).code).toBe(0);
    const result = await dogu({}, 'upload-protoset', ...target, join(home.path, 'good.protoset'));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      description: { services: ['Orders'] },
      uploadedBy: { kind: 'user' },
    });
    const versions = await runtime.services.files.versions.listFileVersions(
      'demo',
      'sample-ds',
      'development',
    );
    expect(versions.map((v) => v.uploadedBy.kind)).toEqual(['user', 'upload_token']);
  });
});
