/** The HTTP client against real local HTTP and HTTPS servers. */
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../shared/adapters/http/address-policy.ts';
import { NodeHttpClient, type ResolvedAddress } from '../../shared/adapters/http/node-http-client.ts';
import {
  httpActionOptionsFromEnv,
  httpClientOptionsFromEnv,
} from '../../shared/adapters/http/options-from-env.ts';
import type { HttpActionInput } from '../../shared/connectors/http/definition.ts';
import { buildHttpCall } from '../../shared/connectors/http/http-request.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { HttpCall, HttpCallResult } from '../../shared/domain/ports.ts';
import {
  type ReceivedRequest,
  selfSignedCertificate,
  startHttpServer,
  type TestServer,
  unusedPort,
} from '../support/http-server.ts';

const limits = { timeoutMs: 10_000, maxBodyBytes: 1024 * 1024 };
const options = (extra: Partial<typeof limits> & { signal?: AbortSignal } = {}) => ({
  signal: extra.signal ?? new AbortController().signal,
  ...limits,
  ...extra,
});
const get = (url: string, headers: [string, string][] = []): HttpCall => ({ method: 'GET', url, headers });
const text = (result: HttpCallResult) => Buffer.from(result.body).toString('utf8');

async function failure(run: Promise<unknown>): Promise<DoguError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DoguError);
  return error as DoguError;
}

/** Echoes what it received as JSON, unless the path asks for something else. */
function echo(request: ReceivedRequest, response: import('node:http').ServerResponse) {
  response.setHeader('content-type', 'application/json');
  response.end(
    JSON.stringify({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body.toString('utf8'),
    }),
  );
}

const servers: TestServer[] = [];
const clients: NodeHttpClient[] = [];
async function server(handler: Parameters<typeof startHttpServer>[0], tls?: { key: string; cert: string }) {
  const started = await startHttpServer(handler, tls ? { tls } : {});
  servers.push(started);
  return started;
}
function client(clientOptions: ConstructorParameters<typeof NodeHttpClient>[0] = {}) {
  const created = new NodeHttpClient(clientOptions);
  clients.push(created);
  return created;
}
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
});

