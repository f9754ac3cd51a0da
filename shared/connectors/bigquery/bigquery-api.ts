/** BigQuery's REST API (v2) over fetch, with the service account's bearer token. */
import { DoguError } from '../../domain/errors.ts';
import { type BigQueryConnection, defaultApiEndpoint, parseServiceAccountKey } from './definition.ts';
import type { GoogleTokens } from './google-token.ts';

export interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    errors?: { reason?: string; message?: string }[];
  };
}

/** A refusal of the API, with what BigQuery said (its reason and message). */
export class BigQueryApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'BigQueryApiError';
  }
}

export class BigQueryApi {
  private readonly base: string;

  constructor(
    private readonly connection: BigQueryConnection,
    private readonly tokens: GoogleTokens,
  ) {
    const endpoint = (connection.apiEndpoint ?? defaultApiEndpoint).replace(/\/+$/, '');
    this.base = `${endpoint}/bigquery/v2/projects/${encodeURIComponent(connection.projectId)}`;
  }

  async call<T>(
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; query?: Record<string, string | undefined>; signal: AbortSignal },
  ): Promise<T> {
    const key = parseServiceAccountKey(this.connection.serviceAccountKey ?? '');
    if (!key) {
      throw new DoguError(
        'data_source_error',
        'The data source has no service account key: add the JSON key file.',
      );
    }
    const token = await this.tokens.token(key, options.signal);
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) query.set(name, value);
    const url = `${this.base}${path}${query.size > 0 ? `?${query}` : ''}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw new DoguError('data_source_error', `BigQuery could not be reached (${new URL(url).host}).`);
    }
    const text = await response.text();
    if (!response.ok) {
      const body = safeJson(text) as GoogleErrorBody;
      const reason = body.error?.errors?.[0]?.reason ?? body.error?.status ?? `http_${response.status}`;
      throw new BigQueryApiError(response.status, reason, body.error?.message ?? `HTTP ${response.status}`);
    }
    return safeJson(text) as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
