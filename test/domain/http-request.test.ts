import { describe, expect, it } from 'vitest';
import type { HttpActionInput, HttpConnection } from '../../shared/connectors/http/definition.ts';
import { buildHttpCall, type HttpCallInput } from '../../shared/connectors/http/http-request.ts';
import type { FileValue } from '../../shared/domain/definitions/parameter.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { HttpCall } from '../../shared/domain/ports.ts';

type ActionPart = HttpCallInput['action'];

const baseValues: Record<string, unknown> = {
  id: '42',
  limit: 10,
  missing: null,
  empty: '',
  name: 'Ann',
  'vars.region': 'ap-northeast-1',
  'secrets.apiKey': 'k3y',
  authToken: 'tok-123',
  'currentUser.email': 'ann@example.com',
};

const csv: FileValue = {
  name: 'orders.csv',
  contentType: 'text/csv',
  size: 11,
  contentBase64: Buffer.from('id,total\n1,2').toString('base64'),
};

function build(
  action: Partial<ActionPart> = {},
  options: {
    connection?: Partial<HttpConnection>;
    values?: Record<string, unknown>;
    files?: Record<string, FileValue>;
  } = {},
): HttpCall {
  const values = { ...baseValues, ...options.values };
  return buildHttpCall({
    action: { method: 'GET', path: '', headers: [], query: [], body: { type: 'none' }, ...action },
    connection: { url: 'https://api.example.com', ...options.connection },
    resolve: (ref) => {
      if (!(ref in values)) throw new DoguError('bad_request', `Unknown reference '{{ ${ref} }}'.`);
      return values[ref];
    },
    ...(options.files ? { files: options.files } : {}),
  });
}

function failure(run: () => unknown): DoguError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DoguError);
    return error as DoguError;
  }
  throw new Error('expected a DoguError');
}

const header = (call: HttpCall, name: string) =>
  call.headers.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);

const bodyText = (call: HttpCall) =>
  typeof call.body === 'string' ? call.body : new TextDecoder().decode(call.body);

