/**
 * Service accounts and trust policies on a real embedded runtime: CRUD, validation with pointers,
 * e-mail uniqueness, membership by role, rights, revocation and generations, cascading deletion,
 * the issuer index's order, and audit entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let admin: ReturnType<typeof apiClient>;
const accounts = '/api/v1/projects/demo/service-accounts';
const github = 'https://token.actions.githubusercontent.com';

beforeAll(async () => {
  dir = await tempDir('service-accounts');
  runtime = await startTestRuntime(dir.path);
  admin = apiClient(runtime, await loginToken(runtime));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

async function member(name: string, role: 'developer' | 'development_lead') {
  const principal: Principal = { kind: 'user', id: `usr_${name}`, email: `${name}@example.com`, name };
  await runtime.services.store.createUser({ ...principal, createdAt: new Date().toISOString() });
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: principal.id, role });
  return apiClient(runtime, (await runtime.services.tokens.issue(principal, 3600)).token);
}

const policyBody = (sub = 'repo:acme/api:ref:refs/heads/main') => ({
  issuer: github,
  audience: 'dogu',
  boundClaims: [{ key: 'sub', pattern: sub }],
});

describe('service accounts', () => {
  it('creates with a derived e-mail and a membership, reads, lists and updates', async () => {
    const created = await admin.post(accounts, { name: 'deployer', description: 'CI', role: 'developer' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      projectId: 'demo',
      name: 'deployer',
      email: 'deployer@demo.sa.dogu',
      description: 'CI',
      tokenGeneration: 1,
      role: 'developer',
    });
    const id: string = created.body.id;
    expect(id).toMatch(/^sa_[0-9a-f]{32}$/);
    expect(await runtime.services.store.getMembership('demo', id)).toEqual({
      projectId: 'demo',
      principalId: id,
      role: 'developer',
    });
    expect((await runtime.services.identities.getServiceAccountByEmail('Deployer@demo.sa.dogu'))?.id).toBe(
      id,
    );
    expect((await admin.get(`${accounts}/${id}`)).body.role).toBe('developer');
    const list = await admin.get(accounts);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(id);
    const member = await admin.get(`/api/v1/projects/demo/members/${id}`);
    expect(member.body).toMatchObject({ kind: 'service_account', role: 'developer' });

    const updated = await admin.put(`${accounts}/${id}`, { name: 'deployer', description: 'CD' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: 'CD', tokenGeneration: 1 });
    const renamed = await admin.put(`${accounts}/${id}`, { name: 'other' });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors[0].pointer).toBe('#/name');
    const disabled = await admin.put(`${accounts}/${id}`, { disabled: true });
    expect(disabled.body).toMatchObject({ disabled: true, tokenGeneration: 2 });
    expect(disabled.body.description).toBeUndefined();
    const enabled = await admin.put(`${accounts}/${id}`, {});
    expect(enabled.body.disabled).toBeUndefined();
    expect(enabled.body.tokenGeneration).toBe(2);
    const revoked = await admin.post(`${accounts}/${id}/revoke-tokens`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.body.tokenGeneration).toBe(3);
  });

  it('refuses a taken name, bad names and roles with pointers; 404 for unknown accounts', async () => {
    expect((await admin.post(accounts, { name: 'twice' })).status).toBe(201);
    const taken = await admin.post(accounts, { name: 'twice' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0]).toEqual({ pointer: '#/name', detail: "'twice@demo.sa.dogu' is taken" });
    const bad = await admin.post(accounts, { name: 'Bad_Name', role: 'owner' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['#/name', '#/role']);
    expect((await admin.get(`${accounts}/sa_missing`)).status).toBe(404);
    expect((await admin.post(`${accounts}/sa_missing/revoke-tokens`, {})).status).toBe(404);
    expect((await admin.delete(`${accounts}/sa_missing`)).status).toBe(404);
  });

  it('a developer may read but not manage; a development lead may not grant admin', async () => {
    const dev = await member('sadev', 'developer');
    const refused = await dev.post(accounts, { name: 'by-dev' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("lacks the right 'manage_members'");
    expect((await dev.get(accounts)).status).toBe(200);
    const lead = await member('salead', 'development_lead');
    expect((await lead.post(accounts, { name: 'by-lead', role: 'developer' })).status).toBe(201);
    expect((await lead.post(accounts, { name: 'lead-admin', role: 'admin' })).status).toBe(403);
    expect(
      await runtime.services.identities.getServiceAccountByEmail('lead-admin@demo.sa.dogu'),
    ).toBeUndefined();
  });
});

describe('trust policies', () => {
  it('creates, replaces (new generation), keeps an unchanged save, lists, reads and deletes', async () => {
    const { id } = (await admin.post(accounts, { name: 'ci' })).body;
    const path = `${accounts}/${id}/trust-policies`;
    const created = await admin.put(`${path}/github-main`, policyBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'github-main',
      serviceAccountId: id,
      projectId: 'demo',
      ...policyBody(),
    });
    const again = await admin.put(`${path}/github-main`, { id: 'github-main', ...policyBody() });
    expect(again.status).toBe(200);
    expect(again.body.generation).toBe(created.body.generation);
    const replaced = await admin.put(`${path}/github-main`, policyBody('repo:acme/*:ref:refs/heads/main'));
    expect(replaced.status).toBe(200);
    expect(replaced.body.generation).toBeGreaterThan(created.body.generation);
    expect(replaced.body.createdAt).toBe(created.body.createdAt);

    await admin.put(`${path}/github-tags`, policyBody('repo:acme/api:ref:refs/tags/*'));
    const list = await admin.get(path);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual(['github-main', 'github-tags']);
    expect((await admin.get(`${path}/github-tags`)).body.boundClaims[0].pattern).toBe(
      'repo:acme/api:ref:refs/tags/*',
    );

    const byIssuer = await runtime.services.identities.listTrustPoliciesByIssuer(github);
    const ours = byIssuer.filter((p) => p.serviceAccountId === id).map((p) => p.id);
    expect(ours).toEqual(['github-main', 'github-tags']);

    expect((await admin.delete(`${path}/github-tags`)).status).toBe(204);
    expect((await admin.delete(`${path}/github-tags`)).status).toBe(404);
    const recreated = await admin.put(`${path}/github-tags`, policyBody());
    expect(recreated.status).toBe(201);
    expect(recreated.body.generation).toBeGreaterThan(replaced.body.generation);
  });

  it('validates issuer, audience, bound claims and ids with pointers', async () => {
    const { id } = (await admin.post(accounts, { name: 'validated' })).body;
    const path = `${accounts}/${id}/trust-policies`;
    const refused = await admin.put(`${path}/p1`, {
      issuer: 'http://token.actions.githubusercontent.com',
      audience: '',
      boundClaims: [
        { key: '', pattern: 'x' },
        { key: '/a~2', pattern: 'bad\\d' },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/audience',
      '#/boundClaims/0/key',
      '#/boundClaims/1/key',
      '#/boundClaims/1/pattern',
      '#/issuer',
    ]);
    const none = await admin.put(`${path}/p1`, { issuer: github, audience: 'dogu', boundClaims: [] });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].pointer).toBe('#/boundClaims');
    expect(none.body.errors[0].detail).toContain('at least one bound claim');
    const onlyStar = await admin.put(`${path}/p1`, { ...policyBody('*') });
    expect(onlyStar.status).toBe(422);
    const tooMany = await admin.put(`${path}/p1`, {
      ...policyBody(),
      boundClaims: Array.from({ length: 21 }, () => ({ key: 'sub', pattern: 'x' })),
    });
    expect(tooMany.body.errors[0].pointer).toBe('#/boundClaims');
    expect((await admin.put(`${path}/Bad.Id`, policyBody())).status).toBe(400);
    expect((await admin.put(`${path}/p1`, { id: 'p2', ...policyBody() })).status).toBe(400);
    expect((await admin.put(`${accounts}/sa_missing/trust-policies/p1`, policyBody())).status).toBe(404);

    const { id: other } = (await admin.post(accounts, { name: 'validated-2' })).body;
    expect((await admin.put(`${path}/shared-id`, policyBody())).status).toBe(201);
    const clash = await admin.put(`${accounts}/${other}/trust-policies/shared-id`, policyBody());
    expect(clash.status).toBe(409);
    expect((await admin.get(`${accounts}/${other}/trust-policies/shared-id`)).status).toBe(404);
    expect((await admin.delete(`${accounts}/${other}/trust-policies/shared-id`)).status).toBe(404);
  });

  it('a developer may list policies but not change them', async () => {
    const dev = await member('tpdev', 'developer');
    const { id } = (await admin.post(accounts, { name: 'guarded' })).body;
    expect((await dev.put(`${accounts}/${id}/trust-policies/p`, policyBody())).status).toBe(403);
    expect((await dev.get(`${accounts}/${id}/trust-policies`)).status).toBe(200);
  });
});

describe('deleting a service account', () => {
  it('removes its policies, its membership and its group places, and frees the name', async () => {
    const { id } = (await admin.post(accounts, { name: 'doomed', role: 'member' })).body;
    await admin.put(`${accounts}/${id}/trust-policies/doomed-main`, policyBody());
    const group = await admin.put('/api/v1/projects/demo/user-groups/robots', {
      id: 'robots',
      name: 'Robots',
      role: 'member',
      members: [id],
    });
    expect(group.status).toBe(201);

    expect((await admin.delete(`${accounts}/${id}`)).status).toBe(204);
    const store = runtime.services.store;
    expect(await runtime.services.identities.getServiceAccount('demo', id)).toBeUndefined();
    expect(await runtime.services.identities.getTrustPolicy('demo', 'doomed-main')).toBeUndefined();
    expect(await store.getMembership('demo', id)).toBeUndefined();
    expect((await store.getUserGroup('demo', 'robots'))?.members).toEqual([]);
    expect(await runtime.services.identities.getServiceAccountByEmail('doomed@demo.sa.dogu')).toBeUndefined();
    expect((await admin.get(`${accounts}/${id}`)).status).toBe(404);

    const reborn = await admin.post(accounts, { name: 'doomed' });
    expect(reborn.status).toBe(201);
    expect(reborn.body.id).not.toBe(id);
  });

  it('is refused while the account is the only direct administrator', async () => {
    const store = runtime.services.store;
    await store.createProject({ id: 'sa-only', name: 'sa-only', createdAt: new Date().toISOString() });
    const principal: Principal = { kind: 'user', id: 'usr_saonly', email: 'saonly@example.com', name: 'x' };
    await store.createUser({ ...principal, createdAt: new Date().toISOString() });
    await store.putMembership({ projectId: 'sa-only', principalId: principal.id, role: 'admin' });
    const owner = apiClient(runtime, (await runtime.services.tokens.issue(principal, 3600)).token);
    const project = '/api/v1/projects/sa-only';
    const { id } = (await owner.post(`${project}/service-accounts`, { name: 'boss', role: 'admin' })).body;
    // Another administrator only through a group, which the last-administrator guard does not count.
    const second: Principal = { kind: 'user', id: 'usr_saonly2', email: 'saonly2@example.com', name: 'y' };
    await store.createUser({ ...second, createdAt: new Date().toISOString() });
    const group = { id: 'admins', name: 'Admins', role: 'admin', members: [second.id] };
    expect((await owner.put(`${project}/user-groups/admins`, group)).status).toBe(201);
    expect((await owner.delete(`${project}/members/${principal.id}`)).status).toBe(204);

    const viaGroup = apiClient(runtime, (await runtime.services.tokens.issue(second, 3600)).token);
    const refused = await viaGroup.delete(`${project}/service-accounts/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('without an administrator');
    expect(await runtime.services.identities.getServiceAccount('sa-only', id)).toBeDefined();
  });
});

describe('audit', () => {
  it('records every change to service accounts and trust policies', async () => {
    const since = new Date().toISOString();
    const { id } = (await admin.post(accounts, { name: 'audited' })).body;
    await admin.put(`${accounts}/${id}`, { description: 'x' });
    await admin.post(`${accounts}/${id}/revoke-tokens`, {});
    await admin.put(`${accounts}/${id}/trust-policies/audited-main`, policyBody());
    await admin.delete(`${accounts}/${id}/trust-policies/audited-main`);
    await admin.delete(`${accounts}/${id}`);
    const { entries } = await runtime.services.audit.list({ projectId: 'demo', from: since, limit: 1000 });
    const ours = entries
      .filter((e) => e.target.id === id || e.target.id === 'audited-main')
      .map((e) => `${e.event} ${e.target.type} ${e.outcome}`)
      .reverse();
    expect(ours).toEqual([
      'service_account.create service_account succeeded',
      'service_account.save service_account succeeded',
      'service_account.revoke_tokens service_account succeeded',
      'trust_policy.save trust_policy succeeded',
      'trust_policy.delete trust_policy succeeded',
      'service_account.delete service_account succeeded',
    ]);
  });
});
