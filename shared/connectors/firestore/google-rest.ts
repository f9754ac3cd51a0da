/**
 * JSON calls to a Google REST API with the data source's service account: the auth client of
 * google-auth-library makes the request (token kept per key, checked transport, JSON both ways).
 */
import type { AuthClient } from 'google-auth-library';
import { DoguError } from '../../domain/errors.ts';
import { findDoguError, googleAuthFailure } from '../google-auth/google-credentials.ts';

export interface RestContext {
  /** Undefined: the environment has no service account key. */
  client: AuthClient | undefined;
  signal: AbortSignal;
  deadlineAt: number;
}

const maxBodyBytes = 16 * 1024 * 1024;

export async function googleCall(
  context: RestContext,
  method: string,
  url: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  if (!context.client)
    throw new DoguError(
      'data_source_error',
      'The data source has no service account key for this environment.',
    );
  try {
    const response = await context.client.request<Record<string, unknown>>({
      url,
      method: method as 'GET',
      ...(body === undefined ? {} : { data: body }),
      responseType: 'json',
      signal: context.signal,
      timeout: Math.max(1, context.deadlineAt - Date.now()),
      maxContentLength: maxBodyBytes,
      retry: false,
    });
    return response.data && typeof response.data === 'object' ? response.data : {};
  } catch (error) {
    throw callFailure(error);
  }
}

function callFailure(error: unknown): DoguError {
  const dogu = findDoguError(error);
  if (dogu) return dogu;
  const e = error as { config?: { url?: unknown }; response?: { status?: number; data?: unknown } };
  // A failure of the token request itself names the step; the API's refusals say what Google said.
  if (!e.response || /\/token$/.test(String(e.config?.url ?? ''))) return googleAuthFailure(error);
  const data = (e.response.data ?? {}) as { error?: { message?: string; status?: string } };
  const why =
    [data.error?.status, data.error?.message].filter(Boolean).join(': ') || `HTTP ${e.response.status}`;
  return new DoguError('data_source_error', `Google answered ${e.response.status} (${why}).`);
}