describe('buildHttpCall: URL', () => {
  it.each([
    ['https://api.example.com', '/items', 'https://api.example.com/items'],
    ['https://api.example.com/', '/items', 'https://api.example.com/items'],
    ['https://api.example.com/v1', '/items', 'https://api.example.com/v1/items'],
    ['https://api.example.com/v1/', '/items', 'https://api.example.com/v1/items'],
    ['https://api.example.com/v1', 'items', 'https://api.example.com/v1/items'],
    ['https://api.example.com/v1', '', 'https://api.example.com/v1'],
    ['https://api.example.com:8443/v1', '/items/', 'https://api.example.com:8443/v1/items/'],
    ['http://127.0.0.1:3000', '/a b', 'http://127.0.0.1:3000/a%20b'],
  ])('%s + %s → %s', (base, path, expected) => {
    expect(build({ path }, { connection: { url: base } }).url).toBe(expected);
  });

  it('does not send a query string or fragment written in the path (spec 2.5)', () => {
    expect(build({ path: '/items?secret=1&x={{ id }}#frag' }).url).toBe('https://api.example.com/items');
    expect(build({ path: '/items#frag' }).url).toBe('https://api.example.com/items');
  });

  it('encodes each path reference as the content of one segment', () => {
    const url = (id: unknown) => build({ path: '/items/{{ id }}/detail' }, { values: { id } }).url;
    expect(url('42')).toBe('https://api.example.com/items/42/detail');
    expect(url('a/b')).toBe('https://api.example.com/items/a%2Fb/detail');
    expect(url('../../admin')).toBe('https://api.example.com/items/..%2F..%2Fadmin/detail');
    expect(url('a b?c#d&e')).toBe('https://api.example.com/items/a%20b%3Fc%23d%26e/detail');
    expect(url('café')).toBe('https://api.example.com/items/caf%C3%A9/detail');
    expect(url('%2e%2e')).toBe('https://api.example.com/items/%252e%252e/detail');
    expect(url('..x')).toBe('https://api.example.com/items/..x/detail');
    expect(url(7)).toBe('https://api.example.com/items/7/detail');
  });

  it('puts several references in one segment', () => {
    expect(build({ path: '/v/{{ name }}-{{ id }}.json' }).url).toBe('https://api.example.com/v/Ann-42.json');
  });

  it.each(['..', '.'])('refuses a value that makes a segment %j, naming the parameter', (id) => {
    const error = failure(() => build({ path: '/items/{{ id }}' }, { values: { id } }));
    expect(error.code).toBe('argument_invalid');
    expect(error.message).toBe("A URL path segment cannot be '.' or '..' (from {{ id }}).");
    expect(error.errors).toEqual([
      { pointer: '#/arguments/id', detail: "A URL path segment cannot be '.' or '..'." },
    ]);
  });

  it('refuses a segment made of dots by two references', () => {
    expect(failure(() => build({ path: '/{{ a }}{{ b }}' }, { values: { a: '.', b: '.' } })).code).toBe(
      'argument_invalid',
    );
  });

  it.each([
    '/../admin',
    '/items/../../admin',
    '/%2e%2e/admin',
    '/%2E%2e/admin',
    '/.%2e/admin',
    '/./admin',
    '/items/..\\..\\admin',
    '..',
  ])('refuses an action path %j that would leave the base path', (path) => {
    const error = failure(() =>
      build({ path }, { connection: { url: 'https://api.example.com/v1/tenant-a' } }),
    );
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/^The action path must not contain '\.' or '\.\.' segments/);
  });

  it('keeps dots that are not whole segments', () => {
    expect(
      build({ path: '/files/a..b/.well-known/x.json' }, { connection: { url: 'https://h/v1' } }).url,
    ).toBe('https://h/v1/files/a..b/.well-known/x.json');
  });

  it('sends query parameters in order, templated and encoded, keeping repeated keys', () => {
    const call = build({
      path: '/search',
      query: [
        { key: 'limit', value: '{{ limit }}' },
        { key: 'tag', value: 'a' },
        { key: 'tag', value: 'b&c=d' },
        { key: 'q', value: 'name:{{ name }} region:{{ vars.region }}' },
        { key: 'weird key', value: '100%' },
      ],
    });
    expect(call.url).toBe(
      'https://api.example.com/search?limit=10&tag=a&tag=b%26c%3Dd&q=name%3AAnn%20region%3Aap-northeast-1&weird%20key=100%25',
    );
    expect(new URL(call.url).searchParams.getAll('tag')).toEqual(['a', 'b&c=d']);
  });

  it('keeps the query of the data source URL and appends the action query', () => {
    const call = build(
      { path: '/items', query: [{ key: 'limit', value: '5' }] },
      { connection: { url: 'https://api.example.com/v1?api-version=2024-01-01' } },
    );
    expect(call.url).toBe('https://api.example.com/v1/items?api-version=2024-01-01&limit=5');
  });

  it('leaves out a query parameter whose single reference has no value, but keeps empty text', () => {
    const call = build({
      query: [
        { key: 'limit', value: '{{ missing }}' },
        { key: 'q', value: '{{ empty }}' },
        { key: 'x', value: 'n={{ missing }}' },
      ],
    });
    expect(call.url).toBe('https://api.example.com/?q=&x=n%3D');
  });

  it('refuses a reference in a query parameter name', () => {
    const error = failure(() => build({ query: [{ key: '{{ name }}', value: '1' }] }));
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('query parameter name');
  });

  it('lets an unknown reference fail with the resolver error', () => {
    expect(failure(() => build({ path: '/items/{{ nope }}' })).message).toBe(
      "Unknown reference '{{ nope }}'.",
    );
  });
});

describe('buildHttpCall: method', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'PURGE'] as const)(
    'sends %s as it is',
    (method) => {
      expect(build({ method }).method).toBe(method);
    },
  );

  it.each<[ActionPart['method'], ActionPart['body']]>([
    ['GET', { type: 'json', json: '{}' }],
    ['HEAD', { type: 'raw', raw: 'x' }],
    ['GET', { type: 'form-data', fields: [] }],
    ['GET', { type: 'graphql', query: '{ a }' }],
  ])('refuses %s with a body (%o)', (method, body) => {
    const error = failure(() => build({ method, body }));
    expect(error.code).toBe('bad_request');
    expect(error.message).toBe(
      `A ${method} request cannot have a body: set the request type to none or use another method.`,
    );
  });

  it('allows a body on DELETE and PURGE', () => {
    expect(bodyText(build({ method: 'DELETE', body: { type: 'json', json: '{"id": {{ id }}}' } }))).toBe(
      '{"id": "42"}',
    );
    expect(build({ method: 'PURGE', body: { type: 'raw', raw: 'x' } }).body).toBe('x');
  });
});

