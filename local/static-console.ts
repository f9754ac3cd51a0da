/**
 * Serves the console's build (web/dist) from the embedded runtime: files with their content
 * types, a year of caching for hashed assets (their names change with their content) and none
 * for index.html, and index.html for every other page path so the browser router can take it.
 * Text files go out brotli- or gzip-compressed when the browser accepts it, from the `.br`/`.gz`
 * copies the build writes beside them (web/vite.config.ts; decision 0067), with `Vary: Accept-Encoding`.
 * API paths never reach here: they keep the route table's answers, 404 Problem Details included.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { consoleCsp, viewFrameCsp, viewFramePath } from '../shared/http/console-policies.ts';

export const defaultConsoleDir = fileURLToPath(new URL('../web/dist', import.meta.url));

/** Paths that belong to the API or the IdP, never to the console (as CloudFront routes them). */
const apiPrefixes = [
  '/api/',
  '/public/',
  '/auth/',
  '/idp/',
  '/local/',
  '/demo-api/',
  '/mcp/',
  '/oauth/',
  '/.well-known/',
];
const apiPaths = new Set(['/openapi.json', '/healthz']);

export function isConsolePath(pathname: string): boolean {
  if (apiPaths.has(pathname)) return false;
  return !apiPrefixes.some((prefix) => pathname.startsWith(prefix) || `${pathname}/` === prefix);
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** The code-view frame (decision 0048): its own CSP, framed by the console only. */
const viewFrameHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': `${viewFrameCsp}; frame-ancestors 'self'`,
};

/** Compressed copies the build writes, in order of preference. */
const encodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

const compressibleTypes = /^(text\/|application\/json|image\/svg\+xml)/;

/** The codings an Accept-Encoding header accepts (RFC 9110 12.5.3): a q of 0 refuses, `*` stands for the rest. */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  const refused = new Set<string>();
  let star = false;
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (!coding) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (coding === '*') star = ok;
    else (ok ? accepted : refused).add(coding);
  }
  if (star) for (const { name } of encodings) if (!refused.has(name)) accepted.add(name);
  return accepted;
}

export interface StaticConsole {
  /** True when it answered the request; false leaves it to the route table. */
  serve(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<boolean>;
}

export function staticConsole(root: string = defaultConsoleDir): StaticConsole {
  const rootWithSep = root.endsWith(sep) ? root : root + sep;
  const relativeOf = (path: string) => path.slice(rootWithSep.length - 1);
  const fileAt = async (relative: string) => {
    const path = normalize(join(root, relative));
    if (!path.startsWith(rootWithSep)) return undefined; // `..` out of the build directory
    try {
      const info = await stat(path);
      return info.isFile() ? { path, size: info.size } : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    async serve(request, response, pathname) {
      const method = request.method ?? 'GET';
      if ((method !== 'GET' && method !== 'HEAD') || !isConsolePath(pathname)) return false;
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return false;
      }
      const isAsset = decoded.startsWith('/assets/');
      let file = decoded === '/' ? undefined : await fileAt(decoded);
      // A missing hashed asset is a 404 (an old tab after a deploy), not the app shell as JavaScript.
      if (!file && isAsset) return false;
      const isIndex = !file;
      if (!file) file = await fileAt('index.html');
      if (!file) return false; // not built: the route table answers (404), and `npm start` builds first
      const type = isIndex
        ? contentTypes['.html']!
        : (contentTypes[extname(file.path).toLowerCase()] ?? 'application/octet-stream');
      const compressible = compressibleTypes.test(type);
      let body = file;
      let encoding: string | undefined;
      if (compressible) {
        const accepted = acceptedEncodings(request.headers['accept-encoding']);
        for (const { name, suffix } of encodings) {
          if (!accepted.has(name)) continue;
          const copy = await fileAt(`${relativeOf(file.path)}${suffix}`);
          if (!copy) continue;
          body = copy;
          encoding = name;
          break;
        }
      }
      response.writeHead(200, {
        'content-type': type,
        'content-length': String(body.size),
        'cache-control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...(encoding ? { 'content-encoding': encoding } : {}),
        ...(compressible ? { vary: 'Accept-Encoding' } : {}),
        ...(decoded === viewFramePath
          ? viewFrameHeaders
          : isIndex || type === contentTypes['.html']
            ? { ...securityHeaders, 'content-security-policy': consoleCsp }
            : securityHeaders),
      });
      if (method === 'HEAD') {
        response.end();
        return true;
      }
      // Headers are out: a read error can only cut the response short.
      await pipeline(createReadStream(body.path), response).catch(() => response.destroy());
      return true;
    },
  };
}
