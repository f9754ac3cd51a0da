/** Requests through the execution function URL (decision 0055): route parameters from the path, CloudFront only. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { DoguError } from '../../shared/domain/errors.ts';
import { functionUrlPathParameters, isFunctionUrlEvent } from '../../shared/http/function-url.ts';
import { checkOrigin, type OriginProof } from '../../shared/http/origin-proof.ts';
import { routeNamed } from '../../shared/http/routes.ts';
import { originVerifyHeader } from '../../shared/http/viewer-ip.ts';

const event = (
  path: string,
  headers: Record<string, string> = {},
  domain = 'abc.lambda-url.ap-northeast-1.on.aws',
) =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: { domainName: domain, http: { method: 'POST', path, sourceIp: '203.0.113.1' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const route = routeNamed('executeAction');
/** The secret's reading is tested in test/adapters/origin; here only its answer matters. */
const proofOf = (value: string): OriginProof => ({ accepts: async (presented) => presented === value });
const checked = async (e: APIGatewayProxyEventV2, proof: OriginProof | undefined) => {
  await checkOrigin(e, proof);
  return e;
};
const path = '/public/v1/projects/p%201/environments/dev/actions/list-orders/executions';

describe('function URL requests', () => {
  it('are told apart from API Gateway ones', () => {
    expect(isFunctionUrlEvent(event(path))).toBe(true);
    expect(isFunctionUrlEvent({ ...event(path), routeKey: `POST ${route.path}` })).toBe(false);
    expect(isFunctionUrlEvent(event(path, {}, 'abc.execute-api.ap-northeast-1.amazonaws.com'))).toBe(false);
  });

  it('get their path parameters from the route table, decoded', async () => {
    expect(
      functionUrlPathParameters(
        await checked(event(path, { [originVerifyHeader]: 's3cret' }), proofOf('s3cret')),
        route,
      ),
    ).toEqual({
      projectId: 'p 1',
      environmentId: 'dev',
      actionId: 'list-orders',
    });
  });

  it('are refused without CloudFront’s header, with a wrong one, unchecked, or when no secret is configured', async () => {
    const failing: OriginProof = { accepts: async () => Promise.reject(new Error('throttled')) };
    for (const [headers, proof] of [
      [{}, proofOf('s3cret')],
      [{ [originVerifyHeader]: 'guess' }, proofOf('s3cret')],
      [{ [originVerifyHeader]: 's3cret' }, undefined],
      [{ [originVerifyHeader]: 's3cret' }, failing],
    ] as const) {
      const request = await checked(event(path, headers), proof);
      const error = (() => {
        try {
          functionUrlPathParameters(request, route);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(DoguError);
      expect((error as DoguError).code).toBe('forbidden');
    }
  });

  it('answer 404 for a path of another route', async () => {
    const other = '/public/v1/projects/p1/environments/dev/executions/exe_1';
    const request = await checked(event(other, { [originVerifyHeader]: 's3cret' }), proofOf('s3cret'));
    expect(() => functionUrlPathParameters(request, route)).toThrow(/Route/);
  });

  it('are refused when not checked at all (a header alone proves nothing)', () => {
    expect(() => functionUrlPathParameters(event(path, { [originVerifyHeader]: 's3cret' }), route)).toThrow(
      /only through the service URL/,
    );
  });
});

describe('the execute-action function, serving two routes', () => {
  it('finds the route of a function URL request by its path (route key $default), then asks for CloudFront', async () => {
    const { handler } = await import('../../functions/execute-action.ts');
    for (const requestPath of [path, '/mcp/projects/demo/environments/development']) {
      const response = await handler(event(requestPath), {
        awsRequestId: 'req-1',
        getRemainingTimeInMillis: () => 30_000,
      } as never);
      // Without its route found, the answer would be a 500 ("No function serves route $default").
      expect(response.statusCode, requestPath).toBe(403);
      expect(JSON.parse(response.body ?? '{}').detail).toBe(
        'This function answers only through the service URL.',
      );
    }
  });
});
