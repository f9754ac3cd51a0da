/**
 * BigQuery's REST API (v2) with the service account's bearer token, through Dogu's HTTP client (so
 * the address rule of HTTP data sources holds here too: metadata addresses are never reached).
 */
import { DoguError } from '../../domain/errors.ts';
import type { HttpClient, IdentityTokenSource } from '../../domain/ports.ts';
import type { GoogleCredentials } from '../google-auth/google-credentials.ts';
import { type BigQueryConnection, defaultApiEndpoint } from './definition.ts';

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

/** One REST call; a query's own time limit is the run's signal. */
const requestTimeoutMs = 120_000;
/** BigQuery answers at most 10 MB per page; JSON framing adds some. */
const maxBodyBytes = 32 * 1024 * 1024;

export class BigQueryApi {
  private readonly base: string;

  constructor(
    private readonly connection: BigQueryConnection,
    private readonly credentials: GoogleCredentials,
    private readonly http: HttpClient,
    /** Workload identity: who the token is for (the run's project environment). */
    private readonly scope: { cacheKey: string; identityToken?: IdentityTokenSource } = { cacheKey: '' },
  ) {
    const endpoint = (connection.apiEndpoint ?? defaultApiEndpoint).replace(/\/+$/, '');
    this.base = `${endpoint}/bigquery/v2/projects/${encodeURIComponent(connection.projectId)}`;
  }

  async call<T>(
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; query?: Record<string, string | undefined>; signal: AbortSignal },
  ): Promise<T> {
    if (this.connection.authentication !== 'workload-identity' && !this.connection.serviceAccountKey) {
      throw new DoguError(
        'data_source_error',
        'The data source has no service account key: add the JSON key file.',
      );
    }
    const { token } = await this.credentials.access({
      connection: this.connection,
      cacheKey: this.scope.cacheKey,
      ...(this.scope.identityToken ? { identityToken: this.scope.identityToken } : {}),
      signal: options.signal,
    });
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) query.set(name, value);
    const url = `${this.base}${path}${query.size > 0 ? `?${query}` : ''}`;
    const response = await this.http.send(
      {
        method,
        url,
        headers: [
          ['authorization', `Bearer ${token}`],
          ...(options.body === undefined ? [] : [['content-type', 'application/json'] as [string, string]]),
        ],
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      },
      { signal: options.signal, timeoutMs: requestTimeoutMs, maxBodyBytes },
    );
    const text = new TextDecoder().decode(response.body);
    if (response.status >= 400) {
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
