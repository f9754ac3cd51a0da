/**
 * Members, user groups and action groups on a real embedded runtime: roles by
 * id and by e-mail, the last administrator under concurrency, removal taking
 * effect at once, effective roles through groups, and ordered action groups
 * that survive deleted actions.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { effectiveRole, resolveMembership } from '../../shared/domain/manage/resolve-membership.ts';
import type { Principal } from '../../shared/domain/model.ts';
import type { Role } from '../../shared/domain/roles.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let admin: ReturnType<typeof apiClient>;
const demo = '/api/v1/projects/demo';

beforeAll(async () => {
  dir = await tempDir('members');
  runtime = await startTestRuntime(dir.path);
  admin = apiClient(runtime, await loginToken(runtime));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

/** A stored user (members must exist) and an API client acting as that user. */
async function user(name: string) {
  const principal: Principal = { kind: 'user', id: `usr_${name}`, email: `${name}@example.com`, name };
  await runtime.services.store.createUser({ ...principal, createdAt: new Date().toISOString() });
  const client = apiClient(runtime, (await runtime.services.tokens.issue(principal, 3600)).token);
  return { ...principal, client };
}

async function projectWithAdmins(projectId: string, adminIds: string[]) {
  const store = runtime.services.store;
  await store.createProject({ id: projectId, name: projectId, createdAt: new Date().toISOString() });
  for (const principalId of adminIds) await store.putMembership({ projectId, principalId, role: 'admin' });
}

const adminsOf = async (projectId: string) =>
  (await runtime.services.store.listMemberships(projectId)).filter((m) => m.role === 'admin');

describe('effectiveRole', () => {
  it('is the most powerful of the direct role and the group roles', () => {
    expect(effectiveRole('member', ['developer', undefined])).toBe('developer');
    expect(effectiveRole('admin', ['member'])).toBe('admin');
    expect(effectiveRole(undefined, ['operations_lead', 'development_lead'])).toBe('development_lead');
    expect(effectiveRole(undefined, [undefined])).toBeUndefined();
    expect(effectiveRole(undefined, [])).toBeUndefined();
  });
});