describe('buildHttpCall: headers', () => {
  const connection = {
    headers: [
      { key: 'Authorization', value: 'Bearer {{ authToken }}' },
      { key: 'X-Api-Key', value: '{{ secrets.apiKey }}' },
      { key: 'Accept', value: 'application/json' },
    ],
  };

  it('sends the common headers first, then the action headers, templated', () => {
    const call = build({ headers: [{ key: 'X-User', value: '{{ currentUser.email }}' }] }, { connection });
    expect(call.headers).toEqual([
      ['Authorization', 'Bearer tok-123'],
      ['X-Api-Key', 'k3y'],
      ['Accept', 'application/json'],
      ['X-User', 'ann@example.com'],
    ]);
  });

  it('lets an action header replace the common header of the same name, whatever its case', () => {
    const call = build({ headers: [{ key: 'accept', value: 'text/csv' }] }, { connection });
    expect(header(call, 'accept')).toEqual(['text/csv']);
    expect(call.headers.at(-1)).toEqual(['accept', 'text/csv']);
  });

  it('keeps repeated headers within the action', () => {
    const call = build({
      headers: [
        { key: 'X-Tag', value: 'a' },
        { key: 'X-Tag', value: 'b' },
      ],
    });
    expect(header(call, 'x-tag')).toEqual(['a', 'b']);
  });

  it('trims values and leaves out a header whose single reference has no value', () => {
    const call = build({
      headers: [
        { key: 'X-A', value: '  padded  ' },
        { key: 'X-Limit', value: '{{ missing }}' },
      ],
    });
    expect(call.headers).toEqual([['X-A', 'padded']]);
  });

  it.each(['evil\r\nX-Admin: true', 'evil\nX-Admin: true', 'evil\r'])(
    'refuses a value whose argument carries a line break (%j), without quoting it',
    (name) => {
      const error = failure(() =>
        build({ headers: [{ key: 'X-Name', value: 'n={{ name }}' }] }, { values: { name } }),
      );
      expect(error.code).toBe('argument_invalid');
      expect(error.message).toBe("The value of the header 'X-Name' contains a line break (from {{ name }}).");
      expect(error.errors).toEqual([
        { pointer: '#/arguments/name', detail: "The value of the header 'X-Name' contains a line break." },
      ]);
      expect(error.message).not.toContain('X-Admin');
    },
  );

  it('refuses a line break from a secret without naming a parameter', () => {
    const error = failure(() => build({}, { connection, values: { 'secrets.apiKey': 'a\r\nb' } }));
    expect(error.code).toBe('argument_invalid');
    expect(error.message).toContain('{{ secrets.apiKey }}');
    expect(error.errors).toBeUndefined();
  });

  it('refuses a line break written in the definition as a bad request', () => {
    expect(failure(() => build({ headers: [{ key: 'X-A', value: 'a\nb' }] })).code).toBe('bad_request');
  });

  it('refuses characters beyond Latin-1 in a header value', () => {
    const error = failure(() =>
      build({ headers: [{ key: 'X-Name', value: '{{ name }}' }] }, { values: { name: '日本' } }),
    );
    expect(error.message).toContain('only Latin-1');
  });

  it.each(['Bad Name', 'X:Y', 'Ä', ''])('refuses the header name %j', (key) => {
    const error = failure(() => build({ headers: [{ key, value: 'v' }] }));
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('is not a valid HTTP header name');
  });

  it.each(['Content-Length', 'transfer-encoding', 'Connection', 'Expect'])(
    'refuses the framing header %s',
    (key) => {
      const error = failure(() => build({ headers: [{ key, value: '1' }] }));
      expect(error.message).toBe(`The header '${key}' is set by Dogu from the request; remove it.`);
    },
  );

  it('refuses a reference in a header name', () => {
    expect(failure(() => build({ headers: [{ key: 'X-{{ name }}', value: '1' }] })).code).toBe('bad_request');
  });
});

