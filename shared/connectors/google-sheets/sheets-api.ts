/**
 * Calls of the Sheets REST API v4 through Dogu's HTTP client (its address rule holds: a base URL
 * naming a metadata address is refused): bearer token from the OAuth connection (renewed once
 * after a 401), quota and server errors retried with backoff, Google's refusals as clear errors.
 */
import { DoguError } from '../../domain/errors.ts';
import type { HttpCallResult, HttpClient } from '../../domain/ports.ts';

export interface SheetsApiOptions {
  http: HttpClient;
  baseUrl: string;
  accessToken(renew: boolean): Promise<string>;
  /** Whom the connection acts as, for "not shared with …" messages. */
  account?: string;
  signal: AbortSignal;
  deadlineAt: number;
  timeoutMs: number;
}

const retryDelaysMs = [500, 1_000, 2_000];
/** A values.get of a large sheet is a few MB of JSON. */
const maxBodyBytes = 32 * 1024 * 1024;
const retried = new Set([429, 500, 502, 503, 504]);

export class SheetsApi {
  constructor(private readonly options: SheetsApiOptions) {}

  /** `path` below /v4/spreadsheets, already encoded. */
  async call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    request: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<Record<string, unknown>> {
    const url = new URL(`${this.options.baseUrl}${path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    let renew = false;
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(method, url, request.body, await this.options.accessToken(renew));
      if (response.status === 401 && !renew) {
        renew = true;
        continue;
      }
      const delay = retryDelaysMs[attempt];
      if (
        retried.has(response.status) &&
        delay !== undefined &&
        Date.now() + delay < this.options.deadlineAt
      ) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(new TextDecoder().decode(response.body)) as Record<string, unknown>;
      } catch {
        // Not JSON: the status says enough.
      }
      if (response.status >= 200 && response.status <= 299) return body;
      throw this.refusal(response.status, body);
    }
  }

  private async send(method: string, url: URL, body: unknown, token: string): Promise<HttpCallResult> {
    const timeout = Math.max(1, Math.min(this.options.timeoutMs, this.options.deadlineAt - Date.now()));
    try {
      return await this.options.http.send(
        {
          method,
          url: url.toString(),
          headers: [
            ['authorization', `Bearer ${token}`],
            ['accept', 'application/json'],
            ...(body === undefined ? [] : ([['content-type', 'application/json']] as [string, string][])),
          ],
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        { signal: this.options.signal, timeoutMs: timeout, maxBodyBytes },
      );
    } catch (error) {
      if (this.options.signal.aborted)
        throw new DoguError(
          'execution_timeout',
          "Google Sheets did not answer within the action's time limit.",
        );
      // The address rule's refusal says why on its own.
      if (error instanceof DoguError && / was refused: /.test(error.message)) throw error;
      throw new DoguError('data_source_error', `Google Sheets did not answer (${url.host}).`, {
        cause: error,
      });
    }
  }

  private refusal(status: number, body: Record<string, unknown>): DoguError {
    const error = (body.error ?? {}) as { message?: unknown };
    const said = typeof error.message === 'string' ? error.message.slice(0, 300) : `HTTP ${status}`;
    const as = this.options.account ? ` with ${this.options.account}` : ' with the connected account';
    if (status === 401)
      return new DoguError(
        'data_source_error',
        'Google refused the access token: reconnect needed (data source settings, Connect).',
      );
    if (status === 403)
      return new DoguError(
        'data_source_error',
        `The spreadsheet is not shared${as}, or the connection lacks the Sheets scope (${said}).`,
      );
    if (status === 404)
      return new DoguError('data_source_error', `No such spreadsheet, or it is not shared${as} (${said}).`);
    if (status === 429)
      return new DoguError(
        'data_source_error',
        'Google Sheets quota exceeded (retried with backoff); try again in a minute.',
      );
    if (status >= 500)
      return new DoguError('data_source_error', `Google Sheets failed (${said}); try again.`);
    return new DoguError('data_source_error', `Google Sheets refused the request: ${said}`);
  }
}