describe('NodeHttpClient: requests and responses', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'PURGE'])('sends %s as it is', async (method) => {
    const api = await server(echo);
    const result = await client().send({ method, url: `${api.url}/items/1?x=1`, headers: [] }, options());
    expect(result.status).toBe(200);
    expect(JSON.parse(text(result))).toMatchObject({ method, url: '/items/1?x=1' });
  });

  it('sends HEAD and resolves with the headers and no body', async () => {
    const api = await server((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.setHeader('content-length', '1234');
      response.end();
    });
    const result = await client().send({ method: 'HEAD', url: api.url, headers: [] }, options());
    expect(result.status).toBe(200);
    expect(result.headers['content-length']).toBe('1234');
    expect(result.body).toHaveLength(0);
    expect(api.requests[0]!.method).toBe('HEAD');
  });

  it('sends the headers of the call, repeated ones too, and a default User-Agent and Accept', async () => {
    const api = await server(echo);
    await client().send(
      get(api.url, [
        ['X-Api-Key', 'k'],
        ['X-Tag', 'a'],
        ['x-tag', 'b'],
      ]),
      options(),
    );
    const { rawHeaders, headers } = api.requests[0]!;
    expect(rawHeaders).toEqual(expect.arrayContaining(['X-Api-Key', 'k', 'X-Tag', 'a', 'X-Tag', 'b']));
    expect(headers['user-agent']).toBe('Dogu');
    expect(headers.accept).toBe('*/*');
  });

  it('lets the call set User-Agent and Accept, and ignores framing headers it sets', async () => {
    const api = await server(echo);
    await client().send(
      {
        method: 'POST',
        url: api.url,
        headers: [
          ['User-Agent', 'mine'],
          ['Accept', 'text/csv'],
          ['Content-Length', '999'],
          ['Transfer-Encoding', 'chunked'],
        ],
        body: 'abc',
      },
      options(),
    );
    const { headers, body } = api.requests[0]!;
    expect(headers['user-agent']).toBe('mine');
    expect(headers.accept).toBe('text/csv');
    expect(headers['content-length']).toBe('3');
    expect(headers['transfer-encoding']).toBeUndefined();
    expect(body.toString()).toBe('abc');
  });

  it('returns response headers with lower-case names, repeated ones joined', async () => {
    const api = await server((_request, response) => {
      response.setHeader('X-Custom-Thing', 'A');
      response.setHeader('Set-Cookie', ['a=1', 'b=2']);
      response.end('ok');
    });
    const result = await client().send(get(api.url), options());
    expect(result.headers['x-custom-thing']).toBe('A');
    expect(result.headers['set-cookie']).toBe('a=1, b=2');
    expect(Object.keys(result.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(text(result)).toBe('ok');
  });

  it('resolves with any HTTP status', async () => {
    const api = await server((_request, response) => {
      response.statusCode = 503;
      response.end('down');
    });
    const result = await client().send(get(api.url), options());
    expect(result.status).toBe(503);
    expect(text(result)).toBe('down');
  });

  it('decompresses gzip bodies and drops the encoding headers', async () => {
    const api = await server((_request, response) => {
      response.setHeader('content-encoding', 'gzip');
      response.setHeader('content-type', 'application/json');
      response.end(gzipSync(JSON.stringify({ hello: 'world' })));
    });
    const result = await client().send(get(api.url, [['Accept-Encoding', 'gzip']]), options());
    expect(JSON.parse(text(result))).toEqual({ hello: 'world' });
    expect(result.headers['content-encoding']).toBeUndefined();
    expect(result.headers['content-length']).toBeUndefined();
  });

  it('sends user information of the URL as Basic authentication', async () => {
    const api = await server(echo);
    await client().send(get(api.url.replace('http://', 'http://ann:p%40ss@')), options());
    expect(api.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('ann:p@ss').toString('base64')}`,
    );
  });

  it('reuses kept-alive connections', async () => {
    const api = await server(echo);
    const c = client();
    for (let i = 0; i < 3; i++) await c.send(get(api.url), options());
    expect(api.connections).toBe(1);
  });

  it('retries an idempotent request once when a kept-alive connection turns out closed', async () => {
    // The second request on a connection is dropped unanswered, as when the server closed it idle.
    const api = await server((request, response, raw) => {
      const onThisConnection = api.requests.filter((r) => r.connection === request.connection).length;
      if (onThisConnection > 1) raw.socket.destroy();
      else echo(request, response);
    });
    const c = client();
    await c.send(get(api.url), options());
    const result = await c.send(get(`${api.url}/again`), options());
    expect(result.status).toBe(200);
    expect(api.connections).toBe(2);

    const post = await failure(c.send({ method: 'POST', url: api.url, headers: [], body: 'x' }, options()));
    expect(post.code).toBe('data_source_error');
    expect(post.message).toBe(`The HTTP request to ${api.url} failed: the connection was reset.`);
  });

  it('refuses a URL that is not http(s)', async () => {
    const error = await failure(client().send(get('ftp://127.0.0.1/x'), options()));
    expect(error.code).toBe('bad_request');
  });
});

describe('NodeHttpClient: bodies built by buildHttpCall, as the server receives them', () => {
  const send = async (body: HttpActionInput['body'], method: HttpActionInput['method'] = 'POST') => {
    const api = await server(echo);
    const call = buildHttpCall({
      action: { method, path: '/submit', headers: [], query: [], body },
      connection: { url: api.url, headers: [{ key: 'Authorization', value: 'Bearer {{ authToken }}' }] },
      resolve: (ref) => ({ name: 'Ann "A"', limit: 5, authToken: 't0k' })[ref],
      files: { upload: { name: 'a.csv', contentType: 'text/csv', size: 3, contentBase64: btoa('a,b') } },
    });
    await client().send(call, options());
    return api.requests[0]!;
  };

  it('none', async () => {
    const received = await send({ type: 'none' }, 'GET');
    expect(received.body).toHaveLength(0);
    expect(received.headers['content-length']).toBeUndefined();
    expect(received.headers['transfer-encoding']).toBeUndefined();
    expect(received.headers.authorization).toBe('Bearer t0k');
  });

  it('json', async () => {
    const received = await send({ type: 'json', json: '{"name": {{ name }}, "limit": {{ limit }}}' });
    expect(received.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received.body.toString())).toEqual({ name: 'Ann "A"', limit: 5 });
    expect(received.headers['content-length']).toBe(String(received.body.length));
  });

  it('raw, in UTF-8', async () => {
    const received = await send({ type: 'raw', raw: 'héllo {{ name }}' });
    expect(received.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(received.body.toString('utf8')).toBe('héllo Ann "A"');
    expect(received.headers['content-length']).toBe(String(Buffer.byteLength('héllo Ann "A"')));
  });

  it('x-www-form-urlencoded', async () => {
    const received = await send({
      type: 'x-www-form-urlencoded',
      fields: [{ key: 'name', value: '{{ name }}' }],
    });
    expect(received.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(received.body.toString()).get('name')).toBe('Ann "A"');
  });

  it('form-data with a file', async () => {
    const received = await send({
      type: 'form-data',
      fields: [
        { key: 'name', value: '{{ name }}' },
        { key: 'file', value: '{{ upload }}' },
      ],
    });
    const form = await new Response(received.body, {
      headers: { 'content-type': received.headers['content-type']! },
    }).formData();
    expect(form.get('name')).toBe('Ann "A"');
    const file = form.get('file') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['a.csv', 'text/csv', 'a,b']);
  });

  it('graphql', async () => {
    const received = await send({
      type: 'graphql',
      query: 'query($n: String) { user(name: $n) { id } }',
      variables: '{"n": {{ name }}}',
    });
    expect(received.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received.body.toString())).toEqual({
      query: 'query($n: String) { user(name: $n) { id } }',
      variables: { n: 'Ann "A"' },
    });
  });
});

describe('NodeHttpClient: time-outs, cancellation and network failures', () => {
  it('times out when the server does not answer', async () => {
    const api = await server(() => {});
    const started = performance.now();
    const error = await failure(client().send(get(api.url), options({ timeoutMs: 200 })));
    expect(error.code).toBe('execution_timeout');
    expect(error.message).toBe(`The HTTP request to ${api.url} timed out after 200 ms.`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out when the body stalls, and hangs up', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('part');
    });
    const error = await failure(client().send(get(api.url), options({ timeoutMs: 300 })));
    expect(error.code).toBe('execution_timeout');
    await expect.poll(() => api.abandoned).toBe(1);
  });

  it('stops when the signal aborts', async () => {
    const api = await server(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(client().send(get(api.url), options({ signal: controller.signal })));
    expect(error.code).toBe('execution_timeout');
    expect(error.message).toBe(`The HTTP request to ${api.url} was cancelled: the execution was stopped.`);
  });

  it('does not start with an aborted signal', async () => {
    const api = await server(echo);
    const error = await failure(client().send(get(api.url), options({ signal: AbortSignal.abort() })));
    expect(error.code).toBe('execution_timeout');
    expect(api.requests).toHaveLength(0);
  });

  it('names a refused connection and the origin, never the path, headers or body', async () => {
    const port = await unusedPort();
    const error = await failure(
      client().send(
        {
          method: 'POST',
          url: `http://127.0.0.1:${port}/secret-path?token=t`,
          headers: [['X-Key', 'k3y']],
          body: 'b0dy',
        },
        options(),
      ),
    );
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe(
      `The HTTP request to http://127.0.0.1:${port} failed: the connection was refused.`,
    );
  });

  it('names a host that does not resolve', async () => {
    const resolveHost = () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const error = await failure(
      client({ resolveHost }).send(get('http://no-such-host.invalid/x'), options()),
    );
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe(
      'The HTTP request to http://no-such-host.invalid failed: its host name could not be resolved.',
    );
  });
});