describe('buildHttpCall: bodies', () => {
  it('none: no body, and a Content-Type of the common headers is sent as written', () => {
    const call = build(
      { method: 'POST' },
      { connection: { headers: [{ key: 'Content-Type', value: 'application/json' }] } },
    );
    expect(call.body).toBeUndefined();
    expect(header(call, 'content-type')).toEqual(['application/json']);
  });

  it('json: the rendered template as application/json', () => {
    const call = build({
      method: 'POST',
      body: {
        type: 'json',
        json: '{"id": {{ id }}, "limit": {{ limit }}, "note": "by {{ currentUser.email }}"}',
      },
    });
    expect(JSON.parse(bodyText(call))).toEqual({ id: '42', limit: 10, note: 'by ann@example.com' });
    expect(header(call, 'content-type')).toEqual(['application/json']);
  });

  it('json: values cannot add members', () => {
    const call = build(
      { method: 'POST', body: { type: 'json', json: '{"name": "{{ name }}", "role": "user"}' } },
      { values: { name: '", "role": "admin' } },
    );
    expect(JSON.parse(bodyText(call))).toEqual({ name: '", "role": "admin', role: 'user' });
  });

  it('json: a Content-Type among the headers wins, e.g. a vendor JSON type', () => {
    const call = build({
      method: 'POST',
      headers: [{ key: 'Content-Type', value: 'application/vnd.api+json' }],
      body: { type: 'json', json: '{}' },
    });
    expect(header(call, 'content-type')).toEqual(['application/vnd.api+json']);
  });

  it('json: an invalid template is a bad request naming the body', () => {
    const error = failure(() => build({ method: 'POST', body: { type: 'json', json: '{"a": }' } }));
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/^The JSON body is not valid JSON: /);
  });

  it('raw: text with values inserted as they are, text/plain in UTF-8 by default', () => {
    const call = build(
      { method: 'POST', body: { type: 'raw', raw: '<q name="{{ name }}">{{ limit }}</q>' } },
      { values: { name: 'A"&<' } },
    );
    expect(call.body).toBe('<q name="A"&<">10</q>');
    expect(header(call, 'content-type')).toEqual(['text/plain; charset=utf-8']);
  });

  it('raw: its content type, else the Content-Type of the headers', () => {
    expect(
      header(
        build({ method: 'POST', body: { type: 'raw', raw: '<a/>', contentType: 'application/xml' } }),
        'content-type',
      ),
    ).toEqual(['application/xml']);
    const fromHeaders = build(
      { method: 'POST', body: { type: 'raw', raw: 'a,b' } },
      { connection: { headers: [{ key: 'Content-Type', value: 'text/csv' }] } },
    );
    expect(header(fromHeaders, 'content-type')).toEqual(['text/csv']);
  });

  it('x-www-form-urlencoded: encoded fields, replacing any Content-Type of the headers', () => {
    const call = build(
      {
        method: 'POST',
        body: {
          type: 'x-www-form-urlencoded',
          fields: [
            { key: 'name', value: '{{ name }}' },
            { key: 'q', value: 'a b&c=d' },
            { key: 'limit', value: '{{ missing }}' },
            { key: 'name', value: 'again' },
          ],
        },
      },
      { connection: { headers: [{ key: 'Content-Type', value: 'application/json' }] } },
    );
    expect(call.body).toBe('name=Ann&q=a+b%26c%3Dd&name=again');
    expect(header(call, 'content-type')).toEqual(['application/x-www-form-urlencoded']);
  });

  it('form-data: text fields and a file field, readable by a standard multipart parser', async () => {
    const call = build(
      {
        method: 'POST',
        body: {
          type: 'form-data',
          fields: [
            { key: 'title', value: 'Orders of {{ name }}' },
            { key: 'file', value: '{{ upload }}' },
            { key: 'na"me\r\n', value: 'quoted' },
            { key: 'limit', value: '{{ missing }}' },
          ],
        },
      },
      { files: { upload: csv } },
    );
    const [contentType] = header(call, 'content-type');
    expect(contentType).toMatch(/^multipart\/form-data; boundary=----DoguFormBoundary[0-9a-f]{32}$/);
    const form = await new Response(call.body, { headers: { 'content-type': contentType! } }).formData();
    expect(form.get('title')).toBe('Orders of Ann');
    // Escaped on the wire as browsers do (%22, %0D, %0A), so the name comes back whole.
    expect(bodyText(call)).toContain('name="na%22me%0D%0A"');
    expect(form.get('na"me\r\n')).toBe('quoted');
    expect(form.has('limit')).toBe(false);
    const file = form.get('file') as File;
    expect(file.name).toBe('orders.csv');
    expect(file.type).toBe('text/csv');
    expect(await file.text()).toBe('id,total\n1,2');
    expect([...form.keys()]).toEqual(['title', 'file', 'na"me\r\n']);
  });

  it('form-data: binary file content survives byte for byte', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const call = build(
      { method: 'POST', body: { type: 'form-data', fields: [{ key: 'f', value: '{{ upload }}' }] } },
      {
        files: {
          upload: {
            name: 'all.bin',
            contentType: '',
            size: 256,
            contentBase64: Buffer.from(bytes).toString('base64'),
          },
        },
      },
    );
    const form = await new Response(call.body, {
      headers: { 'content-type': header(call, 'content-type')[0]! },
    }).formData();
    const file = form.get('f') as File;
    expect(file.type).toBe('application/octet-stream');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it('form-data: a boundary never occurs in the content', () => {
    for (let i = 0; i < 20; i++) {
      const call = build(
        { method: 'POST', body: { type: 'form-data', fields: [{ key: 'f', value: '{{ name }}' }] } },
        { values: { name: '----DoguFormBoundary' } },
      );
      const boundary = header(call, 'content-type')[0]!.split('boundary=')[1]!;
      expect(bodyText(call).split(`--${boundary}`)).toHaveLength(3);
    }
  });

  it('form-data: a file can be sent only as a whole field value', () => {
    const inText = failure(() =>
      build(
        { method: 'POST', body: { type: 'form-data', fields: [{ key: 'f', value: 'x {{ upload }}' }] } },
        { files: { upload: csv } },
      ),
    );
    expect(inText.message).toBe(
      "The file parameter 'upload' can only be sent as the whole value of a form-data field.",
    );
    const inJson = failure(() =>
      build(
        { method: 'POST', body: { type: 'json', json: '{"f": {{ upload }}}' } },
        { files: { upload: csv } },
      ),
    );
    expect(inJson.code).toBe('bad_request');
    const inPath = failure(() => build({ path: '/{{ upload }}' }, { files: { upload: csv } }));
    expect(inPath.code).toBe('bad_request');
  });

  it('form-data: refuses file content that is not base64', () => {
    const error = failure(() =>
      build(
        { method: 'POST', body: { type: 'form-data', fields: [{ key: 'f', value: '{{ upload }}' }] } },
        { files: { upload: { ...csv, contentBase64: '***' } } },
      ),
    );
    expect(error.code).toBe('argument_invalid');
    expect(error.message).toContain("The content of the file 'orders.csv' is not valid base64");
  });

  it('graphql: query, variables and operation name as JSON', () => {
    const call = build({
      method: 'POST',
      body: {
        type: 'graphql',
        query: 'query Items($limit: Int!, $owner: String) { items(limit: $limit, owner: $owner) { id } }',
        variables: '{"limit": {{ limit }}, "owner": "{{ currentUser.email }}"}',
        operationName: 'Items',
      },
    });
    expect(JSON.parse(bodyText(call))).toEqual({
      query: 'query Items($limit: Int!, $owner: String) { items(limit: $limit, owner: $owner) { id } }',
      variables: { limit: 10, owner: 'ann@example.com' },
      operationName: 'Items',
    });
    expect(header(call, 'content-type')).toEqual(['application/json']);
  });

  it('graphql: no variables member without variables', () => {
    const call = build({
      method: 'POST',
      body: { type: 'graphql', query: '{ me { id } }', variables: '  ' },
    });
    expect(JSON.parse(bodyText(call))).toEqual({ query: '{ me { id } }' });
  });

  it('graphql: values stay inside their variable', () => {
    const call = build(
      {
        method: 'POST',
        body: { type: 'graphql', query: 'query($n: String) { a(n: $n) }', variables: '{"n": {{ name }}}' },
      },
      { values: { name: '"} } mutation { drop' } },
    );
    expect(JSON.parse(bodyText(call)).variables).toEqual({ n: '"} } mutation { drop' });
  });

  it('graphql: refuses references in the query, pointing to variables', () => {
    const error = failure(() =>
      build({ method: 'POST', body: { type: 'graphql', query: 'query { item(id: "{{ id }}") { id } }' } }),
    );
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('GraphQL variables');
  });

  it('graphql: variables must be a JSON object', () => {
    const error = failure(() =>
      build({ method: 'POST', body: { type: 'graphql', query: '{ a }', variables: '[{{ limit }}]' } }),
    );
    expect(error.message).toBe('The GraphQL variables must be a JSON object.');
  });

  it('graphql: invalid variables are named as such', () => {
    const error = failure(() =>
      build({ method: 'POST', body: { type: 'graphql', query: '{ a }', variables: '{' } }),
    );
    expect(error.message).toMatch(/^The GraphQL variables is not valid JSON/);
  });
});

describe('buildHttpCall: the action type', () => {
  it('accepts an action as parsed by the definition schema', () => {
    const action: HttpActionInput = {
      id: 'a',
      name: 'A',
      kind: 'http',
      dataSourceId: 'd',
      parameters: [],
      method: 'GET',
      path: '/x',
      headers: [],
      query: [],
      body: { type: 'none' },
    };
    expect(buildHttpCall({ action, connection: { url: 'http://h' }, resolve: () => null }).url).toBe(
      'http://h/x',
    );
  });
});
