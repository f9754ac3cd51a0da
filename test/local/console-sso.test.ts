/** Console SSO against the embedded runtime's development IdP: code + PKCE, session cookie, CSRF, logout. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { Browser } from '../support/browser.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
const browser = new Browser();

beforeAll(async () => {
  dataDir = await tempDir('console-sso');
  runtime = await startTestRuntime(dataDir.path);
});
afterAll(async () => {
  await runtime?.close();
  await dataDir?.remove();
});

describe('console SSO', () => {
  let csrfToken: string;

  it('/auth/login → IdP → /auth/callback sets an HttpOnly SameSite session cookie', async () => {
    const start = await browser.request(`${runtime.url}/auth/login`);
    expect(start.response.status).toBe(302);
    const authUrl = new URL(start.location!);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('state')).toBeTruthy();
    expect(authUrl.searchParams.get('nonce')).toBeTruthy();

    const callback = await browser.signIn(authUrl.href, 'admin@dogu.local', authUrl.origin);
    expect(callback.startsWith(`${runtime.url}/auth/callback?`)).toBe(true);
    const done = await browser.request(callback);
    expect(done.response.status).toBe(302);
    expect(done.location).toBe(`${runtime.url}/`);
    const setCookie = done.response.headers.getSetCookie().find((c) => c.startsWith('dogu_session='))!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    // Plain-http loopback (embedded runtime) only: no Secure attribute (docs/decisions/0014).
    expect(setCookie).not.toMatch(/Secure/);
  });

  it('a callback without the login cookie (another browser) is refused', async () => {
    const other = new Browser();
    const start = await other.request(`${runtime.url}/auth/login`);
    const callback = await other.signIn(start.location!, 'admin@dogu.local', new URL(start.location!).origin);
    const stranger = new Browser();
    expect((await stranger.request(callback)).response.status).toBe(400);
  });

  it('GET with the cookie works and returns the CSRF token', async () => {
    const session = await browser.request(`${runtime.url}/auth/session`);
    expect(session.response.status).toBe(200);
    const body = JSON.parse(session.text);
    expect(body.user).toMatchObject({ kind: 'user', email: 'admin@dogu.local' });
    csrfToken = body.csrfToken;
    expect(csrfToken).toMatch(/^[\w-]{40,}$/);
    const me = await browser.request(`${runtime.url}/public/v1/me`);
    expect(me.response.status).toBe(200);
  });

  it('a POST with the cookie but without X-CSRF-Token is refused with 403; a wrong one too', async () => {
    const without = await browser.request(`${runtime.url}/auth/logout`, { method: 'POST' });
    expect(without.response.status).toBe(403);
    const wrong = await browser.request(`${runtime.url}/auth/logout`, {
      method: 'POST',
      headers: { 'x-csrf-token': 'x'.repeat(csrfToken.length) },
    });
    expect(wrong.response.status).toBe(403);
    expect(browser.cookies.has('dogu_session')).toBe(true);
  });

  it('logout with the CSRF header clears the session, and a copied cookie stops working too', async () => {
    const copied = browser.cookies.get('dogu_session')!;
    const logout = await browser.request(`${runtime.url}/auth/logout`, {
      method: 'POST',
      headers: { 'x-csrf-token': csrfToken },
    });
    expect(logout.response.status).toBe(204);
    expect(browser.cookies.has('dogu_session')).toBe(false);
    expect((await browser.request(`${runtime.url}/auth/session`)).response.status).toBe(401);
    const replayed = await fetch(`${runtime.url}/public/v1/me`, {
      headers: { cookie: `dogu_session=${copied}` },
    });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { detail: string }).detail).toMatch(/session has ended/);
  });

  it('a plain login JWT in the cookie is not a console session', async () => {
    const { token } = await runtime.services.tokens.issue(
      { kind: 'user', id: 'usr_x', email: 'x@example.com', name: 'X' },
      60,
    );
    const response = await fetch(`${runtime.url}/public/v1/me`, {
      headers: { cookie: `dogu_session=${token}` },
    });
    expect(response.status).toBe(401);
  });
});
