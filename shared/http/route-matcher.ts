/** Matches a method and path against the route table, as API Gateway does. */
import { badRequest } from '../domain/errors.ts';
import { type Route, routes } from './routes.ts';

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

const compiled: CompiledRoute[] = routes
  .filter((r) => r.path !== '$default')
  .map((route) => {
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(param[1]!);
        return '([^/]+)';
      })
      .join('/');
    return { route, pattern: new RegExp(`^${source}$`), names };
  });

const fallback = routes.find((r) => r.path === '$default') as Route;

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

export function matchRoute(method: string, path: string): RouteMatch {
  for (const { route, pattern, names } of compiled) {
    if (route.method !== method && route.method !== 'ANY') continue;
    const match = pattern.exec(path);
    if (!match) continue;
    const pathParameters: Record<string, string> = {};
    names.forEach((name, i) => {
      pathParameters[name] = decodePathParameter(name, match[i + 1]!);
    });
    return { route, pathParameters };
  }
  return { route: fallback, pathParameters: {} };
}

/** Methods that some route serves at this path: a 405 names them in `Allow`. */
export function allowedMethods(path: string, options: { includeLocalOnly: boolean }): string[] {
  return compiled
    .filter((c) => c.pattern.test(path) && (options.includeLocalOnly || !c.route.localOnly))
    .map((c) => c.route.method);
}

/** Decoded once, here, as API Gateway does; a broken escape (`%ZZ`) is the caller's error. */
function decodePathParameter(name: string, segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`The path parameter '${name}' is not valid percent-encoded UTF-8.`);
  }
}
