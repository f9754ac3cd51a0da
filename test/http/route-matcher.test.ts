import { describe, expect, it } from 'vitest';
import { allowedMethods, matchRoute } from '../../shared/http/route-matcher.ts';
import { routeKeyOf, routes } from '../../shared/http/routes.ts';

describe('route table', () => {
  it('has unique names and route keys, and a handler module for every entry', async () => {
    expect(new Set(routes.map((r) => r.name)).size).toBe(routes.length);
    expect(new Set(routes.map(routeKeyOf)).size).toBe(routes.length);
    for (const route of routes) {
      const module = await import(`../../functions/${route.handler}.ts`);
      expect(typeof module.handler, route.handler).toBe('function');
    }
  });
});

describe('matchRoute', () => {
  it('extracts and decodes path parameters', () => {
    const match = matchRoute(
      'POST',
      '/public/v1/projects/demo/environments/dev%20one/actions/list-orders/executions',
    );
    expect(match.route.name).toBe('executeAction');
    expect(match.pathParameters).toEqual({
      projectId: 'demo',
      environmentId: 'dev one',
      actionId: 'list-orders',
    });
  });

  it('matches whole segments only', () => {
    expect(matchRoute('POST', '/public/v1/projects/a/b/environments/e/actions/x/executions').route.name).toBe(
      'notFound',
    );
    expect(matchRoute('GET', '/healthz/').route.name).toBe('notFound');
  });

  it('falls back to the default route for another method', () => {
    expect(matchRoute('GET', '/public/v1/projects/p/environments/e/actions/a/executions').route.name).toBe(
      'notFound',
    );
    const path = '/public/v1/projects/p/environments/e/actions/a/executions';
    expect(allowedMethods(path, { includeLocalOnly: false })).toEqual(['POST']);
    expect(allowedMethods('/nothing', { includeLocalOnly: true })).toEqual([]);
  });

  it('counts local-only routes only where they are served', () => {
    expect(allowedMethods('/local/v1/login', { includeLocalOnly: true })).toEqual(['POST']);
    expect(allowedMethods('/local/v1/login', { includeLocalOnly: false })).toEqual([]);
  });

  it("refuses a malformed escape as the caller's error (400 naming the parameter), not later as a 500", () => {
    const refusal = (() => {
      try {
        matchRoute('GET', '/public/v1/projects/%E0/environments/e/executions/x');
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toMatchObject({
      code: 'bad_request',
      message: "The path parameter 'projectId' is not valid percent-encoded UTF-8.",
    });
  });
});
