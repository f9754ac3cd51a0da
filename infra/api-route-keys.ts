/**
 * The HTTP API's route keys, derived from the route table (decision 0165): not one route resource
 * per table entry, but as few as keep every request at the function of its handler. The table's
 * paths form a tree of segments; a subtree whose routes all belong to one handler becomes
 * `ANY /subtree` (when the subtree's root is a route itself) and `ANY /subtree/{proxy+}` (when it
 * has deeper routes). Only where handlers meet is a path written out (`ANY /path`, or per method
 * when two handlers share one path). The function then finds the route itself, in the same table
 * (shared/http/handler.ts), and answers 404/405 for what the table does not serve.
 *
 * API Gateway picks a full match before a greedy one, and the most specific of each; the
 * requests test/infra/api-routing.test.ts tries reach the handler the table names under
 * every choice among the candidates, so the result does not hang on finer points of that ranking.
 */
import type { Route } from '../shared/http/routes.ts';

/** One route resource of the HTTP API: the route key and the handler module whose function serves it. */
export interface ApiRouteKey {
  key: string;
  handler: string;
}

/** The greedy path variable of a subtree's route key: the function reads the path, not this. */
export const greedySegment = '{proxy+}';

interface Node {
  /** The segment as the table writes it (`actions`, `{actionId}`). */
  segment: string;
  /** The routes whose path ends at this node. */
  own: Route[];
  children: Map<string, Node>;
}

const isVariable = (segment: string) => /^\{[^}]+\}$/.test(segment);

function treeOf(routes: readonly Route[]): Node {
  const root: Node = { segment: '', own: [], children: new Map() };
  for (const route of routes) {
    if (!route.path.startsWith('/'))
      throw new Error(`Route '${route.name}': path '${route.path}' is not absolute.`);
    let node = root;
    for (const segment of route.path.slice(1).split('/')) {
      if (segment === '')
        throw new Error(`Route '${route.name}': path '${route.path}' has an empty segment.`);
      // Variables at one position are one child; API Gateway knows them by position, not name.
      const key = isVariable(segment) ? '{}' : segment;
      let child = node.children.get(key);
      if (!child) {
        child = { segment, own: [], children: new Map() };
        node.children.set(key, child);
      } else if (child.segment !== segment) {
        throw new Error(
          `Route '${route.name}': '${segment}' where other routes name the same variable '${child.segment}'.`,
        );
      }
      node = child;
    }
    node.own.push(route);
  }
  return root;
}

function handlersUnder(node: Node, into = new Set<string>()): Set<string> {
  for (const route of node.own) into.add(route.handler);
  for (const child of node.children.values()) handlersUnder(child, into);
  return into;
}

function keysOf(node: Node, path: string, into: ApiRouteKey[]): ApiRouteKey[] {
  const handlers = handlersUnder(node);
  if (handlers.size === 1) {
    const [handler] = handlers as Set<string> & [string];
    if (node.own.length > 0) into.push({ key: `ANY ${path}`, handler });
    if (node.children.size > 0) into.push({ key: `ANY ${path}/${greedySegment}`, handler });
    return into;
  }
  const ownHandlers = new Set(node.own.map((route) => route.handler));
  if (ownHandlers.size === 1) into.push({ key: `ANY ${path}`, handler: node.own[0]!.handler });
  else for (const route of node.own) into.push({ key: `${route.method} ${path}`, handler: route.handler });
  for (const child of node.children.values()) keysOf(child, `${path}/${child.segment}`, into);
  return into;
}

/**
 * The route keys for the deployable routes of a table, the catch-all `$default` last. `routes`
 * must hold exactly one `$default` entry (the handler of everything else).
 */
export function apiRouteKeys(routes: readonly Route[]): ApiRouteKey[] {
  const fallback = routes.filter((route) => route.path === '$default');
  if (fallback.length !== 1) throw new Error('The route table needs exactly one $default route.');
  const root = treeOf(routes.filter((route) => route.path !== '$default'));
  const keys = [...root.children.values()].flatMap((child) => keysOf(child, `/${child.segment}`, []));
  return [...keys, { key: '$default', handler: fallback[0]!.handler }];
}
