/**
 * A bridge end to end on a real embedded runtime: registered in the project's settings, named by
 * a PostgreSQL data source's environment (`via`), trusted by the bridge through the runtime's own
 * IdP (its JWKS); runs through the execution API record the bridge id, test connection names the
 * failing hop, and the bridge's short time-out ends a run as timed_out naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { type BridgeProcess, startBridgeProcess } from '../support/bridge.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const privateHost = 'pg.bridge.internal';
const base = '/api/v1/projects/demo';
let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let bridge: BridgeProcess;
let database: TestDatabase;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  dir = await tempDir('bridge-runtime');
  database = await createTestDatabase('dogu_bridge_rt');
  // The demo goes to the same database: no embedded PostgreSQL to start for this file.
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  bridge = await startBridgeProcess({
    id: 'office',
    issuer: `${runtime.url}/idp`,
    allow: [`${privateHost}:5432`],
    hosts: { [privateHost]: '127.0.0.1' },
    timeoutMs: 1500,
  });
  api = apiClient(runtime, await loginToken(runtime));
});

afterAll(async () => {
  await bridge?.stop();
  await runtime?.close();
  await Promise.all([dir?.remove(), database?.drop()]);
});

const source = (via: string, host = privateHost) => ({
  id: 'private-db',
  name: 'Private database',
  kind: 'postgresql',
  environments: {
    development: { host, port: 5432, database: database.name, user: 'postgres', via },
  },
});

describe('a bridge in project settings', () => {
  it('registers a bridge, runs SQL through it and records the bridge id', async () => {
    const registered = await api.put(`${base}/bridges/office`, {
      name: 'Office network',
      url: bridge.url,
      certificates: [bridge.certificate],
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      id: 'office',
      lastContactAt: null,
      fingerprints: [expect.stringMatching(/^[0-9A-F:]{95}$/)],
    });

    const unknown = await api.put(`${base}/data-sources/private-db`, source('nowhere'));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({
        pointer: '#/environments/development/via',
        detail: expect.stringContaining("no bridge 'nowhere'"),
      }),
    ]);

    expect((await api.put(`${base}/data-sources/private-db`, source('office'))).status).toBe(201);
    const action = await api.put(`${base}/actions/private-count`, {
      id: 'private-count',
      name: 'Private count',
      kind: 'sql',
      dataSourceId: 'private-db',
      parameters: [{ name: 'seconds', kind: 'number' }],
      statements: [{ title: 'Answer', sql: 'SELECT pg_sleep({{ seconds }}) IS NULL AS slept, 42 AS answer' }],
    });
    expect(action.status).toBeLessThan(300);

    const run = await api.execute('private-count', { seconds: 0 });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      status: 'succeeded',
      bridgeId: 'office',
      results: [{ rows: [{ answer: 42 }] }],
    });

    const audit = await api.get(`${base}/audit-log?event=execution.run`);
    expect(audit.body.data[0]).toMatchObject({ details: { executionId: run.body.id, bridgeId: 'office' } });

    await expect
      .poll(async () => (await api.get(`${base}/bridges`)).body.data[0], { timeout: 5000 })
      .toMatchObject({ id: 'office', version: '0.1.0', timeoutMs: 1500, lastContactAt: expect.any(String) });
    expect((await api.get(base)).body.bridges).toBeUndefined();
  });

  it("ends a run at the bridge's time-out as timed_out naming the bridge", async () => {
    const run = await api.execute('private-count', { seconds: 20 });
    expect(run.body.execution ?? run.body).toMatchObject({
      status: 'timed_out',
      bridgeId: 'office',
      error: {
        code: 'execution_timeout',
        message: expect.stringContaining("Bridge 'office' ended the run at its time-out of 1500 ms"),
      },
    });
  });

  it('names the failing hop in test connection', async () => {
    const test = (connection: Record<string, unknown>) =>
      api.post(`${base}/data-sources/private-db/environments/development/test-connection`, {
        kind: 'postgresql',
        connection,
      });
    const ok = await test(source('office').environments.development);
    expect(ok.body).toMatchObject({ ok: true });

    const outside = await test({ ...source('office').environments.development, host: 'other.internal' });
    expect(outside.body).toMatchObject({
      ok: false,
      error: { hop: 'bridge', message: expect.stringContaining("is not on this bridge's allow-list") },
    });

    const wrongUser = await test({ ...source('office').environments.development, user: 'nobody_here' });
    expect(wrongUser.body).toMatchObject({ ok: false, error: { hop: 'target' } });
  });

  it('refuses to remove a bridge still in use, then removes it', async () => {
    const inUse = await api.delete(`${base}/bridges/office`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail).toContain('private-db (development)');
    expect((await api.delete(`${base}/actions/private-count`)).status).toBeLessThan(300);
    expect((await api.delete(`${base}/data-sources/private-db`)).status).toBeLessThan(300);
    expect((await api.delete(`${base}/bridges/office`)).status).toBe(204);
    expect((await api.get(`${base}/bridges`)).body.data).toEqual([]);
  });
});
