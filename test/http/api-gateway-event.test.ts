/** The embedded runtime's Node request → API Gateway payload 2.0 event conversion. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toApiGatewayEvent, writeResult } from '../../local/api-gateway-event.ts';
import { matchRoute } from '../../shared/http/route-matcher.ts';

let url: string;
let lastEvent: APIGatewayProxyEventV2;
const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const parsed = new URL(request.url ?? '/', 'http://localhost');
  lastEvent = toApiGatewayEvent(
    request,
    Buffer.concat(chunks),
    parsed,
    matchRoute(request.method!, parsed.pathname),
  );
  writeResult(response, {
    statusCode: 201,
    headers: { 'x-test': 'yes' },
    cookies: ['a=1', 'b=2'],
    body: Buffer.from([0, 1, 2]).toString('base64'),
    isBase64Encoded: true,
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('toApiGatewayEvent', () => {
  it('builds a payload 2.0 event with route key, path parameters, query and headers', async () => {
    const response = await fetch(
      `${url}/public/v1/projects/demo/environments/dev/actions/a1/executions?x=1&x=2&y=z`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-Custom': 'v', cookie: 'session=abc; theme=dark' },
        body: '{"arguments":{}}',
      },
    );
    expect(lastEvent).toMatchObject({
      version: '2.0',
      routeKey:
        'POST /public/v1/projects/{projectId}/environments/{environmentId}/actions/{actionId}/executions',
      rawPath: '/public/v1/projects/demo/environments/dev/actions/a1/executions',
      rawQueryString: 'x=1&x=2&y=z',
      queryStringParameters: { x: '1,2', y: 'z' },
      pathParameters: { projectId: 'demo', environmentId: 'dev', actionId: 'a1' },
      cookies: ['session=abc', 'theme=dark'],
      body: '{"arguments":{}}',
      isBase64Encoded: false,
      requestContext: { http: { method: 'POST', sourceIp: '127.0.0.1' }, stage: '$default' },
    });
    expect(lastEvent.headers['x-custom']).toBe('v');
    expect(lastEvent.headers.cookie).toBeUndefined();
    expect(lastEvent.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);

    // …and writes the handler's result back, decoding base64 and setting cookies.
    expect(response.status).toBe(201);
    expect(response.headers.get('x-test')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0, 1, 2]);
  });

  it('base64-encodes a binary body', async () => {
    await fetch(`${url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array([255, 0, 1]),
    });
    expect(lastEvent.isBase64Encoded).toBe(true);
    expect(Buffer.from(lastEvent.body!, 'base64')).toEqual(Buffer.from([255, 0, 1]));
    expect(lastEvent.routeKey).toBe('$default');
  });
});
