/**
 * The 4xx answers an operation can give, documented from what every handler shares
 * (shared/http/handler.ts): parsing, authentication, authorisation, lookups and body checks.
 */
import type { ZodOpenApiContentObject, ZodOpenApiResponseObject } from 'zod-openapi';
import type { Route } from './routes.ts';

export interface OperationShape {
  hasBody: boolean;
  hasPathParameters: boolean;
}

export function errorResponsesOf(
  route: Route,
  shape: OperationShape,
  content: ZodOpenApiContentObject,
): Record<string, ZodOpenApiResponseObject> {
  const answer = (description: string): ZodOpenApiResponseObject => ({ description, content });
  if (route.name === 'exchangeToken') {
    return {
      '400': answer('invalid_request, unsupported_grant_type or invalid_target'),
      '401': answer('invalid_client: no trust policy accepts the subject token'),
      '403': answer('access_denied: the service account is disabled'),
      '429': answer('slow_down: too many exchanges (see Retry-After)'),
    };
  }
  return {
    '400': answer('The request is malformed: JSON, query or path'),
    ...(route.auth === 'bearer'
      ? {
          '401': answer('No valid token or session: missing, expired or revoked'),
          '403': answer("The caller's role does not allow this"),
          // Per-client limit over all routes (decision 0053), when the deployment sets one.
          '429': answer(
            route.name === 'executeAction'
              ? 'too_many_requests: this client made too many requests this minute, or (with `source.viewId`) this viewer ran actions from that view more often than `limitPerMinute` this minute (decision 0151); see Retry-After'
              : 'too_many_requests: this client made too many requests this minute (see Retry-After)',
          ),
        }
      : {}),
    ...(route.auth === 'loopback'
      ? { '403': answer('Only from a loopback address of the embedded runtime') }
      : {}),
    ...(shape.hasPathParameters ? { '404': answer('A resource named in the path does not exist') } : {}),
    ...(shape.hasBody
      ? {
          '413': answer('The body is too large'),
          '415': answer('The body is not application/json'),
          '422': answer('The body does not fit the schema: `errors` names each field'),
        }
      : {}),
  };
}
