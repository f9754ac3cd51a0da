/**
 * The web console's session: an HttpOnly cookie holding a Dogu login JWT with
 * a `csrf` claim. Requests authenticated by the cookie that change state must
 * send `X-CSRF-Token` equal to that claim (the console reads it from
 * GET /auth/session); a cross-site page can neither read the claim nor set the
 * header. See docs/decisions/0014-sso-and-cli-login.md.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { forbidden, unauthorized } from '../domain/errors.ts';
import type { Principal } from '../domain/model.ts';
import type { CoreServices } from '../runtime/core-services.ts';

export const sessionCookieNames = { secure: '__Host-dogu_session', plain: 'dogu_session' };
export const flowCookieName = 'dogu_sso_flow';
export const csrfHeader = 'x-csrf-token';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Cookies of a payload 2.0 event (API Gateway puts them in `cookies`, not in a header). */
export function cookiesOf(event: APIGatewayProxyEventV2): Map<string, string> {
  const pairs = event.cookies ?? (event.headers.cookie ? event.headers.cookie.split(/;\s*/) : []);
  const cookies = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return cookies;
}

/** The origin the browser sees: DOGU_PUBLIC_URL, else https for any host but loopback (the embedded runtime). */
export function requestOrigin(event: APIGatewayProxyEventV2, env: NodeJS.ProcessEnv = process.env): string {
  if (env.DOGU_PUBLIC_URL) return new URL(env.DOGU_PUBLIC_URL).origin;
  const host = event.headers.host ?? event.requestContext.domainName;
  const hostname = host.replace(/:\d+$/, '');
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
  const proto = event.headers['x-forwarded-proto'] ?? (loopback ? 'http' : 'https');
  return `${proto}://${host}`;
}

/**
 * Cookie attributes: always HttpOnly and SameSite=Lax; Secure (with the `__Host-` prefix) on
 * https. Only the embedded runtime on plain-http loopback omits Secure, because a browser
 * would not send a Secure cookie back over http://127.0.0.1 reliably.
 */
export function cookie(
  event: APIGatewayProxyEventV2,
  base: keyof typeof sessionCookieNames | 'flow',
  value: string,
  options: { maxAgeSeconds: number; path?: string },
): string {
  const secure = requestOrigin(event).startsWith('https:');
  const name =
    base === 'flow' ? flowCookieName : secure ? sessionCookieNames.secure : sessionCookieNames.plain;
  const attributes = [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

export function sessionTokenOf(event: APIGatewayProxyEventV2): string | undefined {
  const cookies = cookiesOf(event);
  return cookies.get(sessionCookieNames.secure) ?? cookies.get(sessionCookieNames.plain);
}

/** The principal of a session cookie; state-changing methods must carry the CSRF header. */
export async function principalOfSession(
  token: string,
  event: APIGatewayProxyEventV2,
  services: CoreServices,
): Promise<Principal> {
  const { principal, claims } = await services.tokens.verifyWithClaims(token);
  const csrf = claims.csrf;
  if (typeof csrf !== 'string' || principal.kind !== 'user') {
    throw unauthorized('The session cookie is not a console session.');
  }
  if (await sessionEnded(services, csrf)) throw unauthorized('The session has ended; sign in again.');
  if (!safeMethods.has(event.requestContext.http.method.toUpperCase())) {
    const sent = Buffer.from(event.headers[csrfHeader] ?? '');
    const expected = Buffer.from(csrf);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      throw forbidden('A request authenticated by the session cookie must send the X-CSRF-Token header.');
    }
  }
  return principal;
}

/**
 * Logout ends the session for good, not only in this browser: a copy of the cookie stops working
 * too. The session's random `csrf` claim names it; an ended session is a marker in the store.
 */
const endedMarker = (csrf: string) =>
  `session-ended:${createHash('sha256').update(csrf).digest('base64url')}`;
/** Sessions seen to be live, and when: another container's logout is seen within this time. */
const liveFor = 10_000;
const seenLive = new Map<string, number>();
const seenEnded = new Set<string>();

async function sessionEnded(services: CoreServices, csrf: string): Promise<boolean> {
  const marker = endedMarker(csrf);
  if (seenEnded.has(marker)) return true;
  const checkedAt = seenLive.get(marker);
  const now = services.clock.now().getTime();
  if (checkedAt !== undefined && now - checkedAt < liveFor) return false;
  if (await services.coordination.hasMarker(marker)) {
    seenEnded.add(marker);
    seenLive.delete(marker);
    return true;
  }
  if (seenLive.size >= 10_000) seenLive.clear();
  seenLive.set(marker, now);
  return false;
}

export async function endSession(services: CoreServices, token: string): Promise<void> {
  const { claims } = await services.tokens.verifyWithClaims(token);
  if (typeof claims.csrf !== 'string') return;
  const marker = endedMarker(claims.csrf);
  await services.coordination.claimMarker(marker, services.clock.now().toISOString());
  seenEnded.add(marker);
  seenLive.delete(marker);
}
