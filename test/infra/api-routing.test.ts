/**
 * The HTTP API's route keys cover subtrees of the route table (decision 0165), so each function
 * finds its route itself. Two checks over the synthesized stack:
 * - every request the table serves selects (under API Gateway's documented selection) only route
 *   keys of the function whose handler the table names: literal siblings of a path variable and
 *   every method included, so no request reaches another handler's function;
 * - the real handler modules, invoked as API Gateway invokes them through those keys (route key,
 *   greedy `proxy` parameter), answer as the embedded server does for the same request:
 *   authentication per route (401 without a token, none for public routes), 404/405 for what the
 *   table does not serve, path parameters (400 for a broken escape), the origin proof (decision
 *   0172) on the route found by path, and the audit entry of a change.
 */
import { randomUUID } from 'node:crypto';
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { App } from 'aws-cdk-lib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployableRoutes } from '../../infra/deployable-routes.ts';
import { DoguStack } from '../../infra/dogu-stack.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { matchRoute } from '../../shared/http/route-matcher.ts';
import type { Route } from '../../shared/http/routes.ts';
import { originVerifyHeader, originVerifySecretEnv } from '../../shared/http/viewer-ip.ts';
import { pathParametersOf, selectRouteKeys } from '../support/api-gateway-selection.ts';
import { cdkJsonContext } from '../support/cdk-context.ts';
import { type DeployedRoute, deployedRoutes } from '../support/deployed-routes.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
let keys: DeployedRoute[];

beforeAll(() => {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] },
  });
  const stack = new DoguStack(app, 'Dogu-production', {
    stage: 'production',
    env: { account: '123456789012', region: 'ap-northeast-1' },
  });
  keys = deployedRoutes(stack);
}, 120_000);

/** The literal segments the table has beside a variable at the same place (`preview` beside `{jobId}`). */
function literalSiblings(routes: readonly Route[]): Map<string, Set<string>> {
  const siblings = new Map<string, Set<string>>();
  for (const route of routes) {
    const segments = route.path.split('/');
    segments.forEach((segment, i) => {
      const parent = segments
        .slice(0, i)
        .join('/')
        .replace(/\{[^}]+\}/g, '{}');
      if (!siblings.has(parent)) siblings.set(parent, new Set());
      if (!segment.startsWith('{')) siblings.get(parent)!.add(segment);
    });
  }
  return siblings;
}

/** Paths for a route's path: each variable as a value, and as each literal beside it in the table. */
function samplePaths(path: string, siblings: Map<string, Set<string>>): string[] {
  let paths = [''];
  const segments = path.split('/').slice(1);
  segments.forEach((segment, i) => {
    const parent = `/${segments.slice(0, i).join('/')}`.replace(/\/$/, '').replace(/\{[^}]+\}/g, '{}');
    const values = segment.startsWith('{') ? ['v-1', ...(siblings.get(parent) ?? [])] : [segment];
    paths = paths.flatMap((prefix) => values.map((value) => `${prefix}/${value}`));
  });
  return paths;
}

