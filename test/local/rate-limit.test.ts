/**
 * Per-client rate limits through the real HTTP handler of the embedded runtime (decision 0053): the
 * count is per caller across routes, a refusal is 429 Problem Details with Retry-After, other callers
 * and unauthenticated routes are unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let admin: string;
let other: string;
let dir: Awaited<ReturnType<typeof tempDir>>;
const limit = 4;

beforeAll(async () => {
  dir = await tempDir('rate-limit');
  runtime = await startTestRuntime(dir.path, { rateLimitPerMinute: limit });
  admin = await loginToken(runtime);
  other = (
    await runtime.services.tokens.issue(
      { kind: 'user', id: 'usr_colleague', email: 'colleague@example.com', name: 'Colleague' },
      600,
    )
  ).token;
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const get = (path: string, token?: string) =>
  fetch(`${runtime.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('per-client rate limit', () => {
  it('counts one caller across routes and answers 429 with Retry-After once the minute is used up', async () => {
    // A new minute may start during the test; then the count starts again and the test retries once.
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = Math.floor(Date.now() / 60_000);
      const statuses: number[] = [];
      for (const path of ['/public/v1/me', '/api/v1/projects', '/public/v1/me', '/api/v1/projects']) {
        statuses.push((await get(path, admin)).status);
      }
      const refused = await get('/public/v1/me', admin);
      if (Math.floor(Date.now() / 60_000) !== started) continue;
      // The calls above may follow calls of the login in the same minute: all were counted.
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(limit);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = (await refused.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: 429, code: 'too_many_requests', retryAfterSeconds: retryAfter });
      expect(typeof body.title).toBe('string');

      // Another caller still has its own minute, and health needs no caller at all.
      expect((await get('/public/v1/me', other)).status).toBe(200);
      expect((await get('/healthz')).status).toBe(200);
      return;
    }
    throw new Error('Two minute boundaries passed during the test.');
  });
});
