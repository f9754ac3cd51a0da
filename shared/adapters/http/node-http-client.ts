/**
 * The HttpClient port on node:http/node:https. Not fetch: fetch cannot be
 * told which address to connect to, and the SSRF rule must hold for the
 * address actually connected to (resolve, check, then connect to exactly the
 * checked addresses, so DNS rebinding cannot slip past the check); node:http
 * also lets us stop reading at the size limit and follow redirects ourselves.
 * Decisions and their reasons: docs/decisions/0009-http-engine.md.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { framingHeaders } from '../../connectors/http/http-request.ts';
import type { Network } from '../../connectors/network/bridge-network.ts';
import { DoguError } from '../../domain/errors.ts';
import type { HttpCall, HttpCallResult, HttpClient } from '../../domain/ports.ts';
import {
  type AddressRules,
  bareHost,
  checkedAddresses,
  defaultResolveHost,
  pinnedLookup,
  type ResolvedAddress,
} from './checked-addresses.ts';
import { describeNetworkError } from './network-errors.ts';
import { tunnelAgents } from './tunnel-agents.ts';

export type { ResolvedAddress } from './checked-addresses.ts';

export interface NodeHttpClientOptions extends AddressRules {
  /** CA certificates (PEM) trusted besides Node's own, for APIs with a private CA. */
  extraCaPem?: string;
  /** Default 5. */
  maxRedirects?: number;
  /** Sent when the call sets no User-Agent. */
  userAgent?: string;
  /**
   * Connections go through this bridge (a data source's `via`): the bridge's allow-list decides
   * what is reachable, so the address rule and DNS are the bridge's, not this process's.
   */
  network?: Network;
}

interface Hop {
  url: URL;
  method: string;
  headers: readonly [string, string][];
  body: Uint8Array | string | undefined;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Safe to send again when a kept-alive socket turns out to be closed by the server. */
const idempotentMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'PURGE', 'OPTIONS']);
/** Headers of the data source may carry credentials under any name: only these follow a redirect to another origin. */
const headersKeptAcrossOrigins = new Set(['accept', 'accept-language', 'user-agent']);
/** Framing and connection headers are this client's to set (the same list the request builder refuses). */
const clientOwnedHeaders = framingHeaders;

export class NodeHttpClient implements HttpClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly denyPrivateNetworks: boolean;
  private readonly denyLoopback: boolean;
  private readonly maxRedirects: number;
  private readonly resolveHost: (hostname: string) => Promise<ResolvedAddress[]>;
  private readonly userAgent: string;

  private readonly tunnelled: boolean;

  constructor(options: NodeHttpClientOptions = {}) {
    if (options.network) {
      const agents = tunnelAgents(options.network, options.extraCaPem);
      this.httpAgent = agents.http;
      this.httpsAgent = agents.https;
    } else {
      this.httpAgent = new http.Agent({ keepAlive: true });
      this.httpsAgent = new https.Agent({
        keepAlive: true,
        // `ca` replaces Node's list, so the public roots go in with the extra CA.
        ...(options.extraCaPem ? { ca: [...rootCertificates, options.extraCaPem] } : {}),
      });
    }
    this.tunnelled = options.network !== undefined;
    this.denyPrivateNetworks = options.denyPrivateNetworks ?? false;
    this.denyLoopback = options.denyLoopback ?? false;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.resolveHost = options.resolveHost ?? defaultResolveHost;
    this.userAgent = options.userAgent ?? 'Dogu';
  }

  async send(
    call: HttpCall,
    options: {
      signal: AbortSignal;
      timeoutMs: number;
      maxBodyBytes: number;
      allowPrivateNetworks?: boolean;
    },
  ): Promise<HttpCallResult> {
    const allowPrivate = options.allowPrivateNetworks === true;
    let hop: Hop = { url: httpUrl(call.url), method: call.method, headers: call.headers, body: call.body };
    const firstOrigin = hop.url.origin;
    // One deadline for the whole exchange: every redirect and the body included.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort('timeout'), options.timeoutMs);
    const cancel = () => stop.abort('cancelled');
    if (options.signal.aborted) cancel();
    else options.signal.addEventListener('abort', cancel, { once: true });
    try {
      for (let redirects = 0; ; redirects++) {
        // Every hop is resolved and checked again: a redirect may point anywhere.
        const response = await this.exchange(hop, stop.signal, allowPrivate);
        const next = redirectTarget(hop, response);
        if (!next) return await readResponse(response, options.maxBodyBytes, hop.url.origin);
        response.destroy();
        if (redirects >= this.maxRedirects) {
          throw new DoguError(
            'data_source_error',
            `The HTTP request to ${firstOrigin} was redirected more than ${this.maxRedirects} times.`,
          );
        }
        hop = next;
      }
    } catch (error) {
      throw failure(error, stop.signal, hop.url.origin, options.timeoutMs);
    } finally {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', cancel);
    }
  }

  /** Ends kept-alive connections, at shutdown. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /** Sends one request and resolves with the response head; retried once on a stale kept-alive socket. */
  private async exchange(hop: Hop, signal: AbortSignal, allowPrivate: boolean): Promise<IncomingMessage> {
    const addresses = this.tunnelled ? undefined : await this.checkedAddresses(hop.url, signal, allowPrivate);
    try {
      return await this.request(hop, addresses, signal);
    } catch (error) {
      if (!(error instanceof StaleSocketError) || !idempotentMethods.has(hop.method)) throw unwrap(error);
      return this.request(hop, addresses, signal).catch((retryError: unknown) => {
        throw unwrap(retryError);
      });
    }
  }

  private request(
    hop: Hop,
    addresses: ResolvedAddress[] | undefined,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const { url } = hop;
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: bareHost(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers: outgoingHeaders(hop, this.userAgent),
        agent: secure ? this.httpsAgent : this.httpAgent,
        // Connect to the checked addresses, never to a second, unchecked resolution.
        ...(addresses ? { lookup: pinnedLookup(addresses) } : {}),
        signal,
        ...(url.username
          ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
          : {}),
      });
      request.once('response', resolve);
      request.once('error', (error: NodeJS.ErrnoException) => {
        const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        reject(stale ? new StaleSocketError(error) : error);
      });
      request.end(hop.body);
    });
  }

  private checkedAddresses(url: URL, signal: AbortSignal, allowPrivate: boolean) {
    return checkedAddresses(
      url,
      {
        denyPrivateNetworks: this.denyPrivateNetworks,
        denyLoopback: this.denyLoopback,
        resolveHost: this.resolveHost,
      },
      { signal, allowPrivate },
    );
  }
}