describe('NodeHttpClient: body size limit', () => {
  it('refuses a body whose declared length is over the limit, without reading it', async () => {
    const api = await server((_request, response) => {
      response.setHeader('content-length', String(2048));
      response.end('x'.repeat(2048));
    });
    const error = await failure(client().send(get(api.url), options({ maxBodyBytes: 1024 })));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe(`The response of ${api.url} is larger than the limit of 1024 bytes.`);
  });

  it('stops an endless body at the limit and hangs up', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(16 * 1024, 1);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    const error = await failure(client().send(get(api.url), options({ maxBodyBytes: 64 * 1024 })));
    expect(error.message).toBe(`The response of ${api.url} is larger than the limit of 65536 bytes.`);
    await expect.poll(() => api.abandoned).toBe(1);
  });

  it('applies the limit after decompression', async () => {
    const api = await server((_request, response) => {
      response.setHeader('content-encoding', 'gzip');
      response.end(gzipSync(Buffer.alloc(10 * 1024 * 1024)));
    });
    const error = await failure(client().send(get(api.url), options({ maxBodyBytes: 1024 * 1024 })));
    expect(error.message).toContain('is larger than the limit of 1048576 bytes');
  });

  it('accepts a body of exactly the limit', async () => {
    const api = await server((_request, response) => response.end('x'.repeat(1024)));
    const result = await client().send(get(api.url), options({ maxBodyBytes: 1024 }));
    expect(result.body).toHaveLength(1024);
  });
});

