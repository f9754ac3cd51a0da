/**
 * The answer for a request no route of the table serves: 405 naming the methods when the path
 * exists under another method, else 404. The catch-all function gives it, and so does every
 * function whose API Gateway route key covers a path the table does not serve (decision 0165).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DoguError, notFound } from '../domain/errors.ts';
import { allowedMethods } from './route-matcher.ts';

export function refuseUnservedRequest(event: APIGatewayProxyEventV2, includeLocalOnly: boolean): never {
  const { method, path } = event.requestContext.http;
  // Local-only routes are not deployed to AWS: there they are unknown paths, not other methods.
  const allowed = allowedMethods(path, { includeLocalOnly });
  if (allowed.length > 0) {
    throw new DoguError(
      'method_not_allowed',
      `${method} is not allowed on ${path}; use ${allowed.join(', ')}.`,
      {
        headers: { allow: allowed.join(', ') },
      },
    );
  }
  throw notFound('Route', `${method} ${path}`);
}
