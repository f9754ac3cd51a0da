/**
 * The project allow-list through the real HTTP API (decision 0155): administrators set it in the
 * project settings, a bad entry is a 422 naming it, other roles may not change it, the project and
 * every resolved view carry it, and the change is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let admin: ReturnType<typeof apiClient>;
let developer: ReturnType<typeof apiClient>;
let member: ReturnType<typeof apiClient>;
let lead: ReturnType<typeof apiClient>;
const p = '/api/v1/projects/demo';

beforeAll(async () => {
  dir = await tempDir('allowed-hosts');
  runtime = await startTestRuntime(dir.path);
  admin = apiClient(runtime, await loginToken(runtime));
  for (const role of ['developer', 'member', 'development_lead'] as const) {
    const id = `usr_hosts_${role}`;
    await runtime.services.store.putMembership({ projectId: 'demo', principalId: id, role });
    const { token } = await runtime.services.tokens.issue(
      { kind: 'user', id, email: `${role}@example.com`, name: role },
      3600,
    );
    if (role === 'developer') developer = apiClient(runtime, token);
    else if (role === 'member') member = apiClient(runtime, token);
    else lead = apiClient(runtime, token);
  }
}, 60_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

describe('the allowed hosts setting', () => {
  it('is empty until set; a view answer carries the list', async () => {
    const project = await admin.get(p);
    expect(project.status).toBe(200);
    expect(project.body.allowedHosts).toBeUndefined();
    const view = await member.get(`${p}/environments/development/views/orders`);
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.allowedHosts).toEqual([]);
  });

  it('an administrator sets it; entries are stored in one spelling, once each, other settings kept', async () => {
    const saved = await admin.put(`${p}/settings`, {
      allowedHosts: [
        'Images.Example.com',
        '*.cdn.example.net',
        'intranet.example.com:8443',
        'images.example.com',
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.allowedHosts).toEqual([
      'images.example.com',
      '*.cdn.example.net',
      'intranet.example.com:8443',
    ]);
    expect((await admin.get(p)).body.allowedHosts).toEqual(saved.body.allowedHosts);
    const view = await member.get(`${p}/environments/development/views/orders`);
    expect(view.body.allowedHosts).toEqual(saved.body.allowedHosts);
    // The other setting is left as it was when only the list is sent, and the other way round.
    const both = await admin.put(`${p}/settings`, { directIdTokens: false });
    expect(both.status).toBe(200);
    expect(both.body.allowedHosts).toEqual(saved.body.allowedHosts);
    const listed = await member.get('/api/v1/projects');
    expect(listed.body.data.find((x: { id: string }) => x.id === 'demo').allowedHosts).toEqual(
      saved.body.allowedHosts,
    );
  });

  it('a bad entry is a 422 that names it and where it is; nothing is stored', async () => {
    const before = (await admin.get(p)).body.allowedHosts;
    const bad = await admin.put(`${p}/settings`, {
      allowedHosts: ['ok.example.com', 'https://evil.example/path', 'a b'],
    });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const byPointer = Object.fromEntries(
      bad.body.errors.map((e: { pointer: string; detail: string }) => [e.pointer, e.detail]),
    );
    expect(byPointer['#/allowedHosts/1']).toContain("'https://evil.example/path'");
    expect(byPointer['#/allowedHosts/2']).toContain("'a b'");
    expect(JSON.stringify(bad.body)).not.toMatch(/at .*\.ts:\d+/);
    expect((await admin.get(p)).body.allowedHosts).toEqual(before);
    const notAList = await admin.put(`${p}/settings`, { allowedHosts: 'images.example.com' });
    expect(notAList.status).toBe(422);
    expect(notAList.body.errors[0].pointer).toBe('#/allowedHosts');
    const tooMany = await admin.put(`${p}/settings`, {
      allowedHosts: Array.from({ length: 101 }, (_, i) => `h${i}.example.com`),
    });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(tooMany.body)).toContain('100');
    const empty = await admin.put(`${p}/settings`, {});
    expect(empty.status).toBe(422);
    expect(JSON.stringify(empty.body)).toContain('allowedHosts');
  });

  it('only holders of manage_project (administrators, development leads) may change it', async () => {
    for (const who of [developer, member]) {
      const refused = await who.put(`${p}/settings`, { allowedHosts: ['spy.example'] });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('manage_project');
    }
    expect((await admin.get(p)).body.allowedHosts).not.toContain('spy.example');
    const before = (await admin.get(p)).body.allowedHosts;
    const byLead = await lead.put(`${p}/settings`, { allowedHosts: [...before, 'lead.example.com'] });
    expect(byLead.status, JSON.stringify(byLead.body)).toBe(200);
    expect(byLead.body.allowedHosts).toContain('lead.example.com');
  });

  it('an empty list clears it, and the change is audited', async () => {
    const cleared = await admin.put(`${p}/settings`, { allowedHosts: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.allowedHosts).toEqual([]);
    const audit = await admin.get(`${p}/audit-log?limit=20`);
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    expect(JSON.stringify(audit.body)).toContain('project.settings');
  });
});
