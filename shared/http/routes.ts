/**
 * The single source of truth for HTTP routes. The CDK stack makes one HTTP
 * API route and one Lambda function per entry from it; the embedded runtime
 * registers the same entries on its Node server and calls the same handlers.
 *
 * `handler` names the module `functions/<handler>.ts`, which exports `handler`.
 */
export type AuthKind =
  /** Anyone may call. */
  | 'none'
  /** `Authorization: Bearer <Dogu token>`. */
  | 'bearer'
  /** Only from a loopback address, and only when the runtime enables it (embedded runtime). */
  | 'loopback';

export interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
  /** API Gateway path syntax: `{name}` matches one path segment. `$default` catches the rest. */
  path: string;
  handler: string;
  auth: AuthKind;
  /** Routes that exist only in the embedded runtime are not deployed to AWS. */
  localOnly?: boolean;
}

export const routes = [
  { name: 'health', method: 'GET', path: '/healthz', handler: 'health', auth: 'none' },
  {
    name: 'executeAction',
    method: 'POST',
    path: '/public/v1/projects/{projectId}/environments/{environmentId}/actions/{actionId}/executions',
    handler: 'execute-action',
    auth: 'bearer',
  },
  {
    name: 'getExecution',
    method: 'GET',
    path: '/public/v1/projects/{projectId}/environments/{environmentId}/executions/{executionId}',
    handler: 'get-execution',
    auth: 'bearer',
  },
  { name: 'whoAmI', method: 'GET', path: '/public/v1/me', handler: 'who-am-i', auth: 'bearer' },
  {
    name: 'localLogin',
    method: 'POST',
    path: '/local/v1/login',
    handler: 'local-login',
    auth: 'loopback',
    localOnly: true,
  },
  { name: 'notFound', method: 'ANY', path: '$default', handler: 'not-found', auth: 'none' },
] as const satisfies readonly Route[];

export type RouteName = (typeof routes)[number]['name'];

export function routeNamed(name: RouteName): Route {
  return routes.find((r) => r.name === name)!;
}

/** `METHOD /path` as API Gateway writes route keys. */
export const routeKeyOf = (route: Route) =>
  route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
