/**
 * Decision 0026: a version not published to the environment it runs in, whose text reads secrets, runs
 * only if its author may manage secrets. A developer cannot read production secrets with a draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const canary = 'prod-token-canary-5b1e';
const base = '/api/v1/projects/demo';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let admin: ReturnType<typeof apiClient>;
let developer: ReturnType<typeof apiClient>;
beforeAll(async () => {
  dir = await tempDir('drafts');
  runtime = await startTestRuntime(dir.path);
  admin = apiClient(runtime, await loginToken(runtime));
  const dev = { kind: 'user' as const, id: 'usr_dev', email: 'dev@example.com', name: 'Dev' };
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: dev.id, role: 'developer' });
  developer = apiClient(runtime, (await runtime.services.tokens.issue(dev, 600)).token);
  // The rule is about environments that run unpublished versions: in a protected one none runs at all.
  await admin.request('PATCH', '/api/v1/projects/demo/environments/production', { protected: false });
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const peek = (sql: string) => ({
  id: 'peek',
  name: 'Peek',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  statements: [{ title: 'Peek', sql }],
});

describe('drafts that read secrets', () => {
  it('are refused for a developer who may not manage secrets, until published', async () => {
    for (const environment of ['development', 'production']) {
      const put = await admin.put(`${base}/environments/${environment}/secrets/prod_token`, {
        value: canary,
      });
      expect(put.status).toBe(201);
    }
    const saved = await developer.put(
      `${base}/actions/peek`,
      peek('SELECT CAST({{ secrets.prod_token }} AS text) AS v'),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);

    for (const environment of ['production', 'development']) {
      const refused = await developer.execute('peek', {}, environment);
      expect(refused.status, environment).toBe(409);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body.detail).toBe(
        `Version 1 of action 'peek' reads {{ secrets.prod_token }} but is not published to environment '${environment}', ` +
          `and its author (dev@example.com) may not manage secrets. It runs there once someone with the right ` +
          `'publish_versions' publishes it to '${environment}'.`,
      );
      expect(JSON.stringify(refused.body)).not.toContain(canary);
    }
    // Nor as a job or a batch, and not for anyone else either: the author's rights decide.
    const production = '/public/v1/projects/demo/environments/production/actions/peek/executions';
    expect((await developer.post(production, { arguments: {}, async: true })).status).toBe(409);
    expect(
      (await admin.post(`${base}/environments/production/actions/peek/batches`, { rows: [{}] })).status,
    ).toBe(409);
    expect((await admin.execute('peek', {}, 'production')).status).toBe(409);

    // Published by someone who may publish (and has read the SQL): it runs there.
    expect((await admin.put(`${base}/actions/peek/publications/production`, { version: 1 })).status).toBe(
      200,
    );
    const published = await developer.execute('peek', {}, 'production');
    expect(published.status).toBe(200);
    expect(published.body.results[0].rows).toEqual([{ v: canary }]);
    expect((await developer.execute('peek', {}, 'development')).status).toBe(409);
  });

  it('run unpublished when their author may manage secrets, and drafts without secrets run as before', async () => {
    const byAdmin = await admin.put(`${base}/actions/peek`, {
      ...peek('SELECT length({{ secrets.prod_token }}) AS n'),
      version: 1,
    });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect((await developer.execute('peek', {}, 'development')).body.results[0].rows).toEqual([
      { n: canary.length },
    ]);

    const plain = await developer.put(`${base}/actions/plain`, { ...peek('SELECT 1 AS one'), id: 'plain' });
    expect(plain.status).toBe(201);
    expect((await developer.execute('plain', {}, 'production')).status).toBe(200);
  });

  it('hold for an authentication action called by another action, which runs its published version', async () => {
    // The demo pins what it seeded in production; here production follows the latest.
    await admin.delete(`${base}/actions/demo-api-login/publications/production`);
    const login = (await admin.get(`${base}/actions/demo-api-login`)).body;
    const { createdAt: _c, updatedAt: _u, updatedBy: _b, projectId: _p, ...definition } = login;
    const edited = await developer.put(`${base}/actions/demo-api-login`, {
      ...definition,
      headers: [{ key: 'X-Peek', value: '{{ secrets.prod_token }}' }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const refused = await admin.execute('exchange-rates', {}, 'production');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(`Version ${edited.body.version} of action 'demo-api-login' reads`);

    // Production pinned to the version before the edit: the edit does not reach it.
    await admin.put(`${base}/actions/demo-api-login/publications/production`, { version: login.version });
    expect((await admin.execute('exchange-rates', {}, 'production')).status).toBe(200);
  });
});
