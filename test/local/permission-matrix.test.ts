/**
 * Every role (and an outsider) × every operation: the answer is 403 exactly
 * when the role lacks the operation's right. Expectations come from the
 * rights table, so changing a role's rights changes what this test demands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { type Right, rightsOfRole } from '../../shared/domain/rights.ts';
import { type Role, roles } from '../../shared/domain/roles.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
const clients = new Map<Role | 'outsider', ReturnType<typeof apiClient>>();
const p = '/api/v1/projects/demo';
const env = `${p}/environments/development`;

interface Operation {
  name: string;
  right: Right;
  call: (
    api: ReturnType<typeof apiClient>,
    who: string,
  ) => Promise<{ status: number; body: { code?: string } }>;
}

const action = (id: string) => ({
  id,
  name: id,
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  statements: [{ title: 't', sql: 'SELECT 1 AS one' }],
});

const operations: Operation[] = [
  { name: 'list actions', right: 'view', call: (api) => api.get(`${p}/actions`) },
  { name: 'read an action', right: 'view', call: (api) => api.get(`${p}/actions/list-orders`) },
  { name: 'list data sources', right: 'view', call: (api) => api.get(`${p}/data-sources`) },
  {
    name: 'list variables',
    right: 'view',
    call: (api) => api.get(`${p}/environments/development/variables`),
  },
  {
    name: 'list secret names',
    right: 'view',
    call: (api) => api.get(`${p}/environments/development/secrets`),
  },
  { name: 'list versions', right: 'view', call: (api) => api.get(`${p}/actions/list-orders/versions`) },
  {
    name: 'diff versions',
    right: 'view',
    call: (api) => api.get(`${p}/actions/list-orders/diff?from=1&to=1`),
  },
  { name: 'list review requests', right: 'view', call: (api) => api.get(`${p}/review-requests`) },
  { name: 'list master data', right: 'view', call: (api) => api.get(`${p}/master-data`) },
  { name: 'list views', right: 'view', call: (api) => api.get(`${p}/views`) },
  {
    name: 'open a view in an environment',
    right: 'view',
    call: (api) => api.get(`${env}/views/orders`),
  },
  {
    name: 'save a view',
    right: 'edit_actions',
    call: (api, who) =>
      api.put(`${p}/views/v-${who.replaceAll('_', '-')}`, {
        id: `v-${who.replaceAll('_', '-')}`,
        name: 'v',
        definition: { kind: 'visual', layout: { id: 'r', type: 'text', content: 'x' } },
      }),
  },
  {
    name: 'publish a view version',
    right: 'publish_versions',
    call: (api) => api.put(`${p}/views/orders/publications/production`, { version: 1 }),
  },
  {
    name: 'execute',
    right: 'execute',
    call: (api) => api.execute('list-orders', { status: 'paid', limit: 1 }),
  },
  {
    name: 'save an action',
    right: 'edit_actions',
    call: (api, who) => api.put(`${p}/actions/m-${who}`, action(`m-${who}`)),
  },
  {
    name: 'save master data',
    right: 'edit_actions',
    call: (api, who) =>
      api.put(`${p}/master-data/m_${who}`, {
        id: `m_${who}`,
        name: 'x',
        entries: [{ value: 'a', label: 'A' }],
      }),
  },
  {
    name: 'copy an action',
    right: 'edit_actions',
    call: (api, who) => api.post(`${p}/actions/list-orders/copy`, { id: `c-${who}` }),
  },
  {
    name: 'set a variable',
    right: 'manage_variables',
    call: (api, who) => api.put(`${p}/environments/development/variables/v_${who}`, { value: 'x' }),
  },
  {
    name: 'set a secret',
    right: 'manage_secrets',
    call: (api, who) => api.put(`${p}/environments/development/secrets/s_${who}`, { value: 'x' }),
  },
  {
    name: 'save a data source',
    right: 'manage_data_sources',
    call: (api, who) =>
      api.put(`${p}/data-sources/d-${who}`, {
        id: `d-${who}`,
        name: 'x',
        kind: 'http',
        environments: { development: { url: 'http://127.0.0.1:9' } },
      }),
  },
  {
    name: "read a data source's catalog",
    right: 'manage_data_sources',
    call: (api) => api.get(`${p}/data-sources/demo-grpc/environments/development/catalog`),
  },
  {
    name: 'publish a version',
    right: 'publish_versions',
    call: (api) => api.put(`${p}/actions/list-orders/publications/production`, { version: 1 }),
  },
  {
    name: 'create an environment',
    right: 'manage_project',
    call: (api, who) => api.put(`${p}/environments/e-${who}`, { id: `e-${who}`, name: who }),
  },
  { name: 'list members', right: 'view', call: (api) => api.get(`${p}/members`) },
  {
    name: 'change a member role',
    right: 'manage_members',
    call: (api) => api.put(`${p}/members/usr_target`, { role: 'member' }),
  },
  {
    name: 'save an action group',
    right: 'manage_action_groups',
    call: (api, who) =>
      api.put(`${p}/action-groups/g-${who}`, { id: `g-${who}`, name: who, actionIds: ['list-orders'] }),
  },
  { name: 'read the audit log', right: 'view_audit', call: (api) => api.get(`${p}/audit-log`) },
  {
    name: 'approve a review request',
    right: 'approve_reviews',
    call: (api) => api.post(`${p}/review-requests/rev_none/approve`, {}),
  },
  // Scheduling (spec 5.3): every member views; four roles manage cron jobs; executing roles run.
  { name: 'list cron jobs', right: 'view', call: (api) => api.get(`${env}/cron-jobs`) },
  {
    name: 'preview a schedule',
    right: 'view',
    call: (api) =>
      api.post(`${env}/cron-jobs/preview`, { schedule: { kind: 'cron', expression: '0 9 * * 1' } }),
  },
  {
    name: 'create a cron job',
    right: 'manage_cron_jobs',
    call: (api, who) =>
      api.post(`${env}/cron-jobs`, {
        name: `job of ${who}`,
        schedule: { kind: 'cron', expression: '0 9 * * 1' },
        actionId: 'list-orders',
        arguments: { status: 'paid' },
      }),
  },
  { name: 'read a run history', right: 'view', call: (api) => api.get(`${env}/cron-jobs/cron_none/runs`) },
  {
    name: 'retry a run',
    right: 'manage_cron_jobs',
    call: (api) => api.post(`${env}/cron-jobs/cron_none/runs/2026-01-01T00%3A00%3A00Z/retry`, {}),
  },
  { name: 'list reservations', right: 'view', call: (api) => api.get(`${env}/reservations`) },
  {
    name: 'cancel a reservation',
    right: 'execute',
    call: (api) => api.post(`${env}/reservations/rsv_none/cancel`, {}),
  },
  { name: 'list batches', right: 'view', call: (api) => api.get(`${env}/batches`) },
  { name: 'retry a batch', right: 'execute', call: (api) => api.post(`${env}/batches/bat_none/retry`, {}) },
  {
    name: 'start a batch',
    right: 'execute',
    call: (api) => api.post(`${env}/actions/list-orders/batches`, { rows: [{ status: 'paid', limit: 1 }] }),
  },
];

beforeAll(async () => {
  dir = await tempDir('matrix');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  await loginToken(runtime);
  await runtime.services.store.createUser({
    id: 'usr_target',
    email: 'target@example.com',
    name: 'T',
    createdAt: 'now',
  });
  await runtime.services.store.putMembership({
    projectId: 'demo',
    principalId: 'usr_target',
    role: 'member',
  });
  for (const role of [...roles, 'outsider'] as const) {
    const id = `usr_${role}`;
    if (role !== 'outsider')
      await runtime.services.store.putMembership({ projectId: 'demo', principalId: id, role });
    const { token } = await runtime.services.tokens.issue(
      { kind: 'user', id, email: `${role}@example.com`, name: role },
      3600,
    );
    clients.set(role, apiClient(runtime, token));
  }
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

describe('permission matrix', () => {
  for (const operation of operations) {
    it(`${operation.name} needs '${operation.right}'`, async () => {
      const outcomes: string[] = [];
      const expected: string[] = [];
      for (const [who, api] of clients) {
        const allowed = who !== 'outsider' && rightsOfRole[who].has(operation.right);
        const response = await operation.call(api, who);
        outcomes.push(`${who}: ${response.status === 403 ? 'refused' : 'allowed'}`);
        expected.push(`${who}: ${allowed ? 'allowed' : 'refused'}`);
        if (response.status === 403) expect(response.body.code).toBe('forbidden');
        else
          expect(response.status, `${who} ${operation.name}: ${JSON.stringify(response.body)}`).toBeLessThan(
            500,
          );
      }
      expect(outcomes).toEqual(expected);
    });
  }
});
