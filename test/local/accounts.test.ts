/**
 * Accounts through the API of a real embedded runtime: demo users, invitations (expired, reused,
 * replaced), password rules, sign-in answers and rate limit, disable and end sessions, change of
 * password, review request → approval by the seeded reviewer, and the deployment's audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../../local/accounts-startup.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { deploymentAuditLog } from '../../shared/http/audit-recording.ts';
import { type ApiResponse, apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let admin: ReturnType<typeof apiClient>;

beforeAll(async () => {
  dir = await tempDir('accounts');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  admin = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  } as ApiResponse;
}

const passwordLogin = (email: string, password: string) =>
  call('POST', '/public/v1/login/password', { email, password });

describe('demo users', () => {
  it('the administrator and the reviewer sign in with the demo password; the console gets a session cookie', async () => {
    const cli = await passwordLogin('reviewer@dogu.local', demoPassword);
    expect(cli.status).toBe(200);
    expect(cli.body).toMatchObject({ tokenType: 'Bearer', email: 'reviewer@dogu.local' });
    const consoleSignIn = await call('POST', '/auth/sign-in', {
      email: 'Admin@Dogu.Local',
      password: demoPassword,
    });
    expect(consoleSignIn.status).toBe(200);
    expect(consoleSignIn.body.user.email).toBe('admin@dogu.local');
    const setCookie = consoleSignIn.headers.getSetCookie().find((c) => c.startsWith('dogu_session='))!;
    expect(setCookie).toMatch(/HttpOnly/);
    const session = await call('GET', '/auth/session', undefined, { cookie: setCookie.split(';')[0]! });
    expect(session.body.csrfToken).toBe(consoleSignIn.body.csrfToken);
  });

  it('an unknown address and a wrong password get the same answer', async () => {
    const unknown = await passwordLogin('nobody@example.com', 'some long password');
    const wrong = await passwordLogin('reviewer@dogu.local', 'some long password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.detail).toBe(wrong.body.detail);
    expect(unknown.body.detail).toBe('The e-mail address or the password is wrong.');
  });

  it('the reviewer approves a review request of the administrator, end to end', async () => {
    const base = '/api/v1/projects/demo';
    const put = await admin.put(`${base}/actions/refund`, {
      id: 'refund',
      name: 'Refund',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      review: { required: true, expiresInMinutes: 60 },
      parameters: [{ name: 'order_id', kind: 'number', required: true }],
      statements: [
        { title: 'Refund', sql: 'SELECT {{ order_id }}::int AS refunded, {{ currentUser.email }} AS by' },
      ],
    });
    expect(put.status).toBeLessThan(300);
    const requested = await admin.execute('refund', { order_id: 4 });
    expect(requested.status).toBe(202);
    const id = requested.body.reviewRequest.id;
    expect((await admin.post(`${base}/review-requests/${id}/approve`, {})).status).toBe(403);
    const reviewer = apiClient(
      runtime,
      (await passwordLogin('reviewer@dogu.local', demoPassword)).body.token,
    );
    const approved = await reviewer.post(`${base}/review-requests/${id}/approve`, { comment: 'fine' });
    expect(approved.status).toBe(200);
    expect(approved.body.reviewRequest).toMatchObject({
      status: 'executed',
      decidedBy: { email: 'reviewer@dogu.local' },
    });
    expect(approved.body.execution.results[0].rows).toEqual([{ refunded: 4, by: 'admin@dogu.local' }]);
  });
});

describe('invitations', () => {
  let link: string;

  it('an administrator invites by e-mail and gets the link to copy; only administrators may', async () => {
    const invited = await admin.post('/api/v1/users', { email: 'Hana@Example.com', name: 'Hana' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'hana@example.com', status: 'invited', hasPassword: false });
    expect(invited.body.invitation.sent).toBe(false);
    expect(invited.body.invitation.url).toBe(`${runtime.url}${invited.body.invitation.path}`);
    link = invited.body.invitation.path;
    const reviewer = apiClient(
      runtime,
      (await passwordLogin('reviewer@dogu.local', demoPassword)).body.token,
    );
    const refused = await reviewer.post('/api/v1/users', { email: 'x@example.com' });
    expect(refused.status).toBe(403);
    expect((await reviewer.get('/api/v1/users')).status).toBe(403);
    const again = await admin.post('/api/v1/users', { email: 'hana@example.com' });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].pointer).toBe('#/email');
    expect((await admin.post('/api/v1/users', { email: 'not an address' })).status).toBe(422);
  });

  it('the invitation names the address; weak passwords are refused with the reason', async () => {
    const token = link.split('/').pop()!;
    const shown = await call('GET', `/auth/invitations/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ email: 'hana@example.com', name: 'Hana' });
    for (const [password, reason] of [
      ['short', 'at least 12'],
      ['password1234', 'commonly used'],
      ['hana@example.com!!', 'e-mail address'],
      ['aaaaaaaaaaaaaaaa', 'repeats'],
      ['x'.repeat(257), 'at most 256'],
    ] as const) {
      const weak = await call('POST', `/auth/invitations/${token}/accept`, { password });
      expect(weak.status, password).toBe(422);
      expect(weak.body.errors[0]).toMatchObject({ pointer: '#/password' });
      expect(weak.body.errors[0].detail).toContain(reason);
    }
  });

  it('accepting sets the password and signs in; the link cannot be used again', async () => {
    const token = link.split('/').pop()!;
    const accepted = await call('POST', `/auth/invitations/${token}/accept`, {
      password: 'correct horse battery',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.getSetCookie().some((c) => c.startsWith('dogu_session='))).toBe(true);
    const reused = await call('POST', `/auth/invitations/${token}/accept`, {
      password: 'another long password',
    });
    expect(reused.status).toBe(409);
    expect(reused.body.reason).toBe('used');
    expect((await call('GET', `/auth/invitations/${token}`)).body.reason).toBe('used');
    expect((await passwordLogin('hana@example.com', 'correct horse battery')).status).toBe(200);
    expect((await call('GET', '/auth/invitations/not-a-real-invitation-token-at-all')).status).toBe(404);
  });

  it('a replaced or expired invitation is refused with its reason', async () => {
    const first = await admin.post('/api/v1/users', { email: 'ken@example.com' });
    const second = await admin.post(`/api/v1/users/${first.body.userId}/invitation`, {});
    expect(second.status).toBe(200);
    const oldToken = first.body.invitation.path.split('/').pop();
    const replaced = await call('GET', `/auth/invitations/${oldToken}`);
    expect(replaced.status).toBe(409);
    expect(replaced.body.reason).toBe('replaced');
    const { store } = runtime.services.accounts;
    const account = (await store.getAccount(first.body.userId))!;
    await store.saveAccount(
      {
        ...account,
        invitation: { ...account.invitation!, expiresAt: new Date(Date.now() - 1000).toISOString() },
        version: account.version + 1,
      },
      account.version,
    );
    const newToken = second.body.invitation.path.split('/').pop();
    const expired = await call('POST', `/auth/invitations/${newToken}/accept`, {
      password: 'a long good password',
    });
    expect(expired.status).toBe(409);
    expect(expired.body.reason).toBe('expired');
    expect(expired.body.detail).toContain('expired');
  });
});

// Each test signs in several times: a password hash (scrypt, ~100 ms when quiet) each. Seven of them
// outran 30 s on a loaded 2-core machine, and the next test then met the timed-out one's changes.
describe('passwords, disabling and sessions', { timeout: 120_000 }, () => {
  let userId: string;

  it('an administrator creates a user with a password; the user can sign in', async () => {
    const created = await admin.post('/api/v1/users', {
      email: 'mio@example.com',
      password: 'mio has a long password',
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('active');
    expect(created.body.invitation).toBeUndefined();
    userId = created.body.userId;
    expect((await passwordLogin('mio@example.com', 'mio has a long password')).status).toBe(200);
  });

  it('changing the password ends the other sessions and answers a new token', async () => {
    const old = (await passwordLogin('mio@example.com', 'mio has a long password')).body.token;
    const mio = apiClient(runtime, old);
    const wrong = await mio.post('/api/v1/me/password', {
      currentPassword: 'not it at all',
      newPassword: 'x',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].pointer).toBe('#/currentPassword');
    const weak = await mio.post('/api/v1/me/password', {
      currentPassword: 'mio has a long password',
      newPassword: 'short',
    });
    expect(weak.body.errors[0].pointer).toBe('#/newPassword');
    const changed = await mio.post('/api/v1/me/password', {
      currentPassword: 'mio has a long password',
      newPassword: 'mio has a newer passphrase',
    });
    expect(changed.status).toBe(200);
    expect((await mio.get('/public/v1/me')).status).toBe(401);
    expect((await apiClient(runtime, changed.body.token).get('/public/v1/me')).status).toBe(200);
    expect((await passwordLogin('mio@example.com', 'mio has a long password')).status).toBe(401);
    expect((await passwordLogin('mio@example.com', 'mio has a newer passphrase')).status).toBe(200);
  });

  it("disabling stops the user's tokens at once; enabling does not bring them back", async () => {
    const token = (await passwordLogin('mio@example.com', 'mio has a newer passphrase')).body.token;
    const mio = apiClient(runtime, token);
    expect((await mio.get('/public/v1/me')).status).toBe(200);
    const disabled = await admin.request('PATCH', `/api/v1/users/${userId}`, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body.status).toBe('disabled');
    const refused = await mio.get('/public/v1/me');
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe('This account is disabled.');
    const signIn = await passwordLogin('mio@example.com', 'mio has a newer passphrase');
    expect(signIn.status).toBe(403);
    expect(signIn.body.detail).toContain('disabled');
    await admin.request('PATCH', `/api/v1/users/${userId}`, { disabled: false });
    expect((await mio.get('/public/v1/me')).status).toBe(401);
    expect((await passwordLogin('mio@example.com', 'mio has a newer passphrase')).status).toBe(200);
  });

  it('ending sessions stops every token issued so far; the last administrator cannot be taken away', async () => {
    const token = (await passwordLogin('mio@example.com', 'mio has a newer passphrase')).body.token;
    const mio = apiClient(runtime, token);
    expect((await mio.post(`/api/v1/users/${userId}/revoke-sessions`, {})).status).toBe(200);
    expect((await mio.get('/public/v1/me')).status).toBe(401);
    const me = (await admin.get('/public/v1/me')).body;
    const self = await admin.request('PATCH', `/api/v1/users/${me.id}`, { disabled: true });
    expect(self.status).toBe(403);
  });

  it('guessing is slowed: after 5 failures for one address every attempt answers 429 with Retry-After', async () => {
    await admin.post('/api/v1/users', {
      email: 'target@example.com',
      password: 'target has a long password',
    });
    for (let i = 0; i < 5; i++)
      expect((await passwordLogin('target@example.com', `guess number ${i}!!`)).status).toBe(401);
    const limited = await passwordLogin('target@example.com', 'target has a long password');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.code).toBe('too_many_requests');
    // Another address is not affected.
    expect((await passwordLogin('mio@example.com', 'mio has a newer passphrase')).status).toBe(200);
  });

  it('account changes are in the deployment audit log, without passwords or links', async () => {
    const { entries } = await runtime.services.audit.list({ projectId: deploymentAuditLog, limit: 100 });
    const events = entries.map((e) => e.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'account.create',
        'account.invite',
        'account.save',
        'account.revoke_sessions',
        'account.change_password',
      ]),
    );
    const text = JSON.stringify(entries);
    expect(text).not.toContain('/invitations/');
    expect(text).not.toContain('long password');
    const listed = await admin.get('/api/v1/account-audit-log');
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
  });
});
