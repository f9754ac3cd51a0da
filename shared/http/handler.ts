/**
 * Wraps a route's business function as an API Gateway (payload 2.0) Lambda
 * handler with middy: structured logging with the request id, authentication
 * by the route's auth kind, JSON body parsing, and Problem Details on error.
 * The same exported handler serves AWS and the embedded runtime.
 */
import { randomUUID } from 'node:crypto';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { logger } from '../commons/logger.ts';
import { badRequest, DoguError, forbidden, unauthorized } from '../domain/errors.ts';
import { inexactNumbersIn } from '../domain/exact-numbers.ts';
import { principalOfBearer } from '../domain/identity/bearer-principal.ts';
import type { Principal } from '../domain/model.ts';
import { tooManyRequests } from '../domain/rate-limit.ts';
import { fieldSentence, readableIssues } from '../domain/readable-issues.ts';
import type { CoreServices } from '../runtime/core-services.ts';
import { type Composition, coreOnly, getServices } from '../runtime/services.ts';
import { recordAudit } from './audit-recording.ts';
import { functionUrlPathParameters, isFunctionUrlEvent } from './function-url.ts';
import { refuseForeignAudience, withOAuthChallenge } from './mcp/oauth-challenge.ts';
import { refuseUnservedRequest } from './not-found.ts';
import { requireCloudFront } from './origin-proof.ts';
import { checkPathParameters } from './path-parameters.ts';
import { problemResponse, toDoguError } from './problem.ts';
import { matchRoute } from './route-matcher.ts';
import { type Route, type RouteName, routeKeyOf, routeNamed } from './routes.ts';
import { principalOfSession, sessionTokenOf } from './session-cookie.ts';

export interface HttpRequest {
  route: Route;
  event: APIGatewayProxyEventV2;
  requestId: string;
  pathParameters: Record<string, string>;
  /** Set when the route's auth kind is 'bearer'. */
  principal: Principal | undefined;
  /** Parses the body as a JSON object: 415 for another Content-Type, 400 for bad JSON. */
  jsonBody(): Record<string, unknown>;
  /** jsonBody() checked against a schema: 422 `invalid_definition` naming every offending field. */
  parseBody<T>(schema: z.ZodType<T>): T;
  /** The principal of a 'bearer' route (set before the route function runs). */
  caller(): Principal;
}

export interface HttpResult {
  status: number;
  body?: unknown;
  /** Sent as it is instead of `body` as JSON (with its own content-type header). */
  text?: string;
  /** Bytes sent as they are (an image, a PDF), base64 in the Lambda result. */
  binary?: Buffer;
  headers?: Record<string, string>;
}

export type RouteFunction<S extends CoreServices = CoreServices> = (
  request: HttpRequest,
  services: S,
) => Promise<HttpResult>;

export function defineHandler<S extends CoreServices = CoreServices>(
  routeName: RouteName,
  run: RouteFunction<NoInfer<S>>,
  composition?: Composition<S>,
) {
  return defineRoutes<S>({ [routeName]: run }, composition);
}

/**
 * One Lambda handler serving several routes of the table; it dispatches on the route key. Its
 * routes see the core services and the groups of `composition` (shared/runtime/services.ts).
 */
