/**
 * The embedded runtime's console files over real HTTP: precompressed copies chosen by Accept-Encoding
 * (brotli first, then gzip, never a refused one) with Vary, a year of immutable caching for hashed
 * assets and no-cache for index.html (decision 0067).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncodings, staticConsole } from '../../local/static-console.ts';

const script = `export const screens = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `screen ${i}`))};\n`;
const index =
  '<!doctype html><title>Dogu</title><script type="module" src="/assets/index-abc123.js"></script>';

let dir: string;
let server: Server;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dogu-static-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), index);
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), script);
  writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(script));
  // A file the build did not compress (too small): always sent as it is.
  writeFileSync(join(dir, 'assets', 'tiny-def456.js'), 'export {};\n');
  writeFileSync(join(dir, 'assets', 'logo-aaa111.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const files = staticConsole(dir);
  server = createServer(async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!(await files.serve(req, res, pathname))) res.writeHead(404).end('not console');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A raw HTTP request (fetch would decode the body and hide Content-Encoding). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port, path, method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      outgoing.on('error', reject);
      outgoing.end();
    },
  );
}

describe('static console over HTTP', () => {
  it('sends the brotli copy to a browser that accepts br, immutable for a year', async () => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(Buffer.byteLength(script) / 2);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('sends gzip when brotli is not accepted or refused with q=0', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip;q=0.8', 'gzip, br;q=0']) {
      const res = await get('/assets/index-abc123.js', { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(gunzipSync(res.body).toString()).toBe(script);
    }
  });

  it('sends the file as it is without Accept-Encoding, with identity only, or when every coding is refused', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of variants) {
      const res = await get('/assets/index-abc123.js', headers);
      expect(res.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.body.toString()).toBe(script);
    }
  });

  it('sends a file without compressed copies as it is, and binary files without Vary', async () => {
    const tiny = await get('/assets/tiny-def456.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
    const png = await get('/assets/logo-aaa111.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    expect(png.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers index.html for page paths with no-cache, and HEAD with the headers only', async () => {
    for (const path of ['/', '/p/demo/e/development/actions']) {
      const res = await get(path, { 'accept-encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.toString()).toBe(index);
    }
    const head = await get('/assets/index-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(brotliCompressSync(script).length);
    expect(head.body.length).toBe(0);
  });

  it('leaves a missing hashed asset and API paths to the route table', async () => {
    expect((await get('/assets/gone-000000.js', { 'accept-encoding': 'br' })).body.toString()).toBe(
      'not console',
    );
    expect((await get('/healthz')).body.toString()).toBe('not console');
  });
});

describe('acceptedEncodings', () => {
  it('reads codings with their q values and the wildcard', () => {
    expect([...acceptedEncodings('gzip, br')].sort()).toEqual(['br', 'gzip']);
    expect([...acceptedEncodings('BR;Q=0.5')]).toEqual(['br']);
    expect([...acceptedEncodings('br;q=0')]).toEqual([]);
    expect([...acceptedEncodings('*')].sort()).toEqual(['br', 'gzip']);
    expect([...acceptedEncodings('*, br;q=0')]).toEqual(['gzip']);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
    expect([...acceptedEncodings(['gzip', 'br'])].sort()).toEqual(['br', 'gzip']);
  });
});
