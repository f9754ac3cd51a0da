/**
 * Invocations through a Lambda function URL behind CloudFront (decision 0055): the synchronous
 * execution route on AWS, so a run may use the spec's full minute (API Gateway stops at 30 s). A
 * function URL sends the same payload 2.0 event as the HTTP API, but with route key `$default` and
 * no path parameters: they are matched here from the route table, so handlers see the same request.
 * The URL is public (auth type NONE: with IAM, CloudFront's signing would make every POST client
 * send a body hash); only requests that carry CloudFront's origin header are served.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { forbidden, notFound } from '../domain/errors.ts';
import { matchRoute } from './route-matcher.ts';
import type { Route } from './routes.ts';
import { cameThroughCloudFront } from './viewer-ip.ts';

export const isFunctionUrlEvent = (event: APIGatewayProxyEventV2) =>
  event.routeKey === '$default' && /\.lambda-url\./.test(event.requestContext?.domainName ?? '');

/**
 * The path parameters of `route` from a function URL request that came through CloudFront (its
 * origin proof was accepted: shared/http/origin-proof.ts).
 */
export function functionUrlPathParameters(
  event: APIGatewayProxyEventV2,
  route: Route,
): Record<string, string> {
  if (!cameThroughCloudFront(event)) {
    throw forbidden('This function answers only through the service URL.');
  }
  const match = matchRoute(event.requestContext.http.method, event.rawPath);
  if (match.route.name !== route.name)
    throw notFound('Route', `${event.requestContext.http.method} ${event.rawPath}`);
  return match.pathParameters;
}