describe('NodeHttpClient: redirects', () => {
  /** /hop/n redirects to /hop/n-1; /hop/0 answers. */
  const chain = (request: ReceivedRequest, response: import('node:http').ServerResponse) => {
    const n = Number(/^\/hop\/(\d+)/.exec(request.url)?.[1] ?? 0);
    if (n === 0) return echo(request, response);
    response.writeHead(302, { location: `/hop/${n - 1}` });
    response.end();
  };

  it('follows up to 5 redirects', async () => {
    const api = await server(chain);
    const result = await client().send(get(`${api.url}/hop/5`), options());
    expect(JSON.parse(text(result)).url).toBe('/hop/0');
    expect(api.requests).toHaveLength(6);
  });

  it('refuses a 6th redirect', async () => {
    const api = await server(chain);
    const error = await failure(client().send(get(`${api.url}/hop/6`), options()));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toBe(`The HTTP request to ${api.url} was redirected more than 5 times.`);
    expect(api.requests).toHaveLength(6);
  });

  it('continues a 303 after POST as GET without the body', async () => {
    const api = await server((request, response) => {
      if (request.url === '/form') {
        response.writeHead(303, { location: '/done' });
        return response.end();
      }
      echo(request, response);
    });
    const result = await client().send(
      { method: 'POST', url: `${api.url}/form`, headers: [['content-type', 'text/plain']], body: 'x' },
      options(),
    );
    expect(JSON.parse(text(result))).toMatchObject({ method: 'GET', url: '/done', body: '' });
    expect(api.requests[1]!.headers['content-type']).toBeUndefined();
  });

  it('keeps the method and body on 307', async () => {
    const api = await server((request, response) => {
      if (request.url === '/old') {
        response.writeHead(307, { location: '/new' });
        return response.end();
      }
      echo(request, response);
    });
    const result = await client().send(
      { method: 'PUT', url: `${api.url}/old`, headers: [], body: 'payload' },
      options(),
    );
    expect(JSON.parse(text(result))).toMatchObject({ method: 'PUT', url: '/new', body: 'payload' });
  });

  it('sends no credentials-bearing headers to another origin', async () => {
    const other = await server(echo);
    const api = await server((_request, response) => {
      response.writeHead(302, { location: `${other.url}/landing` });
      response.end();
    });
    await client().send(
      get(api.url, [
        ['Authorization', 'Bearer t'],
        ['X-Api-Key', 'k'],
        ['Cookie', 'c=1'],
        ['Accept', 'application/json'],
      ]),
      options(),
    );
    expect(api.requests[0]!.headers.authorization).toBe('Bearer t');
    const landed = other.requests[0]!.headers;
    expect(landed.authorization).toBeUndefined();
    expect(landed['x-api-key']).toBeUndefined();
    expect(landed.cookie).toBeUndefined();
    expect(landed.accept).toBe('application/json');
  });

  it('keeps the headers on a redirect within the origin', async () => {
    const api = await server(chain);
    await client().send(get(`${api.url}/hop/1`, [['X-Api-Key', 'k']]), options());
    expect(api.requests[1]!.headers['x-api-key']).toBe('k');
  });

  it('refuses a redirect to another scheme', async () => {
    const api = await server((_request, response) => {
      response.writeHead(301, { location: 'file:///etc/passwd' });
      response.end();
    });
    const error = await failure(client().send(get(api.url), options()));
    expect(error.message).toBe(
      `The HTTP request to ${api.url} was redirected to a file: URL; only http and https redirects are followed.`,
    );
  });

  it('checks every hop against the address rule: a redirect to the metadata address is refused', async () => {
    const api = await server((_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    });
    const error = await failure(client().send(get(api.url), options()));
    expect(error.message).toMatch(/^The HTTP request to http:\/\/169\.254\.169\.254 was refused: /);
  });

  it('returns a redirect without a Location as it is', async () => {
    const api = await server((_request, response) => {
      response.statusCode = 304;
      response.end();
    });
    expect((await client().send(get(api.url), options())).status).toBe(304);
  });
});