describe('route keys of the synthesized API', () => {
  it('send every request the table serves to the function of its handler only', () => {
    const routes = deployableRoutes().filter((r) => r.path !== '$default');
    const siblings = literalSiblings(routes);
    let checked = 0;
    for (const route of routes) {
      const paths = samplePaths(route.path, siblings);
      // A path one segment longer, and each shorter prefix: what the table may not serve.
      const around = [...paths.map((p) => `${p}/extra`), ...paths.map((p) => p.replace(/\/[^/]+$/, ''))];
      for (const path of [...paths, ...around].filter((p) => p !== '')) {
        for (const method of methods) {
          const expected = matchRoute(method, path).route;
          const { tier, candidates } = selectRouteKeys(keys, method, path);
          const handlers = [...new Set(candidates.map((c) => c.handler))];
          if (expected.path === '$default' || expected.localOnly) {
            // Not served: whichever function gets it answers as the catch-all does (tested below).
            expect(handlers.length, `${method} ${path}: ${tier}`).toBe(1);
          } else {
            expect(handlers, `${method} ${path} (${expected.name})`).toEqual([expected.handler]);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(routes.length);
  });

  it('leave the local-only routes and unknown paths to $default (the catch-all function)', () => {
    for (const path of ['/local/v1/login', '/demo-api/v1/exchange-rates', '/nothing', '/api/v2/projects']) {
      const selection = selectRouteKeys(keys, 'GET', path);
      expect(selection.tier, path).toBe('default');
      expect(selection.candidates.map((c) => c.handler)).toEqual(['not-found']);
    }
  });
});

describe('handlers invoked through the route keys', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let runtime: LocalRuntime;
  let token: string;

  beforeAll(async () => {
    dir = await tempDir('api-routing');
    runtime = await startTestRuntime(dir.path);
    token = await loginToken(runtime);
  }, 120_000);

  afterAll(async () => {
    await runtime?.close();
    await dir?.remove();
  });

  interface Request {
    method: string;
    path: string;
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
  }

  /**
   * As API Gateway invokes the function of the selected key: its route key and parameters, the raw
   * path. Or, with `functionUrl`, as the execution function URL does (decision 0055): `$default`, no parameters.
   */
  async function throughApiGateway(request: Request, functionUrl = false) {
    const [path, query = ''] = request.path.split('?') as [string, string?];
    const { candidates } = selectRouteKeys(keys, request.method, path);
    const selected = functionUrl ? { key: '$default', handler: 'execute-action' } : candidates[0]!;
    const headers: Record<string, string> = {
      host: functionUrl
        ? 'abc123.lambda-url.ap-northeast-1.on.aws'
        : 'abc123.execute-api.ap-northeast-1.amazonaws.com',
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
    };
    const pathParameters = functionUrl ? undefined : pathParametersOf(selected.key, path);
    const event = {
      version: '2.0',
      routeKey: selected.key,
      rawPath: path,
      rawQueryString: query,
      headers,
      ...(query ? { queryStringParameters: Object.fromEntries(new URLSearchParams(query)) } : {}),
      ...(pathParameters ? { pathParameters } : {}),
      requestContext: {
        accountId: '123456789012',
        apiId: 'abc123',
        domainName: headers.host,
        domainPrefix: 'abc123',
        http: {
          method: request.method,
          path,
          protocol: 'HTTP/1.1',
          sourceIp: '203.0.113.9',
          userAgent: 'test',
        },
        requestId: randomUUID(),
        routeKey: selected.key,
        stage: '$default',
        time: new Date().toUTCString(),
        timeEpoch: Date.now(),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      isBase64Encoded: false,
    } as APIGatewayProxyEventV2;
    const module = (await import(`../../functions/${selected.handler}.ts`)) as {
      handler: (
        event: APIGatewayProxyEventV2,
        context: Context,
      ) => Promise<APIGatewayProxyStructuredResultV2>;
    };
    const context = {
      awsRequestId: randomUUID(),
      functionName: `dogu-${selected.handler}`,
      getRemainingTimeInMillis: () => 30_000,
    } as unknown as Context;
    const result = await module.handler(event, context);
    return {
      key: selected.key,
      handler: selected.handler,
      status: result.statusCode,
      allow: (result.headers?.allow as string | undefined) ?? null,
      body: result.body ? JSON.parse(result.body) : undefined,
    };
  }

  async function throughLocalServer(request: Request) {
    const response = await fetch(`${runtime.url}${request.path}`, {
      method: request.method,
      headers: {
        ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      allow: response.headers.get('allow'),
      body: text ? JSON.parse(text) : undefined,
    };
  }

  const project = '/api/v1/projects/demo';
  const environment = `${project}/environments/development`;

  it('answer as the embedded server does: authentication per route, 404/405, path parameters', async () => {
    const requests: (Request & { status: number; key: string })[] = [
      { method: 'GET', path: '/healthz', status: 200, key: 'ANY /healthz' },
      // A public route behind a greedy key: no token needed.
      { method: 'GET', path: '/idp/.well-known/openid-configuration', status: 200, key: 'ANY /idp/{proxy+}' },
      { method: 'GET', path: '/api/v1/projects', status: 401, key: 'ANY /api/v1/projects' },
      {
        method: 'GET',
        path: '/api/v1/projects',
        token: 'not-a-token',
        status: 401,
        key: 'ANY /api/v1/projects',
      },
      {
        method: 'GET',
        path: `${project}/actions/list-orders/versions`,
        status: 401,
        key: 'ANY /api/v1/projects/{projectId}/actions/{actionId}/versions',
      },
      // Under a greedy key but served by no route: the catch-all's 404, before any authentication (as on $default).
      {
        method: 'GET',
        path: `${project}/members/x/y`,
        status: 404,
        key: 'ANY /api/v1/projects/{projectId}/members/{proxy+}',
      },
      { method: 'DELETE', path: '/healthz', status: 405, key: 'ANY /healthz' },
      { method: 'PATCH', path: project, status: 405, key: 'ANY /api/v1/projects/{projectId}' },
      { method: 'POST', path: '/idp/jwks', status: 405, key: 'ANY /idp/{proxy+}' },
      { method: 'GET', path: '/idp/nothing', status: 404, key: 'ANY /idp/{proxy+}' },
    ];
    const authenticated: (Request & { status: number; key: string })[] = [
      { method: 'GET', path: '/api/v1/projects', status: 200, key: 'ANY /api/v1/projects' },
      {
        method: 'GET',
        path: `${environment}/variables`,
        status: 200,
        key: 'ANY /api/v1/projects/{projectId}/environments/{environmentId}/variables',
      },
      {
        method: 'GET',
        path: `${environment}/variables/NO_SUCH_NAME`,
        status: 404,
        key: 'ANY /api/v1/projects/{projectId}/environments/{environmentId}/variables/{proxy+}',
      },
      {
        method: 'GET',
        path: `${project}/actions/list-orders/versions`,
        status: 200,
        key: 'ANY /api/v1/projects/{projectId}/actions/{actionId}/versions',
      },
      {
        method: 'GET',
        path: `${project}/members/x/y`,
        status: 404,
        key: 'ANY /api/v1/projects/{projectId}/members/{proxy+}',
      },
      {
        method: 'GET',
        path: `${project}/audit-log?limit=1`,
        status: 200,
        key: 'ANY /api/v1/projects/{projectId}/audit-log',
      },
      // A broken escape in a variable of a greedy key: the caller's error, naming the parameter.
      {
        method: 'GET',
        path: `${environment}/variables/%E0`,
        status: 400,
        key: 'ANY /api/v1/projects/{projectId}/environments/{environmentId}/variables/{proxy+}',
      },
    ];
    for (const request of [...requests, ...authenticated.map((r) => ({ ...r, token }))]) {
      const label = `${request.method} ${request.path}${request.token ? ' (token)' : ''}`;
      const aws = await throughApiGateway(request);
      expect(aws.key, label).toBe(request.key);
      expect(aws.status, `${label}: ${JSON.stringify(aws.body)}`).toBe(request.status);
      const local = await throughLocalServer(request);
      expect({ status: aws.status, allow: aws.allow, code: aws.body?.code }, label).toEqual({
        status: local.status,
        allow: local.allow,
        code: local.body?.code,
      });
      if (aws.status === 200 && request.method === 'GET' && !request.path.includes('audit-log')) {
        expect(aws.body, label).toEqual(local.body);
      }
    }
    expect((await throughApiGateway({ method: 'DELETE', path: '/healthz' })).allow).toBe('GET');
    expect(
      (await throughApiGateway({ method: 'GET', path: `${environment}/variables/%E0`, token })).body.detail,
    ).toMatch(/'name'/);
  }, 120_000);

  it('refuse requests without CloudFront’s proof on the route found by path, the IdP documents excepted', async () => {
    const secretArn = 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:OriginVerify-routing';
    const secretsManager = mockClient(SecretsManagerClient);
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(new ResourceNotFoundException({ message: 'no such version', $metadata: {} }))
      .on(GetSecretValueCommand, { SecretId: secretArn, VersionStage: 'AWSCURRENT' })
      .resolves({ SecretString: 'proof-of-cloudfront' });
    process.env[originVerifySecretEnv] = secretArn;
    try {
      const direct = async (method: string, path: string) => {
        const answer = await throughApiGateway({ method, path, token });
        return `${answer.key} ${answer.status} ${answer.body?.code ?? ''}`.trim();
      };
      expect(await direct('GET', '/idp/.well-known/openid-configuration')).toBe('ANY /idp/{proxy+} 200');
      expect(await direct('GET', '/idp/jwks')).toBe('ANY /idp/{proxy+} 200');
      expect(await direct('GET', '/healthz')).toBe('ANY /healthz 403 forbidden');
      expect(await direct('GET', `${environment}/variables/X`)).toBe(
        'ANY /api/v1/projects/{projectId}/environments/{environmentId}/variables/{proxy+} 403 forbidden',
      );
      // Not served, or not even matched: still refused as a direct request first.
      expect(await direct('GET', '/idp/nothing')).toBe('ANY /idp/{proxy+} 403 forbidden');
      expect(await direct('GET', `${environment}/variables/%E0`)).toBe(
        'ANY /api/v1/projects/{projectId}/environments/{environmentId}/variables/{proxy+} 403 forbidden',
      );
      const proven = await throughApiGateway({
        method: 'GET',
        path: `${environment}/variables`,
        token,
        headers: { [originVerifyHeader]: 'proof-of-cloudfront' },
      });
      expect(proven.status).toBe(200);
    } finally {
      delete process.env[originVerifySecretEnv];
      secretsManager.restore();
    }
  }, 60_000);

  it('record an execution through the function URL under its project (audit entry)', async () => {
    const secretArn = 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:OriginVerify-url';
    const secretsManager = mockClient(SecretsManagerClient);
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(new ResourceNotFoundException({ message: 'no such version', $metadata: {} }))
      .on(GetSecretValueCommand, { SecretId: secretArn, VersionStage: 'AWSCURRENT' })
      .resolves({ SecretString: 'proof-of-cloudfront' });
    process.env[originVerifySecretEnv] = secretArn;
    let run: Awaited<ReturnType<typeof throughApiGateway>>;
    try {
      run = await throughApiGateway(
        {
          method: 'POST',
          path: '/public/v1/projects/demo/environments/development/actions/list-orders/executions',
          token,
          body: { arguments: { status: 'shipped', limit: 1 } },
          headers: { [originVerifyHeader]: 'proof-of-cloudfront' },
        },
        true,
      );
    } finally {
      delete process.env[originVerifySecretEnv];
      secretsManager.restore();
    }
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    // Read through the embedded server, which (without the secret configured) asks for no proof.
    const audit = await throughLocalServer({
      method: 'GET',
      path: `${project}/audit-log?event=execution.run`,
      token,
    });
    expect(audit.body.data).toContainEqual(
      expect.objectContaining({
        event: 'execution.run',
        target: { type: 'action', id: 'list-orders' },
        environmentId: 'development',
        details: expect.objectContaining({ executionId: run.body.id }),
      }),
    );
  }, 60_000);

  it('record a change through a greedy key with the parameters of the path (audit entry)', async () => {
    const name = `ROUTED_${Date.now()}`;
    const put = await throughApiGateway({
      method: 'PUT',
      path: `${environment}/variables/${name}`,
      token,
      body: { value: 'through a subtree key' },
    });
    expect(put.key).toBe('ANY /api/v1/projects/{projectId}/environments/{environmentId}/variables/{proxy+}');
    expect(put.status).toBe(201);
    expect(put.body).toEqual({ name, value: 'through a subtree key' });
    const read = await throughLocalServer({ method: 'GET', path: `${environment}/variables/${name}`, token });
    expect(read.body).toEqual({ name, value: 'through a subtree key' });
    const audit = await throughLocalServer({
      method: 'GET',
      path: `${project}/audit-log?event=variable.save`,
      token,
    });
    expect(audit.body.data).toContainEqual(
      expect.objectContaining({
        event: 'variable.save',
        target: { type: 'variable', id: name },
        environmentId: 'development',
        outcome: 'succeeded',
      }),
    );
  }, 60_000);
});
