/**
 * A lean HTTP/1.1 client on node:http with keep-alive: fetch (undici) costs
 * noticeably more CPU per request, and in a benchmark the client shares the
 * machine with the server, so its overhead would be charged to the server.
 */
import http from 'node:http';

export interface HttpResponse {
  status: number;
  body: string;
}

export interface PreparedRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  /** Encoded once when prepared, not on every request. */
  body: Buffer;
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;
  private readonly timeoutMs: number;

  constructor(
    baseUrl: string,
    options: { maxSockets: number; timeoutMs: number } = { maxSockets: 64, timeoutMs: 30_000 },
  ) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets });
    this.timeoutMs = options.timeoutMs;
  }

  prepare(
    method: PreparedRequest['method'],
    path: string,
    options: { headers?: Record<string, string>; json?: unknown } = {},
  ): PreparedRequest {
    const body = options.json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(options.json));
    return {
      method,
      path,
      body,
      headers: {
        ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
        'content-length': String(body.length),
      },
    };
  }

  send(request: PreparedRequest): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const outgoing = http.request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          method: request.method,
          path: request.path,
          headers: request.headers,
          timeout: this.timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  }

  async get(path: string): Promise<HttpResponse> {
    return this.send(this.prepare('GET', path));
  }

  /** Sends and returns the body; anything but 200 throws with the start of the body. */
  async sendExpectingOk(request: PreparedRequest): Promise<string> {
    const response = await this.send(request);
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
    return response.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
