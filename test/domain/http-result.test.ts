import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { shapeHttpResult } from '../../shared/connectors/http/http-result.ts';
import type { HttpCallResult } from '../../shared/domain/ports.ts';

function response(body: string | Uint8Array, contentType?: string, status = 200): HttpCallResult {
  return {
    status,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
  };
}

const json = (value: unknown, status = 200) =>
  response(JSON.stringify(value), 'application/json; charset=utf-8', status);

describe('shapeHttpResult: JSON', () => {
  it('presents an array of objects as a table with typed columns', () => {
    const result = shapeHttpResult(
      json([
        { id: 1, name: 'Ann', active: true, tags: ['a'], photo: 'https://cdn.example.com/1.png' },
        { id: 2, name: null, active: false, extra: 'x', photo: 'https://cdn.example.com/2.jpg' },
      ]),
      'List users',
    );
    expect(result).toMatchObject({
      title: 'List users',
      status: 'succeeded',
      columns: [
        { name: 'id', type: 'number' },
        { name: 'name', type: 'string' },
        { name: 'active', type: 'boolean' },
        { name: 'tags', type: 'json' },
        { name: 'photo', type: 'string', media: 'image' },
        { name: 'extra', type: 'string' },
      ],
      rows: [
        {
          id: 1,
          name: 'Ann',
          active: true,
          tags: ['a'],
          photo: 'https://cdn.example.com/1.png',
          extra: null,
        },
        { id: 2, name: null, active: false, tags: null, photo: 'https://cdn.example.com/2.jpg', extra: 'x' },
      ],
      rowCount: 2,
      messages: [],
      http: { status: 200, contentType: 'application/json', bytes: expect.any(Number) },
    });
    expect(result.value).toEqual([
      { id: 1, name: 'Ann', active: true, tags: ['a'], photo: 'https://cdn.example.com/1.png' },
      { id: 2, name: null, active: false, extra: 'x', photo: 'https://cdn.example.com/2.jpg' },
    ]);
    expect(result.error).toBeUndefined();
    expect(result.media).toBeUndefined();
  });

  it('types a column holding different kinds of values as json, and an all-null column as string', () => {
    const result = shapeHttpResult(
      json([
        { a: 1, b: null },
        { a: 'x', b: null },
      ]),
      't',
    );
    expect(result.columns).toEqual([
      { name: 'a', type: 'json' },
      { name: 'b', type: 'string' },
    ]);
  });

  it('presents an object as one row and keeps it as the value', () => {
    const result = shapeHttpResult(
      json({ id: 7, owner: { name: 'Ann' }, signedUrl: 'https://x.example/a.pdf?sig=1' }),
      't',
    );
    expect(result.columns).toEqual([
      { name: 'id', type: 'number' },
      { name: 'owner', type: 'json' },
      { name: 'signedUrl', type: 'string', media: 'pdf' },
    ]);
    expect(result.rows).toEqual([
      { id: 7, owner: { name: 'Ann' }, signedUrl: 'https://x.example/a.pdf?sig=1' },
    ]);
    expect(result.rowCount).toBe(1);
    expect(result.value).toEqual({
      id: 7,
      owner: { name: 'Ann' },
      signedUrl: 'https://x.example/a.pdf?sig=1',
    });
  });

  it('presents an array of scalars as a value column', () => {
    const result = shapeHttpResult(json(['https://youtu.be/a', 'https://vimeo.com/1']), 't');
    expect(result.columns).toEqual([{ name: 'value', type: 'string', media: 'video' }]);
    expect(result.rows).toEqual([{ value: 'https://youtu.be/a' }, { value: 'https://vimeo.com/1' }]);
  });

  it('presents a scalar as one value', () => {
    const result = shapeHttpResult(json(42), 't');
    expect(result.columns).toEqual([{ name: 'value', type: 'number' }]);
    expect(result.rows).toEqual([{ value: 42 }]);
    expect(result.value).toBe(42);
  });

  it('gives an empty array no columns and no rows', () => {
    const result = shapeHttpResult(json([]), 't');
    expect(result).toMatchObject({ columns: [], rows: [], rowCount: 0, value: [] });
  });

  it('keeps an array mixing objects and scalars as a value only, saying why', () => {
    const result = shapeHttpResult(json([{ a: 1 }, 2]), 't');
    expect(result).toMatchObject({ columns: [], rows: [], value: [{ a: 1 }, 2] });
    expect(result.messages).toEqual([
      'The value is an array mixing objects and other values; it is shown as a value, not a table.',
    ]);
  });

  it('reads vendor JSON types', () => {
    expect(shapeHttpResult(response('{"a":1}', 'application/problem+json'), 't').value).toEqual({ a: 1 });
    expect(shapeHttpResult(response('[1]', 'application/vnd.api+json'), 't').value).toEqual([1]);
  });

  it('shows a body that says JSON but is not as text, with a message', () => {
    const result = shapeHttpResult(response('{oops', 'application/json'), 't');
    expect(result.value).toBe('{oops');
    expect(result.rows).toEqual([{ value: '{oops' }]);
    expect(result.messages).toEqual([
      'The response says it is application/json but is not valid JSON; it is shown as text.',
    ]);
  });

  it('parses JSON without a content type', () => {
    expect(shapeHttpResult(response('{"a":1}'), 't').value).toEqual({ a: 1 });
  });
});

