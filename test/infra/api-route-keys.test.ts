/** The route keys made from a route table (decision 0165), on small tables: no synth. */
import { describe, expect, it } from 'vitest';
import { apiRouteKeys } from '../../infra/api-route-keys.ts';
import { deployableRoutes } from '../../infra/deployable-routes.ts';
import type { Route } from '../../shared/http/routes.ts';

const route = (name: string, method: Route['method'], path: string, handler: string): Route => ({
  name,
  method,
  path,
  handler,
  auth: 'bearer',
});
const fallback = route('notFound', 'ANY', '$default', 'not-found');
const described = (routes: Route[]) =>
  apiRouteKeys([...routes, fallback]).map((k) => `${k.key} → ${k.handler}`);

describe('apiRouteKeys', () => {
  it('gives a subtree of one handler one key for its root and one greedy key below it', () => {
    expect(
      described([
        route('list', 'GET', '/things', 'things'),
        route('get', 'GET', '/things/{id}', 'things'),
        route('put', 'PUT', '/things/{id}', 'things'),
        route('parts', 'GET', '/things/{id}/parts/{part}', 'things'),
        route('health', 'GET', '/healthz', 'health'),
      ]),
    ).toEqual([
      'ANY /things → things',
      'ANY /things/{proxy+} → things',
      'ANY /healthz → health',
      '$default → not-found',
    ]);
  });

  it('writes paths out where handlers meet, and only a greedy key where a subtree has no root route', () => {
    expect(
      described([
        route('list', 'GET', '/a', 'one'),
        route('get', 'GET', '/a/{id}', 'one'),
        route('versions', 'GET', '/a/{id}/versions', 'two'),
        route('version', 'GET', '/a/{id}/versions/{v}', 'two'),
        route('retry', 'POST', '/a/{id}/runs/{at}/retry', 'three'),
      ]),
    ).toEqual([
      'ANY /a → one',
      'ANY /a/{id} → one',
      'ANY /a/{id}/versions → two',
      'ANY /a/{id}/versions/{proxy+} → two',
      'ANY /a/{id}/runs/{proxy+} → three',
      '$default → not-found',
    ]);
  });

  it('keys a path per method where two handlers share it', () => {
    expect(
      described([route('read', 'GET', '/x/{id}', 'reader'), route('write', 'PUT', '/x/{id}', 'writer')]),
    ).toEqual(['GET /x/{id} → reader', 'PUT /x/{id} → writer', '$default → not-found']);
  });

  it('refuses tables API Gateway could not route as written', () => {
    expect(() =>
      apiRouteKeys([route('a', 'GET', '/x/{id}', 'one'), route('b', 'GET', '/x/{name}/y', 'two'), fallback]),
    ).toThrow(/'\{name\}' where other routes name the same variable '\{id\}'/);
    expect(() => apiRouteKeys([route('a', 'GET', '/x//y', 'one'), fallback])).toThrow(/empty segment/);
    expect(() => apiRouteKeys([route('a', 'GET', 'x', 'one'), fallback])).toThrow(/not absolute/);
    expect(() => apiRouteKeys([route('a', 'GET', '/x', 'one')])).toThrow(/exactly one \$default/);
  });

  it('covers the table with fewer keys than routes, every handler reached', () => {
    const table = deployableRoutes();
    const keys = apiRouteKeys(table);
    expect(keys.length).toBeLessThan(table.length);
    expect(new Set(keys.map((k) => k.handler))).toEqual(new Set(table.map((r) => r.handler)));
    expect(new Set(keys.map((k) => k.key)).size).toBe(keys.length);
  });
});