export function defineRoutes<S extends CoreServices = CoreServices>(
  functions: Partial<Record<RouteName, RouteFunction<NoInfer<S>>>>,
  composition: Composition<S> = coreOnly as Composition<S>,
) {
  const byKey = new Map(
    Object.entries(functions).map(([name, run]) => {
      const route = routeNamed(name as RouteName);
      return [routeKeyOf(route), { route, run: run! } as Target<S>];
    }),
  );
  // Last resort: a handler about to outlive its function's budget answers 504 Problem Details, not a
  // bare 500. Runs end well before it (their limit sits below the budget, decision 0076).
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>({
    timeoutEarlyInMillis: 1_000,
    timeoutEarlyResponse: () =>
      problemResponse(
        new DoguError('execution_timeout', 'The request ran out of the time the service gives it.'),
        randomUUID(),
      ),
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .handler(async (received, context) => {
      const requestId = received.requestContext?.requestId ?? context.awsRequestId;
      let event = received;
      let target = byKey.get(event.routeKey);
      let services: S | undefined;
      let principal: Principal | undefined;
      const audit = async (status: number, body: unknown) => {
        if (target && services && target.route.method !== 'GET') {
          await recordAudit(services, { route: target.route, event, principal, status, body: body as never });
        }
      };
      try {
        let pathParameters = (event.pathParameters ?? {}) as Record<string, string>;
        if (!target || isFunctionUrlEvent(event)) {
          // API Gateway's route keys cover whole subtrees of the table (decision 0165), and a
          // function URL sends `$default` (function-url.ts): the route is found here, in the same
          // table, by method and path.
          try {
            ({ target, pathParameters } = routeOfPath(event, functions));
          } catch (error) {
            // A path that cannot be matched is refused as a direct request first, as any other.
            await requireCloudFront(event, unserved.route);
            throw error;
          }
        }
        const { route, run } = target;
        // On AWS only requests through CloudFront are served; they alone have a believable viewer address.
        await requireCloudFront(event, route);
        // Through a function URL (decision 0055) the route's parameters come from the path itself.
        if (isFunctionUrlEvent(event)) pathParameters = functionUrlPathParameters(event, route);
        // What the path names, as the table names it, for everything downstream (audit included);
        // the spread keeps the enumerable mark of the origin check (viewer-ip.ts).
        event = { ...event, pathParameters };
        checkPathParameters(pathParameters);
        services = await getServices(composition);
        const authenticated = event;
        principal = await authenticate(route, authenticated, services).catch((error: unknown) => {
          // The MCP endpoint's 401 tells OAuth clients where to sign in (oauth-challenge.ts).
          throw withOAuthChallenge(route, authenticated, error);
        });
        // Per client, not per route: one caller's burst does not use up everyone's share (decision 0053).
        if (principal && services.rateLimiter) {
          const decision = await services.rateLimiter.take(principal.id, services.clock.now().getTime());
          if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
        }
        const caller = principal;
        const result = await run(
          {
            route,
            event,
            requestId,
            pathParameters,
            principal,
            jsonBody: () => parseJsonBody(event),
            parseBody: (schema) => parseWith(schema, parseJsonBody(event)),
            caller: () => caller!,
          },
          services,
        );
        await audit(result.status, result.body);
        if (result.binary) {
          return {
            statusCode: result.status,
            headers: { 'content-type': 'application/octet-stream', ...result.headers },
            body: result.binary.toString('base64'),
            isBase64Encoded: true,
          };
        }
        return {
          statusCode: result.status,
          headers: { 'content-type': 'application/json', ...result.headers },
          body: result.text ?? (result.body === undefined ? '' : JSON.stringify(result.body)),
        };
      } catch (error) {
        const problem = toDoguError(error, requestId);
        if (problem.code === 'internal_error')
          logger.error('unhandled error', { requestId, error: error as Error });
        else logger.info('request refused', { requestId, code: problem.code, status: problem.status });
        const response = problemResponse(problem, requestId);
        await audit(problem.status, JSON.parse(response.body ?? '{}'));
        return response;
      }
    });
}

interface Target<S extends CoreServices> {
  route: Route;
  run: RouteFunction<S>;
}

/** What no route of the table serves gets the catch-all's answer, from whichever function it reached. */
const unserved: Target<CoreServices> = {
  route: routeNamed('notFound'),
  run: async (request, services) => refuseUnservedRequest(request.event, services.settings.localLogin),
};

/** The route of the table at the event's method and path, if this function serves it. */
function routeOfPath<S extends CoreServices>(
  event: APIGatewayProxyEventV2,
  functions: Partial<Record<RouteName, RouteFunction<S>>>,
): { target: Target<S>; pathParameters: Record<string, string> } {
  const match = matchRoute(event.requestContext.http.method, event.rawPath);
  const run = functions[match.route.name as RouteName];
  if (run) return { target: { route: match.route, run }, pathParameters: match.pathParameters };
  if (match.route.path === '$default' || match.route.localOnly) {
    return { target: unserved as Target<S>, pathParameters: {} };
  }
  // API Gateway sent another function's route here: the deployed route keys and the table disagree.
  throw new DoguError(
    'internal_error',
    `Route '${match.route.name}' belongs to the function of '${match.route.handler}', which did not receive it.`,
  );
}

async function authenticate(route: Route, event: APIGatewayProxyEventV2, services: CoreServices) {
  if (route.auth === 'none') return undefined;
  if (route.auth === 'loopback') {
    const ip = event.requestContext.http.sourceIp;
    if (!services.settings.localLogin || !isLoopback(ip)) {
      throw forbidden('This endpoint is available only from the local machine in the embedded runtime.');
    }
    return undefined;
  }
  const header = event.headers.authorization ?? '';
  const session = header ? undefined : sessionTokenOf(event);
  // The web console: its session cookie, with the CSRF check on changes (session-cookie.ts).
  if (session) return stillAllowed(session, await principalOfSession(session, event, services), services);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('An Authorization header with a Bearer token is required.');
  const principal = await principalOfBearer(match[1]!, event.pathParameters?.projectId, {
    ...services.oidc,
    tokens: services.tokens,
    definitions: services.definitions,
  });
  return stillAllowed(match[1]!, principal, services, (claims) =>
    refuseForeignAudience(route, event, claims),
  );
}

/** A user's token stops working when the account is disabled or its sessions were ended (user-access.ts). */
async function stillAllowed(
  token: string,
  principal: Principal,
  services: CoreServices,
  checkAudience: (claims: Record<string, unknown>) => void = () => {},
): Promise<Principal> {
  if (principal.kind !== 'user') return principal;
  const { claims } = await services.tokens.verifyWithClaims(token);
  checkAudience(claims);
  await services.accounts.access.check(principal, claims);
  return principal;
}

const isLoopback = (ip: string) => ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');

function parseJsonBody(event: APIGatewayProxyEventV2): Record<string, unknown> {
  const contentType = (event.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw new DoguError(
      'unsupported_media_type',
      contentType
        ? `Content-Type '${contentType}' is not supported; send application/json.`
        : 'Send the body as application/json.',
    );
  }
  const text = event.isBase64Encoded
    ? strictUtf8(Buffer.from(event.body ?? '', 'base64'))
    : (event.body ?? '');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The body is not valid JSON: ${(error as Error).message}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('The body must be a JSON object.');
  }
  refuseInexactNumbers(text);
  return parsed as Record<string, unknown>;
}

/** JSON is UTF-8 (RFC 8259): other bytes are refused, not read as U+FFFD into names and values. */
function strictUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('The body is not valid UTF-8; JSON must be sent as UTF-8.');
  }
}

/** Decision 0025: a number that would not be kept exactly is refused here, for every body. */
function refuseInexactNumbers(text: string): void {
  const inexact = inexactNumbersIn(text);
  if (inexact.length === 0) return;
  const errors = inexact.map((n) => ({ pointer: `#${n.pointer}`, detail: `${n.literal} ${n.problem}` }));
  const inArguments = inexact.every((n) => n.pointer.startsWith('/arguments/'));
  throw new DoguError(
    inArguments ? 'argument_invalid' : 'invalid_definition',
    errors.length === 1
      ? `${errors[0]!.pointer}: ${errors[0]!.detail}`
      : `${errors.length} numbers would not be kept exactly: ${errors.map((e) => e.pointer).join(', ')}.`,
    { errors },
  );
}

function parseWith<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors = readableIssues(result.error.issues, body);
  throw new DoguError(
    'invalid_definition',
    errors.length === 1 ? fieldSentence(errors[0]!) : `${errors.length} fields are invalid.`,
    { errors },
  );
}
