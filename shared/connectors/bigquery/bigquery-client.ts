/**
 * The BigQuery client of a data source (`@google-cloud/bigquery`) with Dogu's credentials
 * (google-auth-library, shared/connectors/google-auth/) and transport (checked agents), and the
 * library's errors in Dogu's terms.
 */
import { BigQuery } from '@google-cloud/bigquery';
import type { AuthClient } from 'google-auth-library';
import type { DoguError } from '../../domain/errors.ts';
import { findDoguError, googleAuthFailure } from '../google-auth/google-credentials.ts';
import type { BigQueryConnection } from './definition.ts';

export function bigQueryClient(connection: BigQueryConnection, authClient: AuthClient): BigQuery {
  return new BigQuery({
    projectId: connection.projectId,
    authClient,
    ...(connection.location ? { location: connection.location } : {}),
    ...(connection.apiEndpoint ? { apiEndpoint: connection.apiEndpoint.replace(/\/+$/, '') } : {}),
    // Transient answers (429, 5xx) and lost connections are retried once: a run has a deadline.
    retryOptions: { autoRetry: true, maxRetries: 1 },
  });
}

/** A refusal of the API, with what BigQuery said (its reason and message). */
export interface BigQueryRefusal {
  status: number;
  reason: string;
  message: string;
}

/** What a failed library call means: a token step, a refusal of the API, or something else. */
export function classifyBigQueryError(
  error: unknown,
):
  | { kind: 'dogu'; error: DoguError }
  | { kind: 'refused'; refusal: BigQueryRefusal }
  | { kind: 'other'; message: string } {
  const dogu = findDoguError(error);
  if (dogu) return { kind: 'dogu', error: dogu };
  const e = (error ?? {}) as {
    code?: unknown;
    message?: string;
    errors?: { reason?: string; message?: string }[];
    config?: unknown;
    response?: { body?: unknown };
  };
  // gaxios errors come from the auth client's token steps; the API's answers are ApiErrors.
  if (e.config !== undefined) return { kind: 'dogu', error: googleAuthFailure(error) };
  if (typeof e.code === 'number' && e.code >= 400) {
    const body = parseBody(e.response?.body);
    return {
      kind: 'refused',
      refusal: {
        status: e.code,
        reason: e.errors?.[0]?.reason ?? body?.error?.status ?? `http_${e.code}`,
        message: e.errors?.[0]?.message ?? e.message ?? `HTTP ${e.code}`,
      },
    };
  }
  return { kind: 'other', message: e.message ?? String(error) };
}

function parseBody(body: unknown): { error?: { status?: string } } | undefined {
  if (typeof body !== 'string') return body as { error?: { status?: string } } | undefined;
  try {
    return JSON.parse(body) as { error?: { status?: string } };
  } catch {
    return undefined;
  }
}
