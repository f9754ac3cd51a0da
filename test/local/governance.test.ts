/**
 * Versions per environment with publish, rollback and diff; action copy;
 * per-action execution permission; review requests with a race test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Principal } from '../../shared/domain/model.ts';
import type { Role } from '../../shared/domain/roles.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let admin: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';

async function member(id: string, role: Role) {
  const principal: Principal = { kind: 'user', id, email: `${id}@example.com`, name: id };
  await runtime.services.store
    .createUser({ ...principal, createdAt: new Date().toISOString() })
    .catch(() => {});
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: id, role });
  return apiClient(runtime, (await runtime.services.tokens.issue(principal, 3600)).token);
}

const valueAction = (value: string, extra: Record<string, unknown> = {}) => ({
  id: 'which',
  name: 'Which version',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  statements: [{ title: 'v', sql: `SELECT '${value}' AS v` }],
  ...extra,
});

beforeAll(async () => {
  dir = await tempDir('govern');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  admin = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

const ran = async (client: ReturnType<typeof apiClient>, env = 'development') => {
  const run = await client.execute('which', {}, env);
  return { version: run.body.actionVersion, value: run.body.results?.[0]?.rows?.[0]?.v, status: run.status };
};

describe('versions', () => {
  it('every save is a version with author and message; unprotected environments without a publication follow the latest', async () => {
    await admin.put(`${base}/actions/which`, { ...valueAction('one'), changeMessage: 'first' });
    await admin.put(`${base}/actions/which`, { ...valueAction('two'), changeMessage: 'second' });
    const list = await admin.get(`${base}/actions/which/versions`);
    expect(list.body.latest).toBe(2);
    expect(
      list.body.versions.map((v: { version: number; message: string }) => [v.version, v.message]),
    ).toEqual([
      [2, 'second'],
      [1, 'first'],
    ]);
    expect(list.body.versions[0].author.email).toBe('admin@dogu.local');
    expect(await ran(admin, 'development')).toMatchObject({ version: 2, value: 'two' });
    // Production is protected: a save alone never reaches it.
    const refused = await admin.execute('which', {}, 'production');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'state_conflict',
      reason: 'not_published',
      actionId: 'which',
      environmentId: 'production',
      latestVersion: 2,
    });
    expect(refused.body.detail).toBe(
      "Action 'which' has no version published to environment 'production', which is protected: only " +
        "published versions run there. Someone with the right 'publish_versions' publishes a version (the " +
        "latest is 2) on the action's Versions screen or with PUT …/actions/which/publications/production " +
        '{"version": 2}; then it runs there.',
    );
  });

  it('publishing pins an environment; rollback publishes an earlier version; executions record it', async () => {
    expect((await admin.put(`${base}/actions/which/publications/production`, { version: 2 })).status).toBe(
      200,
    );
    await admin.put(`${base}/actions/which`, valueAction('three'));
    expect(await ran(admin, 'production')).toMatchObject({ version: 2, value: 'two' });
    expect(await ran(admin, 'development')).toMatchObject({ version: 3, value: 'three' });

    const rollback = await admin.put(`${base}/actions/which/publications/production`, { version: 1 });
    expect(rollback.body).toMatchObject({ version: 1, previousVersion: 2, environmentId: 'production' });
    expect(await ran(admin, 'production')).toMatchObject({ version: 1, value: 'one' });

    expect((await admin.delete(`${base}/actions/which/publications/production`)).status).toBe(204);
    expect((await ran(admin, 'production')).status).toBe(409);
  });

  it('refuses publishing a version that does not exist, or to an unknown environment; nothing changes', async () => {
    const missing = await admin.put(`${base}/actions/which/publications/production`, { version: 9 });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("Action 'which' has no version 9; the latest is 3.");
    expect((await admin.put(`${base}/actions/which/publications/staging`, { version: 1 })).status).toBe(404);
    expect((await admin.get(`${base}/actions/which/versions`)).body.publications).toEqual([]);
  });

  it('diffs two versions field by field', async () => {
    const diff = await admin.get(`${base}/actions/which/diff?from=1&to=3`);
    expect(diff.body.changes).toEqual([
      { path: 'statements[0].sql', before: "SELECT 'one' AS v", after: "SELECT 'three' AS v" },
    ]);
    expect((await admin.get(`${base}/actions/which/diff?from=1&to=x`)).status).toBe(400);
  });

  it('only roles with publish_versions may publish', async () => {
    const developer = await member('usr_dev1', 'developer');
    const refused = await developer.put(`${base}/actions/which/publications/production`, { version: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("'publish_versions'");
  });

  it('copies an action into a new one at version 1', async () => {
    const copy = await admin.post(`${base}/actions/which/copy`, { id: 'which-copy' });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ id: 'which-copy', name: 'Which version (copy)', version: 1 });
    expect(copy.body.statements).toEqual([{ title: 'v', sql: "SELECT 'three' AS v" }]);
    expect((await admin.post(`${base}/actions/which/copy`, { id: 'which-copy' })).status).toBe(409);
  });
});

describe('execution permission', () => {
  it('restricted to users and roles; others get 403 naming the action', async () => {
    await admin.put(
      `${base}/actions/which`,
      valueAction('four', {
        permission: { mode: 'restricted', users: ['lead@example.com'], roles: ['operations_lead'] },
      }),
    );
    const plain = await member('usr_plain', 'member');
    const ops = await member('usr_ops', 'operations_lead');
    const named = await member('lead', 'member');
    const refused = await plain.execute('which', {});
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      "Action 'which' is restricted: you are not among the users, roles or groups allowed to run it.",
    );
    expect((await ops.execute('which', {})).status).toBe(200);
    expect((await named.execute('which', {})).status).toBe(200);
  });

  it('javascript_action mode: a holder that is not a JavaScript action is refused, naming the field', async () => {
    const refusals: [Record<string, unknown>, string][] = [
      [
        { mode: 'javascript_action', javascriptActionId: 'which-copy' },
        "'which-copy' is a sql action, not a JavaScript action",
      ],
      [{ mode: 'javascript_action', javascriptActionId: 'nowhere' }, "no action 'nowhere' in this project"],
      [
        { mode: 'javascript_action', javascriptActionId: 'which' },
        'an action cannot hold its own permission',
      ],
      [{ mode: 'javascript_action' }, 'name the JavaScript action that may run this action'],
    ];
    for (const [permission, detail] of refusals) {
      const saved = await admin.put(`${base}/actions/which`, valueAction('five', { permission }));
      expect(saved.status).toBe(422);
      expect(saved.body.code).toBe('invalid_definition');
      expect(saved.body.errors).toEqual([{ pointer: '#/permission/javascriptActionId', detail }]);
    }
    // Nothing was saved: the permission set before still holds.
    expect((await admin.get(`${base}/actions/which`)).body.permission.mode).toBe('restricted');
  });

  it('javascript_action mode held by a JavaScript action: only that action may run it', async () => {
    // No JavaScript connector is registered yet: the holder is written underneath the API.
    const now = new Date().toISOString();
    await runtime.services.store.saveAction(
      {
        ...valueAction('script'),
        id: 'a-script',
        name: 'A script',
        kind: 'javascript',
        projectId: 'demo',
        version: 1,
        createdAt: now,
        updatedAt: now,
      } as never,
      0,
    );
    const saved = await admin.put(
      `${base}/actions/which`,
      valueAction('five', { permission: { mode: 'javascript_action', javascriptActionId: 'a-script' } }),
    );
    expect(saved.status).toBe(200);
    const run = await admin.execute('which', {});
    expect(run.status).toBe(403);
    expect(run.body.detail).toBe("Action 'which' can only be run from the JavaScript action 'a-script'.");
  });
});

describe('reviews', () => {
  const gated = {
    id: 'refund',
    name: 'Refund',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    review: { required: true, expiresInMinutes: 60 },
    parameters: [{ name: 'order_id', kind: 'number', required: true }],
    statements: [
      { title: 'Refund', sql: 'SELECT {{ order_id }}::int AS refunded, {{ currentUser.email }} AS by' },
    ],
  };

  it('a run request answers 202 with the review request; bad arguments are refused at once', async () => {
    await admin.put(`${base}/actions/refund`, gated);
    const requester = await member('usr_req', 'member');
    const bad = await requester.execute('refund', {});
    expect(bad.status).toBe(422);
    const requested = await requester.post(
      '/public/v1/projects/demo/environments/development/actions/refund/executions',
      {
        arguments: { order_id: 7 },
        comment: 'customer asked',
      },
    );
    expect(requested.status).toBe(202);
    expect(requested.body.reviewRequest).toMatchObject({
      status: 'pending',
      actionVersion: 1,
      arguments: { order_id: 7 },
      comment: 'customer asked',
    });
    expect(requested.headers.get('location')).toBe(requested.body.links.self);
    const polled = await requester.get(requested.body.links.self);
    expect(polled.body.status).toBe('pending');
  });

  it('the requester cannot approve; a member without approve_reviews cannot either', async () => {
    const requester = await member('usr_req2', 'operations_lead');
    const { body } = await requester.execute('refund', { order_id: 8 });
    const own = await requester.post(`${base}/review-requests/${body.reviewRequest.id}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body.detail).toBe('You cannot approve your own review request.');
    const plain = await member('usr_plain2', 'member');
    expect((await plain.post(`${base}/review-requests/${body.reviewRequest.id}/approve`, {})).status).toBe(
      403,
    );
  });

  it('approval runs the pinned version once, as the requester; later decisions are refused', async () => {
    const requester = await member('usr_req3', 'member');
    const { body } = await requester.execute('refund', { order_id: 9 });
    const id = body.reviewRequest.id;
    // The action changes after the request: the request still runs version 1.
    await admin.put(`${base}/actions/refund`, {
      ...gated,
      statements: [{ title: 'Refund', sql: 'SELECT -1 AS refunded' }],
    });
    const approver = await member('usr_approver', 'operations_lead');
    const approved = await approver.post(`${base}/review-requests/${id}/approve`, { comment: 'ok' });
    expect(approved.status).toBe(200);
    expect(approved.body.reviewRequest).toMatchObject({
      status: 'executed',
      decidedBy: { email: 'usr_approver@example.com' },
      decisionComment: 'ok',
    });
    expect(approved.body.execution).toMatchObject({ actionVersion: 1, via: 'review', reviewId: id });
    expect(approved.body.execution.results[0].rows).toEqual([{ refunded: 9, by: 'usr_req3@example.com' }]);
    const again = await approver.post(`${base}/review-requests/${id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('it was executed by usr_approver@example.com');
    expect((await approver.post(`${base}/review-requests/${id}/reject`, {})).status).toBe(409);
  });

  it('two approvals arriving at once run the action exactly once (counted in the database)', async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client(database.connection);
    await client.connect();
    await client.query('CREATE TABLE refunds (order_id int NOT NULL, at timestamptz DEFAULT now())');
    await admin.put(`${base}/actions/refund-write`, {
      ...gated,
      id: 'refund-write',
      statements: [
        { title: 'Refund', sql: 'INSERT INTO refunds (order_id) VALUES ({{ order_id }}) RETURNING order_id' },
      ],
    });
    const requester = await member('usr_req4', 'member');
    const approvers = await Promise.all(
      ['usr_a1', 'usr_a2', 'usr_a3', 'usr_a4'].map((id) => member(id, 'operations_lead')),
    );
    try {
      for (let round = 0; round < 5; round++) {
        const orderId = 100 + round;
        const { body } = await requester.execute('refund-write', { order_id: orderId });
        const id = body.reviewRequest.id;
        const answers = await Promise.all(
          approvers.map((a) => a.post(`${base}/review-requests/${id}/approve`, {})),
        );
        expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
        expect(answers.filter((a) => a.status === 409)).toHaveLength(approvers.length - 1);
        expect((await requester.get(`${base}/review-requests/${id}`)).body.status).toBe('executed');
        const { rows } = await client.query('SELECT count(*)::int AS n FROM refunds WHERE order_id = $1', [
          orderId,
        ]);
        expect(rows[0].n).toBe(1);
      }
    } finally {
      await client.end();
    }
  });

  it('reject, cancel and expiry', async () => {
    const requester = await member('usr_req5', 'member');
    const approver = await member('usr_approver2', 'development_lead');
    const first = (await requester.execute('refund', { order_id: 1 })).body.reviewRequest.id;
    const rejected = await approver.post(`${base}/review-requests/${first}/reject`, { comment: 'no' });
    expect(rejected.body).toMatchObject({ status: 'rejected', decisionComment: 'no' });
    const second = (await requester.execute('refund', { order_id: 2 })).body.reviewRequest.id;
    expect((await approver.post(`${base}/review-requests/${second}/cancel`, {})).status).toBe(403);
    expect((await requester.post(`${base}/review-requests/${second}/cancel`, {})).body.status).toBe(
      'cancelled',
    );

    await admin.put(`${base}/actions/refund`, { ...gated, review: { required: true, expiresInMinutes: 5 } });
    const third = (await requester.execute('refund', { order_id: 3 })).body.reviewRequest;
    const stored = await runtime.services.reviews.getReview('demo', third.id);
    await runtime.services.reviews.updateReview(
      { ...stored!, expiresAt: new Date(Date.now() - 1000).toISOString() },
      'pending',
    );
    const expired = await approver.post(`${base}/review-requests/${third.id}/approve`, {});
    expect(expired.status).toBe(409);
    expect(expired.body.detail).toContain('it expired at');
    const pending = await approver.get(`${base}/review-requests?status=pending`);
    expect(pending.body.data.map((r: { id: string }) => r.id)).not.toContain(third.id);
  });
});

describe('user groups in authorization', () => {
  it('a member in a developer group may edit actions; rights are the union over roles', async () => {
    const plain = await member('usr_grouped', 'developer');
    expect((await plain.post(`${base}/review-requests/rev_none/approve`, {})).status).toBe(403);
    await runtime.services.store.createUser({
      id: 'usr_viagroup',
      email: 'via@example.com',
      name: 'Via',
      createdAt: new Date().toISOString(),
    });
    const outsiderOnlyByGroup = apiClient(
      runtime,
      (
        await runtime.services.tokens.issue(
          { kind: 'user', id: 'usr_viagroup', email: 'via@example.com', name: 'Via' },
          600,
        )
      ).token,
    );
    expect((await outsiderOnlyByGroup.get(`${base}/actions`)).status).toBe(403);

    const ops = await admin.put(`${base}/user-groups/ops`, {
      id: 'ops',
      name: 'Ops',
      role: 'operations_lead',
      members: ['usr_grouped'],
    });
    expect(ops.status, JSON.stringify(ops.body)).toBe(201);
    const devs = await admin.put(`${base}/user-groups/devs`, {
      id: 'devs',
      name: 'Devs',
      role: 'developer',
      members: ['usr_viagroup'],
    });
    expect(devs.status, JSON.stringify(devs.body)).toBe(201);

    // The developer now also holds operations_lead through the group: approve_reviews (404: no such request).
    expect((await plain.post(`${base}/review-requests/rev_none/approve`, {})).status).toBe(404);
    // Membership through a group alone is enough to be in the project.
    const saved = await outsiderOnlyByGroup.put(`${base}/actions/by-group`, {
      ...valueAction('group'),
      id: 'by-group',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    // Restricted permission by group.
    const restricted = await admin.put(`${base}/actions/by-group`, {
      ...valueAction('group', { permission: { mode: 'restricted', groups: ['devs'] } }),
      id: 'by-group',
    });
    expect(restricted.status).toBe(200);
    expect((await outsiderOnlyByGroup.execute('by-group', {})).status).toBe(200);
    const refusedRun = await plain.execute('by-group', {});
    expect(refusedRun.status).toBe(403);
  });
});

describe('projects and environments', () => {
  it('a user creates a project and becomes its admin; environments are added; others see nothing of it', async () => {
    const creator = await member('usr_creator', 'member');
    const created = await creator.put('/api/v1/projects/shop', { id: 'shop', name: 'Shop' });
    expect(created.status).toBe(201);
    expect((await creator.put('/api/v1/projects/shop', { id: 'shop', name: 'Again' })).status).toBe(409);
    const mine = await creator.get('/api/v1/projects');
    expect(mine.body.data).toContainEqual(expect.objectContaining({ id: 'shop', role: 'admin' }));
    expect(mine.body.data).toContainEqual(expect.objectContaining({ id: 'demo', role: 'member' }));

    expect(
      (await creator.put('/api/v1/projects/shop/environments/staging', { id: 'staging', name: 'Staging' }))
        .status,
    ).toBe(201);
    expect(
      (await creator.get('/api/v1/projects/shop/environments')).body.data.map((e: { id: string }) => e.id),
    ).toEqual(['staging']);
    const stranger = await member('usr_stranger', 'member');
    expect((await stranger.get('/api/v1/projects/shop/environments')).status).toBe(403);
    expect(
      (await stranger.put('/api/v1/projects/shop/environments/prod', { id: 'prod', name: 'Prod' })).status,
    ).toBe(403);
    expect((await stranger.get('/api/v1/projects')).body.data.map((p: { id: string }) => p.id)).toEqual([
      'demo',
    ]);
  });
});

describe('protected environments', () => {
  const shop = '/api/v1/projects/shop';
  it('production is protected in new projects and the demo; others are not unless asked; PATCH changes it', async () => {
    const creator = await member('usr_creator', 'member');
    const production = await creator.put(`${shop}/environments/production`, {
      id: 'production',
      name: 'Production',
    });
    expect(production.status).toBe(201);
    expect(production.body.protected).toBe(true);
    const vault = await creator.put(`${shop}/environments/vault`, {
      id: 'vault',
      name: 'V',
      protected: true,
    });
    expect(vault.body.protected).toBe(true);
    const flags = async (client: ReturnType<typeof apiClient>, project: string) =>
      Object.fromEntries(
        (await client.get(`/api/v1/projects/${project}/environments`)).body.data.map(
          (e: { id: string; protected: boolean }) => [e.id, e.protected],
        ),
      );
    expect(await flags(creator, 'shop')).toEqual({ production: true, staging: false, vault: true });
    expect(await flags(admin, 'demo')).toEqual({ development: false, production: true });

    const changed = await creator.request('PATCH', `${shop}/environments/vault`, { protected: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: 'vault', name: 'V', protected: false });
    expect((await creator.request('PATCH', `${shop}/environments/nowhere`, { protected: true })).status).toBe(
      404,
    );
    const developer = await member('usr_dev1', 'developer');
    const refused = await developer.request('PATCH', `${base}/environments/production`, { protected: false });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("'manage_project'");
  });

  it('records stored before protection existed: production reads as protected, others do not', async () => {
    const now = new Date().toISOString();
    const { store } = runtime.services;
    await store.createProject({ id: 'legacy', name: 'Legacy', createdAt: now });
    await store.putMembership({ projectId: 'legacy', principalId: 'usr_creator', role: 'admin' });
    for (const id of ['production', 'staging']) {
      await store.createEnvironment({ projectId: 'legacy', id, name: id, createdAt: now });
    }
    const creator = await member('usr_creator', 'member');
    const listed = (await creator.get('/api/v1/projects/legacy/environments')).body.data;
    expect(listed.map((e: { id: string; protected: boolean }) => [e.id, e.protected])).toEqual([
      ['production', true],
      ['staging', false],
    ]);
  });

  it('jobs, batches, reservations and cron jobs follow it; publishing the first version lets them run', async () => {
    await admin.put(`${base}/actions/fresh`, { ...valueAction('fresh'), id: 'fresh' });
    const env = `${base}/environments/production`;
    const refusals = [
      await admin.post(`/public/v1/projects/demo/environments/production/actions/fresh/executions`, {
        arguments: {},
        async: true,
      }),
      await admin.post(`${env}/actions/fresh/batches`, { rows: [{}] }),
      await admin.post(`${env}/reservations`, {
        actionId: 'fresh',
        runAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      await admin.post(`${env}/cron-jobs`, {
        name: 'Fresh nightly',
        schedule: {
          kind: 'form',
          days: { by: 'weekday', weekdays: ['MON'] },
          times: { kind: 'fixed', times: ['02:30'] },
        },
        actionId: 'fresh',
      }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status, JSON.stringify(refusal.body)).toBe(409);
      expect(refusal.body).toMatchObject({ reason: 'not_published', actionId: 'fresh' });
    }
    // The first (and only) version can be published.
    expect((await admin.put(`${base}/actions/fresh/publications/production`, { version: 1 })).status).toBe(
      200,
    );
    const run = await admin.execute('fresh', {}, 'production');
    expect(run.status).toBe(200);
    expect(run.body.actionVersion).toBe(1);
  });

  it('an unprotected environment follows the latest again', async () => {
    await admin.request('PATCH', `${base}/environments/production`, { protected: false });
    try {
      await admin.put(`${base}/actions/fresh`, { ...valueAction('newer'), id: 'fresh' });
      // Still pinned where published; the development environment follows the latest.
      expect((await admin.execute('fresh', {}, 'production')).body.actionVersion).toBe(1);
      expect((await admin.execute('fresh', {}, 'development')).body.actionVersion).toBe(2);
      await admin.delete(`${base}/actions/fresh/publications/production`);
      expect((await admin.execute('fresh', {}, 'production')).body.actionVersion).toBe(2);
    } finally {
      await admin.request('PATCH', `${base}/environments/production`, { protected: true });
    }
    expect((await admin.execute('fresh', {}, 'production')).status).toBe(409);
  });
});

describe('effects and confirmations', () => {
  const executions = (action: string, env = 'development') =>
    `/public/v1/projects/demo/environments/${env}/actions/${action}/executions`;
  const bump = {
    id: 'bump',
    name: 'Bump',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [{ name: 'id', kind: 'number', required: true }],
    statements: [
      { title: 'Bump', sql: "UPDATE orders SET status = 'paid' WHERE id = {{ id }} RETURNING id" },
    ],
  };

  it('an effect follows from the statements unless the author sets it', async () => {
    // Left out, it is not stored (it would go stale when the statements change): it is judged per version.
    expect((await admin.put(`${base}/actions/bump`, bump)).body.effect).toBeUndefined();
    const peek = await admin.put(`${base}/actions/peek-orders`, {
      ...bump,
      id: 'peek-orders',
      statements: [{ title: 'Peek', sql: 'SELECT id FROM orders WHERE id = {{ id }}' }],
    });
    const said = await admin.put(`${base}/actions/peek-orders`, { ...peek.body, effect: 'changes' });
    expect(said.body.effect).toBe('changes');
    const asks = await admin.post(executions('peek-orders'), { arguments: { id: 7 }, via: 'console' });
    expect(asks.body.reason).toBe('confirmation_required');
    await admin.put(`${base}/actions/peek-orders`, { ...peek.body, effect: 'reads' });
    const bad = await admin.put(`${base}/actions/bad`, { ...bump, id: 'bad', effect: 'writes' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/effect']);
  });

  it('console and view runs of a changing action need confirm: true; the public API is unchanged; reads never ask', async () => {
    const args = { arguments: { id: 7 } };
    const refused = await admin.post(executions('bump'), { ...args, via: 'console' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      reason: 'confirmation_required',
      actionId: 'bump',
      actionName: 'Bump',
      environmentId: 'development',
      arguments: { id: 7 },
    });
    const job = await admin.post(executions('bump'), { ...args, via: 'console', async: true });
    expect(job.body.reason).toBe('confirmation_required');
    const batch = await admin.post(`${base}/environments/development/actions/bump/batches?via=console`, {
      rows: [{ id: 7 }],
    });
    expect(batch.status).toBe(409);
    expect(batch.body).toMatchObject({ reason: 'confirmation_required', arguments: { rows: 1 } });
    const fromView = await admin.post(executions('bump'), { ...args, source: { viewId: 'orders' } });
    expect(fromView.body.reason).toBe('confirmation_required');

    expect((await admin.post(executions('bump'), { ...args, via: 'console', confirm: true })).status).toBe(
      200,
    );
    const confirmedView = await admin.post(executions('bump'), {
      ...args,
      source: { viewId: 'orders' },
      confirm: true,
    });
    expect(confirmedView.status).toBe(200);
    expect(confirmedView.body.via).toBe('view');
    expect((await admin.post(executions('bump'), args)).status).toBe(200);
    expect((await admin.post(executions('peek-orders'), { ...args, via: 'console' })).status).toBe(200);
    expect((await admin.post(executions('bump'), { ...args, via: 'cli' })).status).toBe(400);
    expect((await admin.post(executions('bump'), { ...args, confirm: 'yes' })).status).toBe(400);
  });
});