describe('NodeHttpClient: address rule (SSRF)', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.1.1:8080/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://100.100.100.200/',
    'https://169.254.169.254/',
  ])('refuses %s before any connection attempt', async (url) => {
    // No clock: an attempted connection to these addresses ends in a time-out or a network error,
    // never in the rule's own words below.
    const error = await failure(client().send(get(url), options()));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toContain(
      'is a link-local or cloud metadata address, which actions may never reach.',
    );
  });

  it('refuses a host name that resolves to the metadata address', async () => {
    const resolveHost = async (): Promise<ResolvedAddress[]> => [{ address: '169.254.169.254', family: 4 }];
    const error = await failure(
      client({ resolveHost }).send(get('http://metadata.google.internal/'), options()),
    );
    expect(error.message).toBe(
      'The HTTP request to http://metadata.google.internal was refused: metadata.google.internal is a link-local or cloud metadata address, which actions may never reach.',
    );
  });

  it('refuses a host name when any of its addresses is forbidden', async () => {
    const api = await server(echo);
    const resolveHost = async (): Promise<ResolvedAddress[]> => [
      { address: '127.0.0.1', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
    await failure(client({ resolveHost }).send(get(`http://mixed.test:${api.port}/`), options()));
    expect(api.requests).toHaveLength(0);
  });

  it('connects to the checked address, resolving once (no second, unchecked lookup)', async () => {
    const api = await server(echo);
    const lookups: string[] = [];
    const resolveHost = async (hostname: string): Promise<ResolvedAddress[]> => {
      lookups.push(hostname);
      // A rebinding DNS server would answer differently the second time.
      return lookups.length === 1
        ? [{ address: '127.0.0.1', family: 4 }]
        : [{ address: '169.254.169.254', family: 4 }];
    };
    const result = await client({ resolveHost }).send(get(`http://api.test:${api.port}/x`), options());
    expect(result.status).toBe(200);
    expect(lookups).toEqual(['api.test']);
    expect(api.requests[0]!.headers.host).toBe(`api.test:${api.port}`);
  });

  it('refuses a host name resolving to a private address with denyPrivateNetworks', async () => {
    const target = await server(echo);
    const resolveHost = async (): Promise<ResolvedAddress[]> => [{ address: '127.0.0.1', family: 4 }];
    // The rule applies to the resolved address, not to how the name looks.
    const error = await failure(
      client({ denyPrivateNetworks: true, resolveHost }).send(
        get(`http://public.test:${target.port}/`),
        options(),
      ),
    );
    expect(error.message).toContain('private networks are denied');
    expect(target.requests).toHaveLength(0);
  });

  it('allows loopback by default', async () => {
    const api = await server(echo);
    expect((await client().send(get(api.url), options())).status).toBe(200);
  });

  it('refuses loopback and private addresses with denyPrivateNetworks', async () => {
    const api = await server(echo);
    const c = client({ denyPrivateNetworks: true });
    for (const url of [api.url, `http://localhost:${api.port}`, 'http://10.0.0.1/', 'http://[::1]/']) {
      const error = await failure(c.send(get(url), options()));
      expect(error.message).toContain(
        'is a loopback or private network address, and private networks are denied here (DOGU_HTTP_DENY_PRIVATE_NETWORKS;',
      );
    }
    expect(api.requests).toHaveLength(0);
  });
});

