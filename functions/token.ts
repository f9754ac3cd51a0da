/**
 * POST /public/v1/token (spec 4.1): token exchange. Its errors are OAuth
 * errors (spec 7.1: exactly `error` and `error_description`), not Problem
 * Details, so this function answers every failure itself and never lets one
 * reach the shared wrapper.
 */
import { logger } from '../shared/commons/logger.ts';
import { exchangeToken, TokenEndpointError } from '../shared/domain/identity/token-exchange.ts';
import { originOf } from '../shared/http/audit-recording.ts';
import { defineHandler, type HttpRequest, type HttpResult } from '../shared/http/handler.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';

/** Request bodies bigger than this are refused before parsing (400 invalid_request: spec 7.1 has no 413). */
export const maxTokenRequestBytes = 64 * 1024;

const invalidRequest = (status: 400 | 415, description: string) =>
  new TokenEndpointError(status, 'invalid_request', description);

function parseBody(request: HttpRequest): unknown {
  const { event } = request;
  const contentType = (event.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw invalidRequest(415, 'Content-Type must be application/json.');
  }
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '');
  if (raw.length > maxTokenRequestBytes) throw invalidRequest(400, 'The request body is too large.');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidRequest(400, 'The request body is not valid JSON.');
  }
}

function errorResult(error: TokenEndpointError): HttpResult {
  return {
    status: error.status,
    body: { error: error.error, error_description: error.description },
    headers: {
      'cache-control': 'no-store',
      ...(error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) }),
    },
  };
}

export async function exchange(request: HttpRequest, services: CoreServices): Promise<HttpResult> {
  try {
    const body = parseBody(request);
    const response = await exchangeToken(
      body,
      {
        ...services.oidc,
        tokens: services.tokens,
        audit: services.audit,
        clock: services.clock,
        ids: services.ids,
      },
      originOf(request.event),
    );
    // RFC 6749 5.1: token responses must not be cached.
    return { status: 200, body: response, headers: { 'cache-control': 'no-store' } };
  } catch (error) {
    if (error instanceof TokenEndpointError) {
      logger.info('token exchange refused', { requestId: request.requestId, error: error.error });
      return errorResult(error);
    }
    logger.error('token exchange failed', { requestId: request.requestId, error: error as Error });
    return errorResult(new TokenEndpointError(500, 'server_error', 'An unexpected error occurred.'));
  }
}

export const handler = defineHandler('exchangeToken', exchange);