describe('members', () => {
  it('adds by id (201), changes the role (200), reads and lists with role and groups', async () => {
    const alice = await user('alice');
    const added = await admin.put(`${demo}/members/${alice.id}`, { role: 'developer' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      principalId: alice.id,
      kind: 'user',
      email: alice.email,
      name: 'alice',
      role: 'developer',
      groups: [],
      effectiveRole: 'developer',
    });
    expect((await admin.put(`${demo}/members/${alice.id}`, { role: 'member' })).status).toBe(200);
    expect((await admin.get(`${demo}/members/${alice.id}`)).body.role).toBe('member');
    const list = await admin.get(`${demo}/members`);
    expect(list.status).toBe(200);
    const roles = Object.fromEntries(
      list.body.data.map((m: { principalId: string; role: Role }) => [m.principalId, m.role]),
    );
    expect(roles[alice.id]).toBe('member');
    expect(Object.values(roles)).toContain('admin');
  });

  it('adds by e-mail address; an unknown address is invited by an account administrator', async () => {
    const bob = await user('bob');
    const added = await admin.post(`${demo}/members`, { email: 'bob@example.com', role: 'operations_lead' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ principalId: bob.id, role: 'operations_lead' });
    const invited = await admin.post(`${demo}/members`, { email: 'Newcomer@example.com', role: 'member' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ kind: 'user', email: 'newcomer@example.com', role: 'member' });
    // One user per address: the invitation is the user a sign-in with that address finds.
    const registered = await runtime.services.store.getUserByEmail('newcomer@example.com');
    expect(registered?.id).toBe(invited.body.principalId);
    const again = await admin.post(`${demo}/members`, { email: 'newcomer@example.com', role: 'developer' });
    expect(again.status).toBe(200);
    expect(again.body.principalId).toBe(invited.body.principalId);
    // The person has an invited account (their link: Users → New invitation link, or e-mail).
    const account = await admin.get(`/api/v1/users/${invited.body.principalId}`);
    expect(account.body).toMatchObject({ email: 'newcomer@example.com', status: 'invited' });
  });

  it('a project administrator who is no account administrator cannot invite: 404 naming the address', async () => {
    const inviter = await user('projadmin');
    await projectWithAdmins('inviting', [inviter.id]);
    const refused = await inviter.client.post('/api/v1/projects/inviting/members', {
      email: 'stranger@example.com',
      role: 'member',
    });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe(
      "No user with the e-mail address 'stranger@example.com' was found. An account administrator can add it here, which invites the person.",
    );
    expect(await runtime.services.store.getUserByEmail('stranger@example.com')).toBeUndefined();
  });

  it('refuses unknown users, malformed ids and roles; accepts service accounts by id', async () => {
    const unknown = await admin.put(`${demo}/members/usr_nobody`, { role: 'member' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe("User 'usr_nobody' was not found.");
    expect((await admin.put(`${demo}/members/alice`, { role: 'member' })).status).toBe(400);
    const badRole = await admin.put(`${demo}/members/usr_alice`, { role: 'owner' });
    expect(badRole.status).toBe(422);
    expect(badRole.body.errors[0].pointer).toBe('#/role');
    expect((await admin.put(`${demo}/members/sa_robot`, { role: 'member' })).status).toBe(404);
    const account = await admin.post(`${demo}/service-accounts`, { name: 'robot' });
    const robot = await admin.put(`${demo}/members/${account.body.id}`, { role: 'member' });
    expect(robot.status).toBe(201);
    expect(robot.body.kind).toBe('service_account');
    // Shown by its address and name (the Members screen shows these), not only its id.
    const expected = { kind: 'service_account', email: 'robot@demo.sa.dogu', name: 'robot' };
    expect(robot.body).toMatchObject(expected);
    expect((await admin.get(`${demo}/members/${account.body.id}`)).body).toMatchObject(expected);
    const listed = (await admin.get(`${demo}/members`)).body.data;
    expect(listed.find((m: { principalId: string }) => m.principalId === account.body.id)).toMatchObject(
      expected,
    );
  });

  it('needs manage_members to change, and only an administrator grants or takes away admin', async () => {
    const dev = await user('dev');
    await runtime.services.store.putMembership({ projectId: 'demo', principalId: dev.id, role: 'developer' });
    const refused = await dev.client.put(`${demo}/members/usr_alice`, { role: 'developer' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("lacks the right 'manage_members'");
    expect((await dev.client.get(`${demo}/members`)).status).toBe(200);

    const lead = await user('lead');
    await runtime.services.store.putMembership({
      projectId: 'demo',
      principalId: lead.id,
      role: 'development_lead',
    });
    expect((await lead.client.put(`${demo}/members/usr_alice`, { role: 'developer' })).status).toBe(200);
    const escalation = await lead.client.put(`${demo}/members/${lead.id}`, { role: 'admin' });
    expect(escalation.status).toBe(403);
    expect(escalation.body.detail).toBe(
      "Only an administrator may grant or take away the role 'admin' in project 'demo'.",
    );
  });

  it('a removed member loses execution at once; removing again is 404', async () => {
    const erin = await user('erin');
    await admin.put(`${demo}/members/${erin.id}`, { role: 'member' });
    expect((await erin.client.execute('list-orders', { status: 'paid' })).status).toBe(200);
    expect((await admin.delete(`${demo}/members/${erin.id}`)).status).toBe(204);
    const refused = await erin.client.execute('list-orders', { status: 'paid' });
    expect(refused.status).toBe(403);
    expect((await admin.delete(`${demo}/members/${erin.id}`)).status).toBe(404);
  });

  it('refuses to remove or demote the last administrator', async () => {
    const solo = await user('solo');
    await projectWithAdmins('solo', [solo.id]);
    const base = '/api/v1/projects/solo';
    const demote = await solo.client.put(`${base}/members/${solo.id}`, { role: 'developer' });
    expect(demote.status).toBe(409);
    expect(demote.body.code).toBe('state_conflict');
    expect(demote.body.detail).toBe(
      `Removing or demoting '${solo.id}' would leave the project 'solo' without an administrator.`,
    );
    expect((await solo.client.delete(`${base}/members/${solo.id}`)).status).toBe(409);
    expect(await adminsOf('solo')).toHaveLength(1);
  });

  it('of two concurrent demotions of the last two administrators at most one succeeds', async () => {
    const [ann, ben] = await Promise.all([user('ann'), user('ben')]);
    await projectWithAdmins('duo', [ann.id, ben.id]);
    const base = '/api/v1/projects/duo';
    for (let round = 0; round < 5; round++) {
      for (const id of [ann.id, ben.id])
        await runtime.services.store.putMembership({ projectId: 'duo', principalId: id, role: 'admin' });
      // Each demotes itself, so both callers are administrators when they ask.
      const results = await Promise.all([
        ann.client.put(`${base}/members/${ann.id}`, { role: 'developer' }),
        round % 2 === 0
          ? ben.client.put(`${base}/members/${ben.id}`, { role: 'developer' })
          : ben.client.delete(`${base}/members/${ben.id}`),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(
        statuses.filter((s) => s === 409),
        JSON.stringify(results.map((r) => r.body)),
      ).toHaveLength(1);
      expect(await adminsOf('duo')).toHaveLength(1);
    }
  });
});

describe('the members lease', () => {
  it('has one holder until it is released or runs out; a late release does not free a successor', async () => {
    const store = runtime.services.coordination;
    const t0 = new Date('2030-01-01T00:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    expect(await store.acquireLock('test:lease', 'a', t0, 1000)).toBe(true);
    expect(await store.acquireLock('test:lease', 'b', later(500), 1000)).toBe(false);
    // a stalled past its lease: b takes over, and a's release must not free b's lease.
    expect(await store.acquireLock('test:lease', 'b', later(1001), 1000)).toBe(true);
    await store.releaseLock('test:lease', 'a');
    expect(await store.acquireLock('test:lease', 'c', later(1500), 1000)).toBe(false);
    await store.releaseLock('test:lease', 'b');
    expect(await store.acquireLock('test:lease', 'c', later(1500), 1000)).toBe(true);
  });
});

describe('user groups', () => {
  it('a group role raises the effective role of its members', async () => {
    const carol = await user('carol');
    const dave = await user('dave');
    await admin.put(`${demo}/members/${carol.id}`, { role: 'member' });
    const created = await admin.put(`${demo}/user-groups/ops`, {
      id: 'ops',
      name: 'Operations',
      role: 'developer',
      members: [carol.id, dave.id],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'ops',
      role: 'developer',
      members: [carol.id, dave.id],
      version: 1,
    });

    const store = runtime.services.store;
    expect(await resolveMembership(store, 'demo', carol.id)).toEqual({
      projectId: 'demo',
      principalId: carol.id,
      role: 'developer',
      roles: ['developer', 'member'],
      groups: ['ops'],
    });
    // Dave belongs only through the group.
    expect((await resolveMembership(store, 'demo', dave.id))?.role).toBe('developer');
    const carolView = (await admin.get(`${demo}/members/${carol.id}`)).body;
    expect(carolView).toMatchObject({
      role: 'member',
      effectiveRole: 'developer',
      groups: [{ id: 'ops', name: 'Operations', role: 'developer' }],
    });
    const daveView = (await admin.get(`${demo}/members`)).body.data.find(
      (m: { principalId: string }) => m.principalId === dave.id,
    );
    expect(daveView.role).toBeUndefined();
    expect(daveView.effectiveRole).toBe('developer');

    // Leaving the group takes the role away again.
    const replaced = await admin.put(`${demo}/user-groups/ops`, {
      id: 'ops',
      name: 'Operations',
      role: 'developer',
      members: [dave.id],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.version).toBe(2);
    expect((await resolveMembership(store, 'demo', carol.id))?.role).toBe('member');
    expect(await store.listUserGroupsOfPrincipal('demo', carol.id)).toEqual([]);
  });

  it("GET project answers the caller's access: roles through groups and the union of their rights", async () => {
    const ivy = await user('ivy');
    await admin.put(`${demo}/members/${ivy.id}`, { role: 'member' });
    const direct = await ivy.client.get(demo);
    expect(direct.status).toBe(200);
    expect(direct.body.access).toEqual({ role: 'member', roles: ['member'], rights: ['view', 'execute'] });

    // A group with an operations lead's role adds approve_reviews and manage_cron_jobs, nothing else.
    await admin.put(`${demo}/user-groups/approvers`, {
      id: 'approvers',
      name: 'Approvers',
      role: 'operations_lead',
      members: [ivy.id],
    });
    expect((await ivy.client.get(demo)).body.access).toEqual({
      role: 'operations_lead',
      roles: ['operations_lead', 'member'],
      rights: ['view', 'execute', 'approve_reviews', 'manage_cron_jobs'],
    });
    // A development lead's group gives publish_versions, which the direct role lacks.
    await admin.put(`${demo}/user-groups/publishers`, {
      id: 'publishers',
      name: 'Publishers',
      role: 'development_lead',
      members: [ivy.id],
    });
    const raised = (await ivy.client.get(demo)).body.access;
    expect(raised.role).toBe('development_lead');
    expect(raised.rights).toContain('publish_versions');
    expect(raised.rights).toContain('manage_project');
    // The projects list keeps answering the direct role.
    const listed = (await ivy.client.get('/api/v1/projects')).body.data;
    expect(listed.find((p: { id: string }) => p.id === 'demo').role).toBe('member');
    await admin.delete(`${demo}/user-groups/approvers`);
    await admin.delete(`${demo}/user-groups/publishers`);
  });

  it('an index item left behind (crash, lost race) grants nothing: the group item decides', async () => {
    await runtime.storage.client.send(
      new PutCommand({
        TableName: runtime.storage.tableName,
        Item: {
          pk: 'PROJECT#demo',
          sk: 'PRINCIPALGROUP#usr_carol#ops',
          type: 'principalGroup',
          principalId: 'usr_carol',
          groupId: 'ops',
        },
      }),
    );
    expect(await runtime.services.store.listUserGroupsOfPrincipal('demo', 'usr_carol')).toEqual([]);
    expect((await resolveMembership(runtime.services.store, 'demo', 'usr_carol'))?.role).toBe('member');
  });

  it('removing a member also takes it out of every group of the project', async () => {
    const dave = 'usr_dave';
    expect((await admin.delete(`${demo}/members/${dave}`)).status).toBe(204);
    expect((await admin.get(`${demo}/user-groups/ops`)).body.members).toEqual([]);
    expect(await resolveMembership(runtime.services.store, 'demo', dave)).toBeUndefined();
  });

  it('refuses unknown users, and admin groups for non-administrators; lists and deletes', async () => {
    const unknown = await admin.put(`${demo}/user-groups/ghosts`, {
      id: 'ghosts',
      name: 'Ghosts',
      members: ['usr_alice', 'usr_ghost'],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      { pointer: '#/members/1', detail: "user 'usr_ghost' does not exist" },
    ]);
    expect((await admin.get(`${demo}/user-groups/ghosts`)).status).toBe(404);

    const lead = apiClient(
      runtime,
      (
        await runtime.services.tokens.issue(
          { kind: 'user', id: 'usr_lead', email: 'lead@example.com', name: 'lead' },
          600,
        )
      ).token,
    );
    const escalation = await lead.put(`${demo}/user-groups/bosses`, {
      id: 'bosses',
      name: 'Bosses',
      role: 'admin',
      members: ['usr_lead'],
    });
    expect(escalation.status).toBe(403);
    expect((await lead.put(`${demo}/user-groups/readers`, { id: 'readers', name: 'Readers' })).status).toBe(
      201,
    );

    const list = await admin.get(`${demo}/user-groups`);
    expect(list.body.data.map((g: { id: string }) => g.id)).toEqual(['ops', 'readers']);
    expect((await admin.delete(`${demo}/user-groups/readers`)).status).toBe(204);
    expect((await admin.delete(`${demo}/user-groups/readers`)).status).toBe(404);
  });
});

describe('action groups', () => {
  const sqlAction = (id: string) => ({
    id,
    name: `Action ${id}`,
    description: `Runs ${id}`,
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [{ name: 'n', kind: 'number' }],
    statements: [{ title: id, sql: 'SELECT {{ n }} AS n' }],
  });
  const group = (actionIds: string[]) => ({ id: 'daily', name: 'Daily work', actionIds });

  beforeAll(async () => {
    for (const id of ['ag-one', 'ag-two', 'ag-three']) {
      const saved = await admin.put(`${demo}/actions/${id}`, sqlAction(id));
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    }
  });

  it('creates a group and reads its actions in order with what the screen needs', async () => {
    const created = await admin.put(`${demo}/action-groups/daily`, group(['ag-one', 'ag-two', 'ag-three']));
    expect(created.status).toBe(201);
    const read = await admin.get(`${demo}/action-groups/daily`);
    expect(read.body.actionIds).toEqual(['ag-one', 'ag-two', 'ag-three']);
    expect(read.body.missingActionIds).toEqual([]);
    expect(read.body.actions[0]).toEqual({
      id: 'ag-one',
      name: 'Action ag-one',
      description: 'Runs ag-one',
      kind: 'sql',
      parameters: [{ name: 'n', kind: 'number' }],
    });
  });

  it('refuses unknown and repeated action ids, naming them, and stores nothing', async () => {
    const unknown = await admin.put(`${demo}/action-groups/other`, {
      id: 'other',
      name: 'Other',
      actionIds: ['ag-one', 'nope', 'nada'],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe("No such actions in project 'demo': nope, nada.");
    expect(unknown.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '#/actionIds/1',
      '#/actionIds/2',
    ]);
    expect((await admin.get(`${demo}/action-groups/other`)).status).toBe(404);
    const twice = await admin.put(`${demo}/action-groups/other`, {
      id: 'other',
      name: 'Other',
      actionIds: ['ag-one', 'ag-one'],
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors[0].pointer).toBe('#/actionIds/1');
  });

  it('reorders with a permutation; anything else is 422 naming the ids and changes nothing', async () => {
    const reordered = await admin.put(`${demo}/action-groups/daily/order`, {
      actionIds: ['ag-three', 'ag-one', 'ag-two'],
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.actions.map((a: { id: string }) => a.id)).toEqual(['ag-three', 'ag-one', 'ag-two']);

    const bad = await admin.put(`${demo}/action-groups/daily/order`, {
      actionIds: ['ag-one', 'nope', 'ag-three'],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toBe(
      "The order must list each action of group 'daily' exactly once: action 'nope' is not in group 'daily'; action 'ag-two' of the group is missing.",
    );
    expect(bad.body.errors).toEqual([
      { pointer: '#/actionIds/1', detail: "action 'nope' is not in group 'daily'" },
      { pointer: '#/actionIds', detail: "action 'ag-two' of the group is missing" },
    ]);
    expect((await admin.get(`${demo}/action-groups/daily`)).body.actionIds).toEqual([
      'ag-three',
      'ag-one',
      'ag-two',
    ]);
    expect((await admin.put(`${demo}/action-groups/nope/order`, { actionIds: [] })).status).toBe(404);
  });

  it('leaves out deleted actions when reading and names them in missingActionIds', async () => {
    expect((await admin.delete(`${demo}/actions/ag-two`)).status).toBe(204);
    const read = await admin.get(`${demo}/action-groups/daily`);
    expect(read.body.actionIds).toEqual(['ag-three', 'ag-one']);
    expect(read.body.missingActionIds).toEqual(['ag-two']);
    expect(read.body.actions.map((a: { id: string }) => a.id)).toEqual(['ag-three', 'ag-one']);
    const listed = (await admin.get(`${demo}/action-groups`)).body.data[0];
    expect(listed).toMatchObject({
      id: 'daily',
      actionIds: ['ag-three', 'ag-one'],
      missingActionIds: ['ag-two'],
    });

    // The order is checked against what a read shows; the save drops the deleted id for good.
    const reordered = await admin.put(`${demo}/action-groups/daily/order`, {
      actionIds: ['ag-one', 'ag-three'],
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.missingActionIds).toEqual([]);
  });

  it('developers change groups, members only read them', async () => {
    const dev = await user('grace');
    await runtime.services.store.putMembership({ projectId: 'demo', principalId: dev.id, role: 'developer' });
    expect(
      (await dev.client.put(`${demo}/action-groups/mine`, { id: 'mine', name: 'Mine', actionIds: [] }))
        .status,
    ).toBe(201);
    const reader = await user('heidi');
    await runtime.services.store.putMembership({ projectId: 'demo', principalId: reader.id, role: 'member' });
    expect((await reader.client.get(`${demo}/action-groups/mine`)).status).toBe(200);
    const refused = await reader.client.delete(`${demo}/action-groups/mine`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("lacks the right 'manage_action_groups'");
    expect((await dev.client.delete(`${demo}/action-groups/mine`)).status).toBe(204);
    expect((await dev.client.delete(`${demo}/action-groups/mine`)).status).toBe(404);
  });
});