/**
 * The AWS rule (decision 0058): loopback (the Lambda Runtime API), link-local and metadata addresses
 * are refused even for a data source that allows private networks; private ones only with its opt-in.
 * The private server listens on this machine's unique local IPv6 address (fd00::/8 is private).
 */
describe('HTTP actions on AWS', () => {
  const awsEnv = { AWS_LAMBDA_FUNCTION_NAME: 'dogu-execute-action' };
  const privateAddress = Object.values(networkInterfaces())
    .flat()
    .find((i) => i?.family === 'IPv6' && /^f[cd]/i.test(i.address))?.address;
  let privateServer: import('node:http').Server;
  let privatePort = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    privateServer = createServer((request, response) => {
      hits.push(request.url ?? '');
      if (request.url === '/to-runtime-api') {
        response.writeHead(302, { location: 'http://127.0.0.1:9001/2018-06-01/runtime/invocation/next' });
        response.end();
        return;
      }
      response.end('private ok');
    });
    await new Promise<void>((resolve) => privateServer.listen(0, '::', resolve));
    privatePort = (privateServer.address() as import('node:net').AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => privateServer.close(() => resolve())));
  const resolveHost = async (hostname: string): Promise<ResolvedAddress[]> =>
    hostname === 'intranet.test'
      ? [{ address: privateAddress!, family: 6 }]
      : hostname === 'rebound.test'
        ? [{ address: '127.0.0.1', family: 4 }]
        : [{ address: '203.0.113.7', family: 4 }];

  it('reads the AWS defaults from the environment', () => {
    expect(httpActionOptionsFromEnv(awsEnv)).toEqual({ denyPrivateNetworks: true, denyLoopback: true });
    expect(httpClientOptionsFromEnv(awsEnv)).toEqual({ denyPrivateNetworks: false, denyLoopback: true });
    expect(httpActionOptionsFromEnv({ ...awsEnv, DOGU_HTTP_DENY_PRIVATE_NETWORKS: 'false' })).toEqual({
      denyPrivateNetworks: false,
      denyLoopback: true,
    });
    expect(httpActionOptionsFromEnv({})).toEqual({ denyPrivateNetworks: false });
    // A long job's CodeBuild build (decision 0075) is on AWS too.
    expect(httpActionOptionsFromEnv({ CODEBUILD_BUILD_ID: 'dogu-long-jobs:0f1e' })).toEqual({
      denyPrivateNetworks: true,
      denyLoopback: true,
    });
  });

  it('refuses loopback, link-local and metadata addresses even with the private opt-in', async () => {
    const c = client({ ...httpActionOptionsFromEnv(awsEnv), resolveHost });
    const refused = [
      ['http://127.0.0.1:9001/2018-06-01/runtime/invocation/next', 'is a loopback address'],
      ['http://127.1.2.3/', 'is a loopback address'],
      ['http://[::1]/', 'is a loopback address'],
      ['http://[::ffff:127.0.0.1]/', 'is a loopback address'],
      [`http://rebound.test:${privatePort}/`, 'is a loopback address'],
      ['http://169.254.169.254/latest/meta-data/', 'link-local or cloud metadata'],
      ['http://169.254.170.2/v2/credentials', 'link-local or cloud metadata'],
      ['http://[fd00:ec2::254]/', 'link-local or cloud metadata'],
    ] as const;
    for (const [url, reason] of refused) {
      for (const allowPrivateNetworks of [false, true]) {
        const error = await failure(c.send(get(url), { ...options(), allowPrivateNetworks }));
        expect(error.message, url).toContain(reason);
      }
    }
  });

  it('refuses private addresses unless the data source opts in, and checks every redirect', async () => {
    expect(privateAddress, 'this machine has a unique local IPv6 address').toBeDefined();
    const c = client({ ...httpActionOptionsFromEnv(awsEnv), resolveHost });
    const url = `http://intranet.test:${privatePort}/hello`;
    const refused = await failure(c.send(get(url), options()));
    expect(refused.message).toContain('is a loopback or private network address');
    expect(hits).toEqual([]);
    const allowed = await c.send(get(url), { ...options(), allowPrivateNetworks: true });
    expect(text(allowed)).toBe('private ok');
    // A redirect from an allowed server to the Lambda Runtime API is refused before connecting.
    const redirected = await failure(
      c.send(get(`http://intranet.test:${privatePort}/to-runtime-api`), {
        ...options(),
        allowPrivateNetworks: true,
      }),
    );
    expect(redirected.message).toContain('127.0.0.1 is a loopback address');
    expect(hits).toEqual(['/hello', '/to-runtime-api']);
  });
});

describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.0.1', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata'],
    ['::169.254.169.254', 'metadata'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
    ['fe80::1', 'metadata'],
    ['fe80::1%eth0', 'metadata'],
    ['febf::1', 'metadata'],
    ['127.0.0.1', 'private'],
    ['127.1.2.3', 'private'],
    ['0.0.0.0', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['::1', 'private'],
    ['::', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::253', 'private'],
    ['172.32.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['100.128.0.1', 'public'],
    ['169.255.0.1', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['fec0::1', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('refuses what is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow("'example.com' is not an IP address.");
  });
});

describe('NodeHttpClient: HTTPS', () => {
  let certificate: { key: string; cert: string };
  beforeAll(async () => {
    certificate = await selfSignedCertificate();
  });

  it('refuses a certificate it does not trust, pointing to the extra CA setting', async () => {
    const api = await server(echo, certificate);
    const error = await failure(client().send(get(api.url), options()));
    expect(error.code).toBe('data_source_error');
    expect(error.message).toMatch(
      new RegExp(
        `^The HTTP request to ${api.url} failed: its TLS certificate is not trusted \\(\\w+\\); a private CA can be configured with DOGU_HTTP_EXTRA_CA_FILE\\.$`,
      ),
    );
  });

  it('trusts an extra CA', async () => {
    const api = await server(echo, certificate);
    const c = client({ extraCaPem: certificate.cert });
    const result = await c.send(
      { method: 'POST', url: `${api.url}/secure`, headers: [], body: 'hi' },
      options(),
    );
    expect(JSON.parse(text(result))).toMatchObject({ method: 'POST', url: '/secure', body: 'hi' });
  });

  it('checks the host name against the certificate', async () => {
    const api = await server(echo, certificate);
    const resolveHost = async (): Promise<ResolvedAddress[]> => [{ address: '127.0.0.1', family: 4 }];
    const c = client({ extraCaPem: certificate.cert, resolveHost });
    const error = await failure(c.send(get(`https://other.test:${api.port}/`), options()));
    expect(error.message).toBe(
      `The HTTP request to https://other.test:${api.port} failed: its TLS certificate is not valid for this host name.`,
    );
    expect((await c.send(get(`https://localhost:${api.port}/`), options())).status).toBe(200);
  });
});

describe('httpClientOptionsFromEnv', () => {
  it('reads DOGU_HTTP_DENY_PRIVATE_NETWORKS', () => {
    expect(httpClientOptionsFromEnv({})).toEqual({ denyPrivateNetworks: false });
    expect(httpClientOptionsFromEnv({ DOGU_HTTP_DENY_PRIVATE_NETWORKS: 'true' })).toEqual({
      denyPrivateNetworks: true,
    });
    expect(httpClientOptionsFromEnv({ DOGU_HTTP_DENY_PRIVATE_NETWORKS: '0' })).toEqual({
      denyPrivateNetworks: false,
    });
    expect(() => httpClientOptionsFromEnv({ DOGU_HTTP_DENY_PRIVATE_NETWORKS: 'yes' })).toThrow(
      "DOGU_HTTP_DENY_PRIVATE_NETWORKS must be true or false, not 'yes'.",
    );
  });

  it('reads an extra CA from DOGU_HTTP_EXTRA_CA_PEM', () => {
    expect(httpClientOptionsFromEnv({ DOGU_HTTP_EXTRA_CA_PEM: 'PEM' }).extraCaPem).toBe('PEM');
  });
});

afterAll(() => {
  for (const c of clients) c.close();
});