describe('shapeHttpResult: text', () => {
  it('presents text as one string value', () => {
    const result = shapeHttpResult(response('hello\nworld', 'text/plain; charset=utf-8'), 't');
    expect(result).toMatchObject({
      columns: [{ name: 'value', type: 'string' }],
      rows: [{ value: 'hello\nworld' }],
      rowCount: 1,
      value: 'hello\nworld',
      http: { status: 200, contentType: 'text/plain' },
    });
  });

  it('decodes the charset the response names', () => {
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9]); // "café" in ISO-8859-1
    expect(shapeHttpResult(response(latin1, 'text/plain; charset=ISO-8859-1'), 't').value).toBe('café');
    expect(shapeHttpResult(response(latin1, 'text/plain; charset="no-such-charset"'), 't').value).toBe(
      'caf\ufffd',
    );
  });

  it.each(['application/xml', 'image/svg+xml; x=1', 'text/csv', 'application/javascript'])(
    'reads %s as text',
    (type) => {
      const result = shapeHttpResult(response('<a/>', type), 't');
      if (type.startsWith('image/')) expect(result.media?.kind).toBe('image');
      else expect(result.value).toBe('<a/>');
    },
  );

  it('marks a text body that is a media URL', () => {
    const result = shapeHttpResult(response('https://cdn.example.com/a.webp', 'text/plain'), 't');
    expect(result.columns).toEqual([{ name: 'value', type: 'string', media: 'image' }]);
  });

  it('reads text without a content type when it is UTF-8', () => {
    expect(shapeHttpResult(response('plain words'), 't').value).toBe('plain words');
  });
});

describe('shapeHttpResult: media and binary', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

  it.each([
    ['image/png', 'image'],
    ['image/jpeg', 'image'],
    ['video/mp4', 'video'],
    ['application/pdf', 'pdf'],
    ['Application/PDF; name=a.pdf', 'pdf'],
  ] as const)('embeds %s as %s media in base64', (type, kind) => {
    const result = shapeHttpResult(response(png, type), 't');
    expect(result.media).toEqual({
      kind,
      contentType: type.split(';')[0]!.toLowerCase(),
      base64: Buffer.from(png).toString('base64'),
    });
    expect(result).toMatchObject({ columns: [], rows: [], rowCount: 0, status: 'succeeded' });
    expect(result.value).toBeUndefined();
  });

  it('encodes large media correctly', () => {
    const big = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256);
    expect(shapeHttpResult(response(big, 'image/png'), 't').media?.base64).toBe(
      Buffer.from(big).toString('base64'),
    );
  });

  it('does not embed media above the limit, saying so', () => {
    const result = shapeHttpResult(response(png, 'image/png'), 't', { maxMediaBytes: 10 });
    expect(result.media).toBeUndefined();
    expect(result.messages).toEqual(['The image (12 bytes) is larger than 10 bytes and is not shown.']);
  });

  it('does not show other binary bodies', () => {
    const result = shapeHttpResult(response(gzipSync('x'), 'application/zip'), 't');
    expect(result).toMatchObject({ columns: [], rows: [] });
    expect(result.media).toBeUndefined();
    expect(result.value).toBeUndefined();
    expect(result.messages[0]).toMatch(
      /^The response is binary \(application\/zip, \d+ bytes\) and is not shown\.$/,
    );
  });

  it('treats non-UTF-8 bytes without a content type as binary', () => {
    const result = shapeHttpResult(response(Uint8Array.from([0xff, 0xfe, 0x00])), 't');
    expect(result.value).toBeUndefined();
    expect(result.messages[0]).toBe('The response is binary (no content type, 3 bytes) and is not shown.');
  });

  it('gives an empty body no value and no rows', () => {
    const result = shapeHttpResult(response('', 'application/json', 204), 't');
    expect(result).toMatchObject({ status: 'succeeded', columns: [], rows: [], rowCount: 0, messages: [] });
    expect(result.value).toBeUndefined();
    expect(result.http).toEqual({ status: 204, contentType: 'application/json', bytes: 0 });
  });
});

describe('shapeHttpResult: statuses outside 2xx', () => {
  it('fails with the status and an excerpt of a JSON body, still showing the body', () => {
    const result = shapeHttpResult(json({ error: 'not_found', message: 'No item 42' }, 404), 'Get item');
    expect(result.status).toBe('failed');
    expect(result.error).toEqual({
      code: 'data_source_error',
      message: 'The API answered HTTP 404: {"error":"not_found","message":"No item 42"}',
    });
    expect(result.value).toEqual({ error: 'not_found', message: 'No item 42' });
    expect(result.rows).toHaveLength(1);
  });

  it('cuts a long text body to a short excerpt with whitespace collapsed', () => {
    const result = shapeHttpResult(response(`<html>\n\n  ${'x'.repeat(1000)}</html>`, 'text/html', 502), 't');
    expect(result.error?.message).toBe(`The API answered HTTP 502: <html> ${'x'.repeat(193)}…`);
  });

  it('says so when the body is empty or binary', () => {
    expect(shapeHttpResult(response('', undefined, 500), 't').error?.message).toBe(
      'The API answered HTTP 500 with an empty body.',
    );
    expect(shapeHttpResult(response(Uint8Array.from([1, 2, 3]), 'image/png', 403), 't').error?.message).toBe(
      'The API answered HTTP 403 with 3 bytes of image/png.',
    );
    expect(shapeHttpResult(response('   ', 'text/plain', 500), 't').error?.message).toBe(
      'The API answered HTTP 500.',
    );
  });

  it.each([199, 300, 304, 400, 401, 418, 500, 503])('fails on %i', (status) => {
    expect(shapeHttpResult(response('x', 'text/plain', status), 't').status).toBe('failed');
  });

  it.each([200, 201, 202, 204, 206, 299])('succeeds on %i', (status) => {
    expect(shapeHttpResult(response('x', 'text/plain', status), 't').status).toBe('succeeded');
  });
});
