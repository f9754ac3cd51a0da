/** JSON calls to a Google REST API with the data source's service account (tokens kept per process). */
import { DoguError } from '../../domain/errors.ts';
import type { HttpClient } from '../../domain/ports.ts';
import type { GoogleCredentials } from '../google-auth/google-credentials.ts';
import { parseServiceAccountKey } from '../google-auth/service-account-key.ts';

export interface RestContext {
  http: HttpClient;
  tokens: GoogleCredentials;
  /** The service account key (decrypted): never logged or returned. */
  keyText: string | undefined;
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
  if (!context.keyText || !parseServiceAccountKey(context.keyText))
    throw new DoguError(
      'data_source_error',
      'The data source has no service account key for this environment.',
    );
  const { token } = await context.tokens.access({
    connection: { serviceAccountKey: context.keyText },
    cacheKey: '',
    signal: context.signal,
  });
  const timeoutMs = Math.max(1, context.deadlineAt - Date.now());
  const response = await context.http.send(
    {
      method,
      url,
      headers: [
        ['authorization', `Bearer ${token}`],
        ...(body === undefined ? [] : ([['content-type', 'application/json']] as [string, string][])),
      ],
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    { signal: context.signal, timeoutMs, maxBodyBytes },
  );
  const text = new TextDecoder().decode(response.body);
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // Not JSON: the status says enough.
  }
  if (response.status >= 400) {
    const error = parsed.error as { message?: string; status?: string } | undefined;
    const why = [error?.status, error?.message].filter(Boolean).join(': ') || `HTTP ${response.status}`;
    throw new DoguError('data_source_error', `Google answered ${response.status} (${why}).`);
  }
  return parsed;
}
