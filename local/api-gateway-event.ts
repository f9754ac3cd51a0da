/**
 * Turns a Node HTTP request into the API Gateway HTTP API event (payload
 * format 2.0) a Lambda handler receives, and writes the handler's result back.
 */
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteMatch } from '../shared/http/route-matcher.ts';
import { routeKeyOf } from '../shared/http/routes.ts';

const textTypes =
  /^(text\/|application\/(json|problem\+json|x-www-form-urlencoded|xml|javascript|yaml)|.*\+json)/i;

export function toApiGatewayEvent(
  request: IncomingMessage,
  body: Buffer,
  url: URL,
  match: RouteMatch,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') {
      cookies = String(value).split(/;\s*/);
      continue;
    }
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    queryStringParameters[name] =
      name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
  }
  // Text that is not valid UTF-8 travels as its bytes (base64), so the handler can refuse it instead
  // of reading U+FFFD where the client sent other bytes.
  const isText = body.length === 0 || (textTypes.test(headers['content-type'] ?? '') && isUtf8(body));
  const now = new Date();
  const routeKey = routeKeyOf(match.route);
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(url.search ? { queryStringParameters } : {}),
    ...(Object.keys(match.pathParameters).length > 0 ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
  };
}

export function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined;
  headers['content-length'] = String(body?.length ?? 0);
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(body);
}
