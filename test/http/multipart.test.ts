import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { multipartBody } from '../../shared/http/multipart.ts';

/** A multipart body as fetch sends it, and the event each runtime hands the handler. */
async function eventOf(form: FormData, base64: boolean): Promise<APIGatewayProxyEventV2> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const bytes = Buffer.from(await request.arrayBuffer());
  return {
    headers: { 'content-type': request.headers.get('content-type')! },
    body: base64 ? bytes.toString('base64') : bytes.toString('latin1'),
    isBase64Encoded: base64,
  } as unknown as APIGatewayProxyEventV2;
}

const binary = new Uint8Array([0, 1, 2, 255, 254, 13, 10, 45, 45]);

describe('multipartBody', () => {
  it('reads fields and a binary file from a base64 body (API Gateway and the local server)', async () => {
    const form = new FormData();
    form.append('params', '{"environmentId":"dev"}');
    form.append('file', new Blob([binary]), 'api.protoset');
    const body = await multipartBody(await eventOf(form, true), { maxFileBytes: 100 });
    expect(body.fields).toEqual({ params: '{"environmentId":"dev"}' });
    expect(body.files).toEqual([
      { field: 'file', filename: 'api.protoset', bytes: binary, truncated: false },
    ]);
  });

  it('cuts a file over the limit and says so', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(50).fill(7)]), 'big');
    const [file] = (await multipartBody(await eventOf(form, true), { maxFileBytes: 10 })).files;
    expect(file?.truncated).toBe(true);
    expect(file?.bytes.byteLength).toBe(10);
  });

  it('refuses another content type, a missing boundary and a malformed body', async () => {
    const json = {
      headers: { 'content-type': 'application/json' },
      body: '{}',
    } as unknown as APIGatewayProxyEventV2;
    await expect(multipartBody(json, { maxFileBytes: 10 })).rejects.toMatchObject({ status: 415 });
    const noBoundary = { headers: { 'content-type': 'multipart/form-data; charset=utf-8' }, body: 'x' };
    await expect(multipartBody(noBoundary as never, { maxFileBytes: 10 })).rejects.toMatchObject({
      status: 400,
    });
    const cut = {
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      body: '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue',
    };
    await expect(multipartBody(cut as never, { maxFileBytes: 10 })).rejects.toMatchObject({ status: 400 });
    const twoFiles = new FormData();
    twoFiles.append('file', new Blob([binary]), 'a');
    twoFiles.append('file', new Blob([binary]), 'b');
    await expect(multipartBody(await eventOf(twoFiles, true), { maxFileBytes: 100 })).rejects.toMatchObject({
      status: 400,
    });
  });
});