/** A reused kept-alive socket the server had closed: the request never reached it. */
class StaleSocketError extends Error {
  constructor(readonly original: Error) {
    super(original.message);
  }
}

const unwrap = (error: unknown) => (error instanceof StaleSocketError ? error.original : error);

function httpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DoguError('bad_request', 'The HTTP request has an invalid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DoguError('bad_request', `The HTTP request URL must be http or https, not ${url.protocol}.`);
  }
  return url;
}

function outgoingHeaders(hop: Hop, userAgent: string): Record<string, string | string[]> {
  const byName = new Map<string, { name: string; values: string[] }>();
  for (const [name, value] of hop.headers) {
    const key = name.toLowerCase();
    if (clientOwnedHeaders.has(key)) continue;
    const entry = byName.get(key);
    if (entry) entry.values.push(value);
    else byName.set(key, { name, values: [value] });
  }
  const headers: Record<string, string | string[]> = {};
  for (const { name, values } of byName.values()) headers[name] = values.length === 1 ? values[0]! : values;
  if (!byName.has('user-agent')) headers['user-agent'] = userAgent;
  if (!byName.has('accept')) headers.accept = '*/*';
  if (hop.body !== undefined) {
    headers['content-length'] = String(
      typeof hop.body === 'string' ? Buffer.byteLength(hop.body) : hop.body.byteLength,
    );
  }
  return headers;
}

/** The next hop of a redirect to follow, or undefined when the response is the answer. */
function redirectTarget(hop: Hop, response: IncomingMessage): Hop | undefined {
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (!redirectStatuses.has(status) || !location) return undefined;
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new DoguError(
      'data_source_error',
      `The HTTP request to ${hop.url.origin} was redirected to an invalid URL.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DoguError(
      'data_source_error',
      `The HTTP request to ${hop.url.origin} was redirected to a ${url.protocol} URL; only http and https redirects are followed.`,
    );
  }
  url.hash = '';
  let { method, body, headers } = hop;
  // As browsers and fetch do: 303 (and 301/302 after POST) continue as a GET without the body.
  if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET';
    body = undefined;
    headers = headers.filter(([name]) => name.toLowerCase() !== 'content-type');
  }
  if (url.origin !== hop.url.origin) {
    headers = headers.filter(([name]) => {
      const key = name.toLowerCase();
      return headersKeptAcrossOrigins.has(key) || (key === 'content-type' && body !== undefined);
    });
  }
  return { url, method, body, headers };
}

/** Reads the body up to maxBodyBytes (after decompression) and stops the transfer beyond it. */
async function readResponse(
  response: IncomingMessage,
  maxBodyBytes: number,
  origin: string,
): Promise<HttpCallResult> {
  const headers = responseHeaders(response.rawHeaders);
  const tooLarge = () =>
    new DoguError(
      'data_source_error',
      `The response of ${origin} is larger than the limit of ${maxBodyBytes} bytes.`,
    );
  const decoder = decoderFor(headers['content-encoding']);
  const declared = Number(headers['content-length']);
  if (!decoder && Number.isFinite(declared) && declared > maxBodyBytes) {
    response.destroy();
    throw tooLarge();
  }
  let source: Readable = response;
  if (decoder) {
    response.on('error', (error) => decoder.destroy(error));
    source = response.pipe(decoder);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBodyBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } finally {
    if (total > maxBodyBytes || !response.complete) {
      response.destroy();
      decoder?.destroy();
    }
  }
  // A connection closed mid-body ends the stream quietly; a cut body must not pass for the answer.
  if (!response.complete)
    throw Object.assign(new Error('premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  if (decoder) {
    delete headers['content-encoding'];
    delete headers['content-length'];
  }
  return { status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) };
}

function decoderFor(contentEncoding: string | undefined) {
  switch (contentEncoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      // identity, none, or an encoding we do not know: the bytes as sent.
      return undefined;
  }
}

/** Lower-case names; repeated headers joined with ', ' (as the port says). */
function responseHeaders(raw: readonly string[]): Record<string, string> {
  // A Map, so a header named like an Object.prototype member stays a header.
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const earlier = headers.get(name);
    headers.set(name, earlier === undefined ? raw[i + 1]! : `${earlier}, ${raw[i + 1]!}`);
  }
  return Object.fromEntries(headers);
}

function failure(error: unknown, stop: AbortSignal, origin: string, timeoutMs: number): DoguError {
  if (error instanceof DoguError) return error;
  if (stop.aborted) {
    return stop.reason === 'timeout'
      ? new DoguError('execution_timeout', `The HTTP request to ${origin} timed out after ${timeoutMs} ms.`)
      : new DoguError(
          'execution_timeout',
          `The HTTP request to ${origin} was cancelled: the execution was stopped.`,
        );
  }
  return new DoguError(
    'data_source_error',
    `The HTTP request to ${origin} failed: ${describeNetworkError(error)}.`,
  );
}
