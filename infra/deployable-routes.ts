/**
 * What of the route table goes to AWS. Everything is derived from
 * shared/http/routes.ts so a new route needs no change here.
 */
import { type Route, routes } from '../shared/http/routes.ts';

/** A handler module name from the route table, e.g. 'execute-action'. */
export type HandlerName = (typeof routes)[number]['handler'];

/** Routes served by API Gateway: every entry except those marked `localOnly`. */
export function deployableRoutes(): Route[] {
  return routes.filter((route: Route) => !route.localOnly);
}

/** Each handler module once, in route-table order; a module may serve several routes. */
export function deployableHandlers(): HandlerName[] {
  return [...new Set(deployableRoutes().map((route) => route.handler as HandlerName))];
}
