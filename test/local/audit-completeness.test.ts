/**
 * Each operation leaves exactly one audit entry naming actor, origin, event,
 * target and outcome; secrets never appear; login is recorded. And no
 * mutating route escapes the audit map.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import { auditedRoutes, unauditedMutations } from '../../shared/http/audit-recording.ts';
import { routes } from '../../shared/http/routes.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const p = '/api/v1/projects/demo';

async function entriesSince(since: string): Promise<AuditEntry[]> {
  const { entries } = await runtime.services.audit.list({ projectId: 'demo', from: since, limit: 1000 });
  return entries;
}

beforeAll(async () => {
  dir = await tempDir('audit');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  api = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

describe('audit coverage', () => {
  it('every mutating route is audited or deliberately not', () => {
    const mutating = routes.filter((r) => r.method !== 'GET' && r.path !== '$default').map((r) => r.name);
    const missing = mutating.filter((name) => !(name in auditedRoutes) && !unauditedMutations.has(name));
    expect(missing).toEqual([]);
  });
});

/**
 * A time after every entry so far: the entries of the test before were stamped before it was
 * answered, so 3 ms later they are all before `since` (entries are compared by millisecond).
 */
async function freshSince(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 3));
  return new Date(Date.now() - 1).toISOString();
}

describe('audit entries', () => {
  const operations: [string, string, () => Promise<{ status: number }>][] = [
    [
      'variable.save',
      'region',
      () => api.put(`${p}/environments/development/variables/region`, { value: 'jp' }),
    ],
    [
      'secret.save',
      'token',
      () => api.put(`${p}/environments/development/secrets/token`, { value: 'sk-top-secret' }),
    ],
    [
      'action.save',
      'audited',
      () =>
        api.put(`${p}/actions/audited`, {
          id: 'audited',
          name: 'Audited',
          kind: 'sql',
          dataSourceId: 'demo-postgres',
          statements: [{ title: 't', sql: 'SELECT length({{ secrets.token }}) AS n' }],
        }),
    ],
    ['execution.run', 'audited', () => api.execute('audited', {})],
    [
      'action.publish',
      'audited',
      () => api.put(`${p}/actions/audited/publications/production`, { version: 1 }),
    ],
    ['action.copy', 'audited', () => api.post(`${p}/actions/audited/copy`, { id: 'audited-copy' })],
    ['action.delete', 'audited-copy', () => api.delete(`${p}/actions/audited-copy`)],
    ['secret.delete', 'token', () => api.delete(`${p}/environments/development/secrets/token`)],
  ];

  for (const [event, target, run] of operations) {
    it(`${event} leaves exactly one entry`, async () => {
      const since = await freshSince();
      const response = await run();
      expect(response.status).toBeLessThan(300);
      const entries = (await entriesSince(since)).filter((e) => e.event !== 'login');
      expect(entries.map((e) => e.event)).toEqual([event]);
      const [entry] = entries;
      expect(entry).toMatchObject({
        projectId: 'demo',
        actor: { kind: 'user', email: 'admin@dogu.local' },
        target: { id: target },
        outcome: 'succeeded',
        origin: { sourceIp: expect.stringMatching(/127\.0\.0\.1/) },
      });
      expect(entry!.origin!.userAgent).not.toBe('');
      expect(JSON.stringify(entry)).not.toContain('sk-top-secret');
    });
  }

  it('an execution entry names the execution, version and status', async () => {
    const since = await freshSince();
    const run = await api.execute('list-orders', { status: 'paid', limit: 1 });
    const [entry] = await entriesSince(since);
    expect(entry).toMatchObject({
      event: 'execution.run',
      environmentId: 'development',
      details: { executionId: run.body.id, status: 'succeeded', actionVersion: 1 },
    });
  });

  it('refusals and failures are recorded too, once each', async () => {
    const outsider = apiClient(
      runtime,
      (
        await runtime.services.tokens.issue(
          { kind: 'user', id: 'usr_o', email: 'o@example.com', name: 'O' },
          600,
        )
      ).token,
    );
    const since = await freshSince();
    expect((await outsider.execute('list-orders', { status: 'paid' })).status).toBe(403);
    expect((await api.execute('list-orders', { limit: 'x' })).status).toBe(422);
    const entries = await entriesSince(since);
    expect(entries.map((e) => [e.actor.email, e.outcome, e.details?.code])).toEqual([
      ['admin@dogu.local', 'failed', 'argument_invalid'],
      ['o@example.com', 'refused', 'forbidden'],
    ]);
  });

  it('reads are not recorded; login is', async () => {
    const since = await freshSince();
    await api.get(`${p}/actions`);
    await fetch(`${runtime.url}/local/v1/login`, { method: 'POST' });
    const entries = await entriesSince(since);
    expect(entries.map((e) => e.event)).toEqual(['login']);
  });

  it('the audit log API lists with filters and exports', async () => {
    const list = await api.get(`${p}/audit-log?event=secret.&limit=10`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: AuditEntry) => e.event).sort()).toEqual(['secret.delete', 'secret.save']);
    const csv = await fetch(`${runtime.url}${p}/audit-log/export?format=csv&event=action.`, {
      headers: { authorization: `Bearer ${await loginToken(runtime)}` },
    });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain('action.publish');
  });
});
